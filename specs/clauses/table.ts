/**
 * The clauses single checks judge with (specs/common/clause.ts): each has its ID, the observation it rejects in words,
 * and what it cites in each service, as roles of the shared rules (`search.threshold`), as requirement IDs
 * (`PERSON-REL-ADD`) or as a family of roles (`op.*`, `type.*`; `governs:*` for the requirements that govern a reply
 * member; `*` for any requirement of the check that sends the request). The sentence a clause rests on is one of its
 * requirement's forbidding sentences (Requirement.forbids): the one holding the clause's `on` words, else the first.
 * Its judging function, a pure function beside it in its area's module, returns the observations it rejects in words
 * (empty: accepted).
 * Source: organization-identity-api.md and person-provider-identity-api.md, through the requirement catalogues
 * (specs/<service>/requirements.ts).
 */
import { type Clause, type Finding, clause } from '../common/clause.js';
import type { Requirement, ServiceName } from '../common/model.js';
import type { SeedCitation } from '../common/seed.js';
import { SERVICES, requirementFor } from '../services.js';

/** A clause of the single checks: what it rejects, and what it cites in each service. */
export interface CheckClause extends Clause {
  /** Roles (`search.threshold`), role families (`op.*`), requirement IDs, or `*` (any requirement of the service). */
  readonly cites: readonly string[];
  /** Words of the forbidding sentence the clause rests on, where its requirement names several. */
  readonly on?: string;
  /** For a listing: what `*` stands for at this clause. */
  readonly citesNote?: string;
}

/**
 * A clause of the single checks: `checkClause('BELOW-THRESHOLD', 'a result scoring below matchScoreThreshold',
 * ['search.threshold'])`.
 */
export function checkClause(
  id: string,
  rejects: string,
  cites: readonly string[],
  more: { on?: string; citesNote?: string } = {},
): CheckClause {
  return { ...clause(id, rejects), cites, ...more };
}

const resolved = new WeakMap<CheckClause, Map<ServiceName, string[]>>();

/**
 * The requirement IDs a clause may cite in a service (none where the service has no requirement for it); resolved once.
 */
export function clauseRequirements(c: CheckClause, service: ServiceName): string[] {
  let byService = resolved.get(c);
  if (!byService) resolved.set(c, (byService = new Map()));
  let ids = byService.get(service);
  if (!ids) byService.set(service, (ids = resolve(c, service)));
  return [...ids];
}

function resolve(c: CheckClause, service: ServiceName): string[] {
  const catalogue = SERVICES[service].requirements;
  const out = new Set<string>();
  for (const cite of c.cites) {
    if (cite === '*') {
      for (const r of catalogue) out.add(r.id);
    } else if (cite === 'governs:*') {
      for (const r of catalogue) if (r.governs?.length) out.add(r.id);
    } else if (cite.endsWith('.*')) {
      const prefix = cite.slice(0, -1);
      for (const r of catalogue) if (r.roles?.some((role) => role.startsWith(prefix))) out.add(r.id);
    } else if (cite.includes('.')) {
      const id = requirementFor(service, cite);
      if (id) out.add(id);
    } else if (catalogue.some((r) => r.id === cite)) out.add(cite);
  }
  return [...out];
}

/**
 * The forbidding sentence of `requirement` that `c` rests on: the one holding `c.on`, else the first; none for an
 * EXPECT requirement.
 */
export function restsOn(c: CheckClause, requirement: Requirement): SeedCitation | undefined {
  const list = requirement.forbids ?? [];
  return (c.on ? list.find((s) => s.quote.includes(c.on!)) : undefined) ?? list[0];
}

/** What a clause's rejection of `observed` cites through `requirement`: one finding per observation. */
export function findingsOf(
  c: CheckClause,
  requirement: Requirement,
  observed: readonly string[],
): Array<Finding & { rejects: string }> {
  const forbids = restsOn(c, requirement);
  return observed.map((o) => ({
    clause: c.id,
    rejects: c.rejects,
    requirement: requirement.id,
    ...(forbids ? { forbids } : {}),
    observed: o,
  }));
}
