/**
 * What a shared, table-driven rule module receives from a service's scenario file: the service's check registrar (which
 * knows its service), its steps kit and an optional label (added to titles, e.g. the provider type). A module looks up
 * the requirement that plays each of its roles in that service's catalogue (specs/<service>/requirements.ts): a role
 * the service has no requirement for is simply not registered.
 */
import type { Check } from '../../../harness/check.js';
import { type CheckOptions, type scenario, slug } from '../../../harness/register.js';
import { requirementFor } from '../../../specs/services.js';
import type { WalkConfig } from '../walk-config.js';
import type { steps } from '../steps.js';
import type { StepName } from '../../../specs/state/step-names.js';
import { sharedScript } from '../shared-script.js';

export type CheckFn = ReturnType<typeof scenario>['check'];
export type Kit = ReturnType<typeof steps>;

/** What registers shared checks: a service's registrar, and the label its titles take. */
export interface Registrar {
  check: CheckFn;
  label?: string;
}

export interface Shared extends Registrar {
  kit: Kit;
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

export const titled = (title: string, label?: string) => (label ? `${title} (${label})` : title);

/**
 * One shared check as data: its ID within its area (`<service>/<area>/<id>`, stable when its title is reworded), the
 * requirement role it verifies (`search.threshold`: it is registered in a service only where the service's catalogue
 * gives the role a requirement, specs/<service>/requirements.ts), its title, what else it needs, and its body.
 */
export interface SharedCheck<S extends Registrar = Shared> {
  id: string;
  role: string;
  title: string;
  needs?: {
    /** Further roles it verifies, each needed: it is not registered where one has no requirement. */
    roles?: readonly string[];
    /** Roles it cites as well where the service has them. */
    cites?: readonly string[];
    /** Roles the service must not have (a check that stands in for another where they are missing). */
    without?: readonly string[];
    /** What the service's set-up must give it (a hook, a walk configuration). */
    setup?: (s: S) => boolean;
  };
  /** Requirement IDs it cites besides its roles' (an operation's shape requirement). */
  also?: readonly string[];
  options?: CheckOptions;
  body: (t: Check, run: SharedRun<S>) => Promise<void>;
}

/** What a shared check's body receives: the service's set-up and the requirements of its roles. */
export interface SharedRun<S> {
  s: S;
  /** The requirement of its role. */
  id: string;
  /** The requirement of each of its roles (and of the roles it cites, where the service has them). */
  ids: Readonly<Record<string, string>>;
}

/**
 * Registers a service's shared checks: a loop over the entries whose roles the service's catalogue names, each with
 * its title (and the set-up's label), its requirements and its ID.
 */
export function registerShared<S extends Registrar>(s: S, entries: readonly SharedCheck<S>[]): void {
  for (const e of entries) {
    const roles = [e.role, ...(e.needs?.roles ?? [])];
    const ids: Record<string, string> = {};
    for (const role of [...roles, ...(e.needs?.cites ?? [])]) {
      const id = requirementFor(s.check.service, role);
      if (id) ids[role] = id;
    }
    const unwanted = (e.needs?.without ?? []).some((r) => requirementFor(s.check.service, r));
    if (roles.some((r) => !ids[r]) || unwanted || (e.needs?.setup && !e.needs.setup(s))) continue;
    const verifies = [...new Set([...Object.values(ids), ...(e.also ?? [])])];
    const id = s.label ? `${e.id}-${slug(s.label)}` : e.id;
    s.check(titled(e.title, s.label), verifies, (t) => e.body(t, { s, id: ids[e.role]!, ids }), { ...e.options, id });
  }
}
export { src } from '../requests.js';
export const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** A check of a state-table row: its role, ID and title. */
export type RowCheck = readonly [role: string, id: string, title: string];

/**
 * A state-table row's reply check and effect check, which share one run of their script
 * (scenarios/shared/shared-script.ts; `body` judges, at the step they are about, the requirements of both that the
 * service has), per kind of record where the service has kinds.
 */
export function rowChecks<S extends Scripted>(
  step: StepName,
  checks: readonly RowCheck[],
  body: (t: Check, judge: readonly string[], s: S) => Promise<void>,
): SharedCheck<S>[] {
  return checks.map(([role, id, title]) => ({
    id,
    role,
    title,
    body: (t, { s }) => {
      const cites = checks.map(([r]) => requirementFor(t.service, r)).filter((x): x is string => Boolean(x));
      return sharedScript(t, `${step}/${s.kind ?? 'any kind'}`, cites, (c, judge) => body(c, judge, s));
    },
  }));
}
