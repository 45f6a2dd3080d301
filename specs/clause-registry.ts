/**
 * The one registry of judgements: every clause, whoever judges with it (the single checks, the whole-state oracle, a
 * walk step, the notification feed, a state-table row's reply), is an entry here with its ID, what it rejects and what
 * it cites in each service; docs/clauses.md lists them all (run/docs/clauses.ts), and test/clause-registry.test.ts
 * lints the registry (IDs and rejects unique, every quoted sentence in the seeds, every clause judged with somewhere).
 * A clause's pure judging function stands beside it in its area's module.
 *
 * Source: organization-identity-api.md and person-provider-identity-api.md, through the requirement catalogues
 * (specs/<service>/requirements.ts) and the state tables (specs/<service>/state-spec.ts).
 */
import { AUTH_CLAUSES } from './clauses/auth.js';
import { BAD_INPUT_CLAUSES } from './clauses/bad-input.js';
import { BOUNDARY_CLAUSES } from './clauses/boundaries.js';
import { CONTRACT_CLAUSES } from './clauses/contract.js';
import { ENVELOPE_CLAUSES } from './clauses/envelope.js';
import { MATCHING_CLAUSES } from './clauses/matching.js';
import { NOTIFICATION_CLAUSES } from './clauses/notifications.js';
import { PERSON_CLAUSES } from './clauses/person.js';
import { POST_CLAUSES } from './clauses/post.js';
import { QUERY_CLAUSES } from './clauses/query.js';
import { RELATIONSHIP_CLAUSES } from './clauses/relationships.js';
import { SEARCH_CLAUSES } from './clauses/search.js';
import type { Clause, Finding } from './common/clause.js';
import type { Requirement, ServiceName } from './common/model.js';
import type { SeedCitation } from './common/seed.js';
import { SERVICES, requirementFor } from './services.js';
import { FEED_CLAUSES } from './state/feed-clauses.js';
import { ORACLE_CLAUSES } from './state/oracle.js';
import { REPLY_CLAUSES } from './state/reply-clauses.js';
import { stateCites } from './state/state-cites.js';
import { STEP_CLAUSES } from './state/step-clauses.js';

type Areas = ReadonlyArray<{ area: string; clauses: readonly Clause[] }>;

/** The single checks' clauses, area by area (test/clauses.test.ts judges each on observations built by hand). */
export const CHECK_AREAS: Areas = [
  { area: 'contract (every reply)', clauses: CONTRACT_CLAUSES },
  { area: 'envelope', clauses: ENVELOPE_CLAUSES },
  { area: 'postIdentity', clauses: POST_CLAUSES },
  { area: 'search', clauses: SEARCH_CLAUSES },
  { area: 'query', clauses: QUERY_CLAUSES },
  { area: 'relationships', clauses: RELATIONSHIP_CLAUSES },
  { area: 'notifications', clauses: NOTIFICATION_CLAUSES },
  { area: 'authentication', clauses: AUTH_CLAUSES },
  { area: 'bad input', clauses: BAD_INPUT_CLAUSES },
  { area: 'boundary values', clauses: BOUNDARY_CLAUSES },
  { area: 'person', clauses: PERSON_CLAUSES },
  { area: 'matching', clauses: MATCHING_CLAUSES },
];

/**
 * The state table's clauses: a step's request and reply, the whole observable state after it, a walk's feed (their
 * tests: test/oracle-clauses.test.ts, test/state-engine.test.ts, test/walk-feed.test.ts).
 */
export const STATE_AREAS: Areas = [
  { area: 'state table: a step and its request', clauses: STEP_CLAUSES },
  { area: "state table: a step's reply members", clauses: REPLY_CLAUSES },
  { area: 'state table: the whole observable state after a step', clauses: ORACLE_CLAUSES },
  { area: "state table: a walk's notification feed", clauses: FEED_CLAUSES },
];

/** The registry, area by area: where the clauses judge (a listing's sections). */
export const CLAUSE_AREAS: Areas = [...CHECK_AREAS, ...STATE_AREAS];

/** Every clause of the registry, by ID. */
export const CLAUSES: ReadonlyMap<string, Clause> = new Map(
  CLAUSE_AREAS.flatMap((a) => a.clauses).map((c) => [c.id, c]),
);

const resolved = new Map<string, string[]>();

/**
 * The requirement IDs a clause may cite in a service (none where the service has no requirement for it); resolved once.
 */
export function clauseRequirements(c: Clause, service: ServiceName): string[] {
  const key = `${service} ${c.id} ${c.cites.join(' ')}`;
  let ids = resolved.get(key);
  if (!ids) resolved.set(key, (ids = resolve(c, service)));
  return [...ids];
}

function resolve(c: Clause, service: ServiceName): string[] {
  const { requirements: catalogue, stateSpec } = SERVICES[service];
  const out = new Set<string>();
  for (const cite of c.cites) {
    if (cite.startsWith('state:')) for (const id of stateCites(stateSpec, cite.slice(6), c.id)) out.add(id);
    else if (cite === '*') for (const r of catalogue) out.add(r.id);
    else if (cite === 'governs:*') {
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
export function restsOn(c: Clause, requirement: Requirement): SeedCitation | undefined {
  const list = requirement.forbids ?? [];
  return (c.on ? list.find((s) => s.quote.includes(c.on!)) : undefined) ?? list[0];
}

/** What a clause's rejection of `observed` cites through `requirement`: one finding per observation. */
export function findingsOf(
  c: Clause,
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

/**
 * Findings as a failure carries them: each with what its clause rejects (a reply clause's words, or the registry's).
 */
export function withRejects(findings: readonly Finding[]): Array<Finding & { rejects: string }> {
  return findings.map((f) => ({
    ...f,
    rejects: (f as Finding & { rejects?: string }).rejects ?? CLAUSES.get(f.clause)?.rejects ?? f.clause,
  }));
}
