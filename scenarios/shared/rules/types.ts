/**
 * What a shared, table-driven rule module receives from a service's scenario file: the service's
 * check registrar, its steps kit, an optional label (added to titles, e.g. the provider type) and,
 * per role, the requirement ID the service's catalogue gives that rule. A role the service has no
 * requirement for is simply not registered.
 */
import type { scenario } from '../../../harness/register.js';
import type { steps } from '../steps.js';

export type CheckFn = ReturnType<typeof scenario>['check'];
export type Kit = ReturnType<typeof steps>;
export type Ids<Role extends string> = Partial<Record<Role, string>>;

export interface Shared<Role extends string> {
  check: CheckFn;
  kit: Kit;
  ids: Ids<Role>;
  /** Appended to every title as " (label)", so one service can run the table once per identity type. */
  label?: string;
}

export const titled = (title: string, label?: string) => (label ? `${title} (${label})` : title);
export const src = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });
export const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);
