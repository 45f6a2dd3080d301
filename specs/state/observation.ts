/**
 * What the whole-state oracle judges after a step: the replies it read (scenarios/shared/walk/oracle.ts reads them),
 * the plan of the observation, and the model the executable state table moved (specs/<service>/state-spec.ts); with the
 * helpers the oracle's clauses (specs/state/oracle-*.ts) share. Each clause rejects only an observation that
 * contradicts the sentence it cites (specs/common/clause.ts Cite); what the seeds leave open is accepted whatever the
 * deployment does, including answers no reference of ours gives:
 * - what a link ID no longer in use answers (nothing, itself, any identity, forwarded along any chain, after any
 *   delete) is not judged, except that no reply may show a deleted source or present an identity the seeds say was
 *   deleted as a whole (person);
 * - whether an identity lists every one of its sources is not judged, only that it lists none it may not;
 * - a search's results are judged only for data of removed sources and, person, deactivated identities.
 *
 * Source: organization-identity-api.md, "States and transitions", "What the service does", Endpoints (rule 3);
 * person-provider-identity-api.md, "States and transitions", Endpoints.
 */
import type { Answer } from '../common/answer.js';
import { type Cite, type Clause, type Finding, clause } from '../common/clause.js';
import { groupedSources, identityValues, sameSource } from '../common/identity-content.js';
import type { IdentityModel, ModelRecord } from './identity-model.js';
import type { Applied } from './state-engine.js';
import type { StateSpec } from './state-spec.js';

/** Everything the oracle read after one step (scenarios/shared/walk/oracle.ts read). */
export interface Observation {
  /** The link ID each record's nativeIdQuery resolved to (undefined: none). */
  linkOf: Map<string, string | undefined>;
  /** nativeIdQuery reply per record label. */
  lookups: Map<string, Answer>;
  /** identityIdQuery reply per link ID asked (current or not). */
  identities: Map<string, Answer>;
  /** demographicsSearch reply per record label (searched with that record's data). */
  searches: Map<string, Answer>;
  householdsBySource: Map<string, Answer>;
  householdsByLink: Map<string, Answer>;
  householdsById: Map<string, Answer>;
}

/**
 * What the observation after a step judges besides the model: the step's applied effects and what a deviation of an
 * untouched record breaks.
 */
export interface ObservePlan {
  applied: Applied;
  /**
   * What a partition that differs from the model breaks: the step's effect (or, after a rejection, "a rejected request
   * changes nothing").
   */
  step: Cite;
  /**
   * What two identities sharing a link ID break where no step separated them: the step's effect, or after a post, being
   * generated far apart (EXPECT).
   */
  joined: Cite;
  /** Records whose data a search is made with (the records the step named). */
  probes: ModelRecord[];
  /** Link IDs of the model's identities before the step. */
  before: Map<number, string>;
  /**
   * A post of new identities: their lookups say where they are; identityIdQuery of each new identity is left to the
   * steps that move them.
   */
  posted?: boolean;
  /**
   * Read every record and every link ID the walk has seen (its start and its end), instead of what the step can have
   * changed (the records it touched, the records of their identities before and after it, and the link IDs those ever
   * had).
   */
  full?: boolean;
}

/**
 * One judgement's inputs: the model (after the step and the adoption of followers), what was read, and each model
 * identity's link ID now.
 */
export interface Judging {
  m: IdentityModel;
  obs: Observation;
  spec: StateSpec;
  links: Map<number, string>;
  plan: ObservePlan;
  /** The profile's answer for a soft-deleted source's nativeIdQuery (softDeletedLookup). */
  softDeletedLookup: 'absent' | 'any';
}

/** A pure judgement of the oracle: the findings of its clauses in one observation. */
export interface OracleJudge {
  judge(j: Judging): Finding[];
  /** The clauses it judges with, where it is not a clause itself. */
  clauses?: readonly Clause[];
}

/** A clause of the oracle: its ID, what it rejects, what it cites, and the pure judgement. */
export interface OracleClause extends Clause, OracleJudge {}

export const labels = (rs: ModelRecord[]) => rs.map((r) => r.label).join('+');
export const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
/** A record moved by the step breaks the cite of the effect that moved it; any other deviation, the step's. */
export const citeFor = (j: Judging, ...about: ModelRecord[]): Cite =>
  about.map((r) => j.plan.applied.cites.get(r.label)).find(Boolean) ?? j.plan.step;
export const current = (j: Judging) => new Map([...j.links].map(([g, l]) => [l, g]));

/** A clause from its ID, what it rejects, what it cites (specs/state/state-cites.ts) and its judgement. */
export const oracleClause = (
  id: string,
  rejects: string,
  cites: readonly string[],
  judge: (j: Judging, c: Clause) => Finding[],
): OracleClause => {
  const c = clause(id, rejects, cites);
  return { ...c, judge: (j) => judge(j, c) };
};

/**
 * Every identity reply the oracle read, with where it came from: identityIdQuery of each link ID, nativeIdQuery of each
 * record (`own`: the record it was asked for), and each search result. `model`: the reply names an identity of the
 * model (a current link ID or one seen before), so values in it are the model's records' (a search, or a link ID no
 * longer in use, may answer identities of other users too, whose values may be the same words by chance).
 */
export function identityReplies(j: Judging): Array<{ where: string; content: any; own?: string; model: boolean }> {
  const out: Array<{ where: string; content: any; own?: string; model: boolean }> = [];
  const linkKnown = (l: unknown) => typeof l === 'string' && (j.m.linkHistory.has(l) || current(j).has(l));
  // An identity that lists a source of another user holds that user's values too: which words are whose is not told
  // apart.
  const onlyOurs = (content: any) =>
    groupedSources(content).every((s) => j.m.records.some((r) => sameSource(r.source, s)));
  const known = (l: unknown, content?: any) => linkKnown(l) && (content === undefined || onlyOurs(content));
  // A link ID no longer in use may answer any identity (open), also one of other users: only an answer naming a model
  // identity holds the model's values.
  for (const [linkId, reply] of j.obs.identities)
    if (reply.success === true)
      out.push({
        where:
          `identityIdQuery(${linkId})` +
          (reply.content?.linkId !== linkId ? ` (answering ${String(reply.content?.linkId)})` : ''),
        content: reply.content,
        model: known(reply.content?.linkId, reply.content),
      });
  for (const [label, reply] of j.obs.lookups)
    if (reply.success === true)
      out.push({
        where: `nativeIdQuery of ${label}`,
        content: reply.content,
        own: label,
        model: known(reply.content?.linkId, reply.content),
      });
  for (const [label, reply] of j.obs.searches)
    if (reply.success === true)
      for (const [i, result] of (Array.isArray(reply.content?.searchResults)
        ? reply.content.searchResults
        : []
      ).entries())
        out.push({
          where: `result ${i + 1} (${String(result?.linkId)}) of a search with ${label}'s data`,
          content: result,
          model: known(result?.linkId, result),
        });
  return out;
}

/** Values of `values` a reply's content shows (its identity and each identityGroupedBySource entry). */
export const shownIn = (content: any, values: string[]) => {
  const shown = identityValues(content);
  return values.filter((v) => shown.has(v));
};
