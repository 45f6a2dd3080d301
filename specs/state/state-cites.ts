/**
 * What a clause of the state judgements cites in a service, read from the service's state table: a clause's
 * `state:<family>` cites (specs/common/clause.ts Clause.cites) stand for the requirements its findings can name there.
 * - `state:effect`: an effect of any row (the row's effect requirement, or the effect's own);
 * - `state:effect.<mark>`: the effects that leave that mark (`nowhere`, `absentFrom`, `unlisted`, `withSurvivor`,
 *   `shownNow`, `sameLink`, `fresh`, `identityGone`, `history`);
 * - `state:reject`: what a request the seeds forbid breaks (provider: a merge or link of two provider types);
 * - `state:queries.<rule>`: a query rule (`nativeId`, `idQueryReturns`, `idQueryEcho`, ..., `households`);
 * - `state:feed`: the rows' feed requirements; `state:partition`: the feed's paging promise;
 * - `state:reply`: the requirements of the rows' reply clauses that bear the clause's ID.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import type { Effect, QueryRules, SpecRecord, StateSpec } from './state-spec.js';
import { StateModel } from './state-spec.js';

/** Which effects leave each mark. */
const MARKS: Record<string, (e: Effect) => boolean> = {
  nowhere: (e) => Boolean(e.data?.nowhere),
  absentFrom: (e) => Boolean(e.data?.absentFromRole),
  unlisted: (e) => Boolean(e.data?.unlistedFromRole),
  withSurvivor: (e) => Boolean(e.data?.withSurvivor),
  shownNow: (e) => Boolean(e.data?.shownNow),
  sameLink: (e) => Boolean(e.sameLink),
  fresh: (e) => Boolean(e.fresh),
  identityGone: (e) => Boolean(e.identityGone),
  history: (e) => Boolean(e.data?.history),
};

/** The requirements a merge or link of records of two kinds breaks (the rows' request outcomes for them). */
export function sameKindRequirements(spec: StateSpec): string[] {
  const [a, b] = spec.kinds ?? [];
  if (!a || !b) return [];
  const rec = (label: string, kind: string): SpecRecord => ({
    label,
    state: 'active',
    group: label === 'A' ? 1 : 2,
    kind,
    data: {},
  });
  return spec.rows
    .filter((row) => row.roles.length === 2)
    .map((row) => row.request(new StateModel(), [rec('A', a), rec('B', b)]))
    .filter((o) => o.verdict === 'reject')
    .map((o) => o.requirement!);
}

/** The requirements a query rule names. */
function queryRequirements(q: QueryRules, rule: string): string[] {
  if (rule === 'households')
    return q.households ? [q.households.byLinkId, q.households.bySource, q.households.byId] : [];
  const cite = q[rule as Exclude<keyof QueryRules, 'households'>];
  return cite ? [cite.requirement] : [];
}

/**
 * The requirement IDs a `state:<family>` cite of clause `clauseId` stands for in `spec` (none where the service's table
 * has none).
 * @throws Error for a family or mark this module does not know (a typo in a clause's cites)
 */
export function stateCites(spec: StateSpec, family: string, clauseId: string): string[] {
  const [head, detail] = family.split(/\.(.*)/s) as [string, string | undefined];
  const effects = spec.rows.flatMap((row) => row.effects.map((e) => ({ row, e })));
  const ofEffect = ({ row, e }: (typeof effects)[number]) => e.requirement ?? row.effectRequirement;
  switch (head) {
    case 'effect': {
      if (detail && !MARKS[detail]) throw new Error(`clause ${clauseId}: no effect mark ${detail}`);
      const chosen = detail ? effects.filter((x) => MARKS[detail]!(x.e)) : effects;
      return [...(detail ? [] : spec.rows.map((r) => r.effectRequirement)), ...chosen.map(ofEffect)];
    }
    case 'reject':
      return sameKindRequirements(spec);
    case 'queries':
      return queryRequirements(spec.queries, detail ?? '');
    case 'feed':
      return spec.rows.flatMap((r) => (r.feed ? [r.feed.requirement] : []));
    case 'partition':
      return spec.feed.partition ? [spec.feed.partition.requirement] : [];
    case 'reply':
      return spec.rows.flatMap((r) => r.reply.filter((c) => c.id === clauseId).map((c) => c.requirement));
    default:
      throw new Error(`clause ${clauseId}: no state family ${family}`);
  }
}
