/**
 * What a shared, table-driven rule module receives from a service's scenario file: the service's check registrar (which
 * knows its service), its steps kit and an optional label (added to titles, e.g. the provider type). A module looks up
 * the requirement that plays each of its roles in that service's catalogue (specs/<service>/requirements.ts): a role
 * the service has no requirement for is simply not registered.
 */
import type { scenario } from '../../../harness/register.js';
import { requirementFor } from '../../../specs/services.js';
import type { WalkConfig } from '../walk-config.js';
import { declared } from '../declared.js';
import type { steps } from '../steps.js';
import type { StepName } from '../../../specs/state/step-names.js';
import { type SharedBody, sharedScript } from '../shared-script.js';

export type CheckFn = ReturnType<typeof scenario>['check'];
export type Kit = ReturnType<typeof steps>;
export type Ids<Role extends string> = Partial<Record<Role, string>>;

export interface Shared {
  check: CheckFn;
  kit: Kit;
  /**
   * The requirement IDs these checks verify in the calling service, written where the checks are registered so that a
   * search for an ID finds them; checked against the roles the service's catalogue gives (declared), so the list cannot
   * drift.
   */
  verifies: readonly string[];
  /** Appended to every title as " (label)", so one service can run the table once per identity type. */
  label?: string;
}

/**
 * What a module of scripted checks (scenarios/shared/script.ts) receives besides: the service's state table, through
 * its walk configuration.
 */
export interface Scripted extends Shared {
  walks: WalkConfig;
  /** The identity kind the records take where the service has kinds (provider type). */
  kind?: string;
}

/**
 * The requirement IDs the check's service gives the roles `<group>.<role>`, which must be the ones the caller declared
 * it verifies.
 * @throws Error when `verifies` and the roles' IDs differ (see declared)
 */
export function idsFor<Role extends string>(
  check: CheckFn,
  group: string,
  roles: readonly Role[],
  verifies: readonly string[],
): Ids<Role> {
  const ids: Ids<Role> = {};
  for (const role of roles) {
    const id = requirementFor(check.service, `${group}.${role}`);
    if (id) ids[role] = id;
  }
  declared(check.service, group, verifies, Object.values(ids) as string[]);
  return ids;
}

export const titled = (title: string, label?: string) => (label ? `${title} (${label})` : title);
export const src = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });
export const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/**
 * Registers a state-table row's reply check and effect check (each `[requirement, title]`; a role the service lacks is
 * undefined) on one script they share (scenarios/shared/shared-script.ts), per kind of record where the service has
 * kinds.
 */
export function pairedChecks(
  check: CheckFn,
  T: (title: string) => string,
  kind: string | undefined,
  step: StepName,
  checks: ReadonlyArray<[string | undefined, string]>,
  body: SharedBody,
): void {
  const cites = checks.map(([id]) => id).filter((x): x is string => Boolean(x));
  for (const [id, title] of checks)
    if (id) check(T(title), [id], (t) => sharedScript(t, `${step}/${kind ?? 'any kind'}`, cites, body));
}
