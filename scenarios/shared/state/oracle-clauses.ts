/**
 * The whole-state oracle's clauses: each a named, pure judgement of one observation of the deployment (the replies the
 * oracle read after a step, scenarios/shared/walk/oracle.ts) against the model the executable state table moved
 * (specs/<service>/state-spec.ts). Each rejects only an observation that contradicts the sentence it cites
 * (specs/common/clause.ts Cite); what the seeds leave open is accepted whatever the deployment does, including answers
 * no reference of ours gives:
 * - what a link ID no longer in use answers (nothing, itself, any identity, forwarded along any chain, after any
 *   delete) is not judged, except that no reply may show a deleted source or present an identity the seeds say was
 *   deleted as a whole (person);
 * - whether an identity lists every one of its sources is not judged, only that it lists none it may not;
 * - a search's results are judged only for data of removed sources and, person, deactivated identities.
 *
 * Source: organization-identity-api.md, "States and transitions", "What the service does", Endpoints (rule 3);
 * person-provider-identity-api.md, "States and transitions", Endpoints.
 */
import { describeReply } from '../../../harness/check.js';
import type { Reply } from '../../../harness/reply.js';
import { isAbsent } from '../../../harness/reply.js';
import { type Cite, type Clause, type Finding, clause, finding } from '../../../specs/common/clause.js';
import type { Applied } from '../../../specs/state/state-engine.js';
import type { StateSpec } from '../../../specs/state/state-spec.js';
import { groupedSources, identityValues, resultLinkIds, sameSource } from '../steps.js';
import { type IdentityModel, type ModelRecord, isLive } from './identity-model.js';

/** Everything the oracle read after one step (scenarios/shared/walk/oracle.ts read). */
export interface Observation {
  /** The link ID each record's nativeIdQuery resolved to (undefined: none). */
  linkOf: Map<string, string | undefined>;
  /** nativeIdQuery reply per record label. */
  lookups: Map<string, Reply>;
  /** identityIdQuery reply per link ID asked (current or not). */
  identities: Map<string, Reply>;
  /** demographicsSearch reply per record label (searched with that record's data). */
  searches: Map<string, Reply>;
  householdsBySource: Map<string, Reply>;
  householdsByLink: Map<string, Reply>;
  householdsById: Map<string, Reply>;
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

/** A clause of the oracle: its ID, what it rejects, and the pure judgement. */
export interface OracleClause extends Clause {
  judge(j: Judging): Finding[];
}

const labels = (rs: ModelRecord[]) => rs.map((r) => r.label).join('+');
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
/** A record moved by the step breaks the cite of the effect that moved it; any other deviation, the step's. */
const citeFor = (j: Judging, ...about: ModelRecord[]): Cite =>
  about.map((r) => j.plan.applied.cites.get(r.label)).find(Boolean) ?? j.plan.step;
const current = (j: Judging) => new Map([...j.links].map(([g, l]) => [l, g]));

/** A clause from its ID, what it rejects and its judgement. */
const oracleClause = (id: string, rejects: string, judge: (j: Judging, c: Clause) => Finding[]): OracleClause => {
  const c = clause(id, rejects);
  return { ...c, judge: (j) => judge(j, c) };
};

/**
 * Every identity reply the oracle read, with where it came from: identityIdQuery of each link ID, nativeIdQuery of each
 * record (`own`: the record it was asked for), and each search result. `model`: the reply names an identity of the
 * model (a current link ID or one seen before), so values in it are the model's records' (a search, or a link ID no
 * longer in use, may answer identities of other users too, whose values may be the same words by chance).
 */
function identityReplies(j: Judging): Array<{ where: string; content: any; own?: string; model: boolean }> {
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
        where: `identityIdQuery(${linkId})${reply.content?.linkId !== linkId ? ` (answering ${String(reply.content?.linkId)})` : ''}`,
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
const shownIn = (content: any, values: string[]) => {
  const shown = identityValues(content);
  return values.filter((v) => shown.has(v));
};

// --- Where each record resolves (nativeIdQuery) ---

export const LIVE_RECORD_NOT_FOUND = oracleClause(
  'LIVE-RECORD-NOT-FOUND',
  'nativeIdQuery finding no identity for a record the state table keeps live (active, or deactivated where it ' +
    'stays visible)',
  (j, c) =>
    [...j.m.groups().values()].flatMap((members) =>
      members
        .filter((r) => !j.obs.linkOf.get(r.label))
        .map((r) =>
          finding(
            c,
            citeFor(j, r),
            `${r.label} is ${r.state}, but nativeIdQuery finds no identity: ` +
              `${j.obs.lookups.has(r.label) ? describeReply(j.obs.lookups.get(r.label)!) : 'none at the last observation'}`,
          ),
        ),
    ),
);

export const ONE_IDENTITY_SPLIT = oracleClause(
  'ONE-IDENTITY-SPLIT',
  'records the state table holds in one identity resolving to different link IDs',
  (j, c) =>
    [...j.m.groups().values()].flatMap((members) => {
      const found = [...new Set(members.map((r) => j.obs.linkOf.get(r.label)).filter(Boolean))];
      return found.length > 1
        ? [
            finding(
              c,
              citeFor(j, ...members),
              `${labels(members)} form one identity, but resolve to ${found.length} link IDs: ` +
                `${members.map((r) => `${r.label}=${j.obs.linkOf.get(r.label)}`).join(', ')}`,
            ),
          ]
        : [];
    }),
);

export const SEPARATE_IDENTITIES_JOINED = oracleClause(
  'SEPARATE-IDENTITIES-JOINED',
  'records the state table holds in separate identities sharing one link ID',
  (j, c) => {
    const out: Finding[] = [];
    const owner = new Map<string, ModelRecord[]>();
    for (const members of j.m.groups().values()) {
      const link = members.map((r) => j.obs.linkOf.get(r.label)).find(Boolean);
      if (!link) continue;
      const other = owner.get(link);
      // The effect that moved one of them breaks its row; otherwise the step's, or after a post, being generated far
      // apart (EXPECT).
      const cite =
        [...members, ...(other ?? [])].map((r) => j.plan.applied.cites.get(r.label)).find(Boolean) ?? j.plan.joined;
      if (other)
        out.push(
          finding(
            c,
            cite,
            `${labels(other)} and ${labels(members)} are separate identities, but share link ID ${link}`,
          ),
        );
      else owner.set(link, members);
    }
    return out;
  },
);

export const DELETED_SOURCE_FOUND = oracleClause(
  'DELETED-SOURCE-FOUND',
  'nativeIdQuery resolving a hard-deleted source to an identity',
  (j, c) =>
    j.m.records
      .filter((r) => r.state === 'deleted' && j.obs.linkOf.get(r.label))
      .map((r) =>
        finding(
          c,
          citeFor(j, r),
          `${r.label} was hard-deleted, but nativeIdQuery resolves it to ${j.obs.linkOf.get(r.label)}`,
        ),
      ),
);

export const SOFT_DELETED_SOURCE_FOUND = oracleClause(
  'SOFT-DELETED-SOURCE-FOUND',
  'nativeIdQuery resolving a soft-deleted source to an identity, where the seeds or the profile ' +
    '(softDeletedLookup = absent) say it is not found',
  (j, c) =>
    j.softDeletedLookup !== 'absent'
      ? []
      : j.m.records
          .filter((r) => r.state === 'soft-deleted' && j.obs.linkOf.get(r.label))
          .map((r) =>
            finding(
              c,
              j.plan.applied.cites.get(r.label) ?? j.spec.queries.softDeletedAbsent ?? j.plan.step,
              `${r.label} is soft-deleted, but nativeIdQuery resolves it to ${j.obs.linkOf.get(r.label)}`,
            ),
          ),
);

export const RETIRED_RESOLVES_ELSEWHERE = oracleClause(
  'RETIRED-RESOLVES-ELSEWHERE',
  "nativeIdQuery resolving a merged (retired) source to an identity other than its survivor's, now or at the " +
    'merge (resolving to nothing is open)',
  (j, c) =>
    j.m.records.flatMap((r) => {
      const link = j.obs.linkOf.get(r.label);
      const survivor = j.m.get(r.retiredInto ?? '');
      if (r.state !== 'retired' || !link || !survivor || !isLive(survivor)) return [];
      // The survivor's identity now and at the merge are often the same link ID: named once.
      const allowed = [
        ...new Set(
          [j.links.get(survivor.group), r.mergedGroup === undefined ? undefined : j.links.get(r.mergedGroup)].filter(
            Boolean,
          ),
        ),
      ];
      return allowed.includes(link)
        ? []
        : [
            finding(
              c,
              citeFor(j, r),
              `${r.label} is merged into ${r.retiredInto}, but resolves to ${link}, not to the survivor's ` +
                `identity (${allowed.join(' or ') || 'none found'})`,
            ),
          ];
    }),
);

// --- What identityIdQuery answers ---

export const REQUESTED_LINK_NOT_ECHOED = oracleClause(
  'REQUESTED-LINK-NOT-ECHOED',
  'an identityIdQuery answer whose requestedLinkId is not the link ID asked for',
  (j, c) => {
    const echo = j.spec.queries.idQueryEcho;
    if (!echo) return [];
    return [...j.obs.identities]
      .filter(
        ([linkId, reply]) => reply.success === true && !isAbsent(reply) && reply.content?.requestedLinkId !== linkId,
      )
      .map(([linkId, reply]) =>
        finding(
          c,
          echo,
          `identityIdQuery(${linkId}) answered requestedLinkId ${JSON.stringify(reply.content?.requestedLinkId)}`,
        ),
      );
  },
);

export const LINK_IN_USE_NOT_FOUND = oracleClause(
  'LINK-IN-USE-NOT-FOUND',
  'identityIdQuery finding nothing for a link ID in use (one that nativeIdQuery resolves a live record to)',
  (j, c) =>
    [...j.obs.identities].flatMap(([linkId, reply]) => {
      const group = current(j).get(linkId);
      return group !== undefined && isAbsent(reply)
        ? [
            finding(
              c,
              j.spec.queries.idQueryReturns,
              `identityIdQuery(${linkId}), the identity of ${labels(j.m.members(group))}, finds nothing: ` +
                `${describeReply(reply)}`,
            ),
          ]
        : [];
    }),
);

export const LINK_IN_USE_OTHER_IDENTITY = oracleClause(
  'LINK-IN-USE-OTHER-IDENTITY',
  'identityIdQuery of a link ID in use answering an identity with another link ID',
  (j, c) =>
    [...j.obs.identities].flatMap(([linkId, reply]) => {
      const group = current(j).get(linkId);
      return group !== undefined && !isAbsent(reply) && reply.content?.linkId !== linkId
        ? [
            finding(
              c,
              j.spec.queries.idQueryReturns,
              `identityIdQuery(${linkId}), the identity of ${labels(j.m.members(group))}, answered linkId ` +
                `${String(reply.content?.linkId)}`,
            ),
          ]
        : [];
    }),
);

export const DELETED_IDENTITY_PRESENTED = oracleClause(
  'DELETED-IDENTITY-PRESENTED',
  'a reply presenting (as its linkId) an identity deleted as a whole with its only source record ' +
    '(identityIdQuery answering it, nativeIdQuery resolving to it, a search returning it)',
  (j, c) => {
    const out: Finding[] = [];
    for (const [linkId, cite] of j.m.goneLinks) {
      const id = j.obs.identities.get(linkId);
      if (id && id.success === true && !isAbsent(id) && id.content?.linkId === linkId)
        out.push(
          finding(
            c,
            cite,
            `identityIdQuery(${linkId}) still answers identity ${linkId}, whose only source record was hard-deleted`,
          ),
        );
      for (const [label, link] of j.obs.linkOf)
        if (link === linkId)
          out.push(
            finding(
              c,
              cite,
              `nativeIdQuery of ${label} resolves to ${linkId}, an identity deleted with its only source record`,
            ),
          );
      for (const [label, reply] of j.obs.searches)
        if (reply.success === true && resultLinkIds(reply).includes(linkId))
          out.push(
            finding(
              c,
              cite,
              `a search with ${label}'s data returns ${linkId}, an identity deleted with its only source record`,
            ),
          );
    }
    return out;
  },
);

// --- Which sources an identity lists, and whose data it shows ---

/**
 * A record the seeds took out of every identity and that is still out: a later step the seeds leave open (a repeated
 * soft delete, then a restore) made its state unknown, and it may be back.
 */
const removedNow = (r: ModelRecord) => Boolean(r.data.nowhere) && r.state !== 'unknown';

export const REMOVED_SOURCE_LISTED = oracleClause(
  'REMOVED-SOURCE-LISTED',
  'a reply listing among its sources (identityGroupedBySource) a source the seeds took out of every identity ' +
    '(hard-deleted; provider: soft-deleted)',
  (j, c) => {
    const removed = j.m.records.filter(removedNow);
    return identityReplies(j).flatMap((x) =>
      removed
        .filter((r) => x.own !== r.label && groupedSources(x.content).some((s) => sameSource(s, r.source)))
        .map((r) => finding(c, r.data.nowhere!, `${x.where} lists ${r.state} ${r.label} among its sources`)),
    );
  },
);

export const REMOVED_SOURCE_DATA_SHOWN = oracleClause(
  'REMOVED-SOURCE-DATA-SHOWN',
  'a reply showing values of a source the seeds took out of every identity (hard-deleted; provider: ' +
    'soft-deleted); only values no other record of the model shows count',
  (j, c) => {
    const removed = j.m.records.filter(removedNow).map((r) => ({ r, own: j.m.ownValues(r) }));
    return identityReplies(j)
      .filter((x) => x.model)
      .flatMap((x) =>
        removed.flatMap(({ r, own }) => {
          const shown = x.own === r.label || !own.length ? [] : shownIn(x.content, own);
          return shown.length
            ? [
                finding(
                  c,
                  r.data.nowhere!,
                  `${x.where} shows data of ${r.state} ${r.label}: ${shown.slice(0, 3).join(', ')}`,
                ),
              ]
            : [];
        }),
      );
  },
);

export const SOURCE_LISTED_WHERE_IT_LEFT = oracleClause(
  'SOURCE-LISTED-WHERE-IT-LEFT',
  'an identity listing among its sources a live record that a step took out of it (unlink, unmerge), or, where ' +
    'a source is held by a single identity (person), that another identity holds',
  (j, c) => {
    const out: Finding[] = [];
    const single = j.spec.queries.singleIdentity;
    for (const [linkId, reply] of j.obs.identities) {
      if (reply.success !== true || isAbsent(reply)) continue;
      const answered = String(reply.content?.linkId);
      const group = current(j).get(answered);
      for (const s of groupedSources(reply.content)) {
        const r = j.m.records.find((x) => sameSource(x.source, s));
        if (!r || !isLive(r)) continue;
        const holds = j.obs.linkOf.get(r.label);
        // Only identities in use are judged: what a link ID no longer in use answers (itself, forwarded, an alias) is
        // open.
        if (group === undefined) continue;
        const left = r.data.absentFrom?.find((a) => a.group === group && r.group !== group);
        if (left)
          out.push(
            finding(
              c,
              left.cite,
              `identityIdQuery(${linkId}) answers ${answered}, which lists ${r.label}, though ${r.label} left it`,
            ),
          );
        else if (single && holds && holds !== answered)
          out.push(
            finding(
              c,
              single,
              `identityIdQuery(${linkId}) answers ${answered}, which lists ${r.label}, held by identity ${holds}`,
            ),
          );
      }
    }
    return out;
  },
);

export const DEPARTED_DATA_SHOWN = oracleClause(
  'DEPARTED-DATA-SHOWN',
  'the identity an unmerge took a record out of still showing values of that record (the data was "taken from" it)',
  (j, c) =>
    j.m.records.flatMap((r) => {
      const own = j.m.ownValues(r);
      return (r.data.absentFrom ?? [])
        .filter(
          (a) =>
            a.data && !((isLive(r) && r.group === a.group) || (r.state === 'retired' && r.mergedGroup === a.group)),
        )
        .flatMap((a) => {
          const link = j.links.get(a.group);
          const reply = link ? j.obs.identities.get(link) : undefined;
          const ours = groupedSources(reply?.content).every((s) => j.m.records.some((x) => sameSource(x.source, s)));
          const shown = reply?.success === true && own.length && ours ? shownIn(reply.content, own) : [];
          return shown.length
            ? [
                finding(
                  c,
                  a.cite,
                  `identity ${link} still shows data of ${r.label}, which left it: ${shown.slice(0, 3).join(', ')}`,
                ),
              ]
            : [];
        });
    }),
);

export const MERGED_DATA_MISSING = oracleClause(
  'MERGED-DATA-MISSING',
  "the survivor's identity showing none of the values of a source merged into it, where the survivor's identity " +
    'holds combined data (provider)',
  (j, c) =>
    j.m.records.flatMap((r) => {
      const survivor = j.m.get(r.retiredInto ?? '');
      // The survivor's identity at the merge holds the combined data; once the survivor moved on (restored into a new
      // entity), it is not stated.
      if (
        r.state !== 'retired' ||
        !r.data.withSurvivor ||
        !survivor ||
        !isLive(survivor) ||
        survivor.group !== r.mergedGroup
      )
        return [];
      const link = j.links.get(survivor.group);
      const reply = link ? j.obs.identities.get(link) : undefined;
      const own = j.m.ownValues(r);
      if (reply?.success !== true || !own.length || shownIn(reply.content, own).length) return [];
      return [
        finding(
          c,
          r.data.withSurvivor,
          `the survivor's identity ${link} shows none of the data of ${r.label}, merged into it ` +
            `(${own.slice(0, 3).join(', ')})`,
        ),
      ];
    }),
);

export const RETURNED_DATA_MISSING = oracleClause(
  'RETURNED-DATA-MISSING',
  "a record's identity, right after a restore, unmerge or link brought the record into it, not showing its " +
    'values (all of them where it stands alone; any of them where the identity lists it)',
  (j, c) =>
    j.plan.applied.shownNow.flatMap((s) => {
      const r = j.m.get(s.label)!;
      const own = j.m.ownValues(r);
      const link = isLive(r) && own.length ? j.links.get(r.group) : undefined;
      const reply = link ? j.obs.identities.get(link) : undefined;
      if (reply?.success !== true) return [];
      const shown = shownIn(reply.content, own);
      if (s.how === 'all' && j.m.members(r.group).length === 1) {
        const missing = own.filter((v) => !shown.includes(v));
        return missing.length
          ? [
              finding(
                c,
                s.cite,
                `identity ${link} of ${r.label} alone does not show its data: ${missing.slice(0, 3).join(', ')}`,
              ),
            ]
          : [];
      }
      return groupedSources(reply.content).some((g) => sameSource(g, r.source)) && !shown.length
        ? [finding(c, s.cite, `identity ${link} lists ${r.label} among its sources but shows none of its data`)]
        : [];
    }),
);

// --- Searches with the step's records' data ---

export const EXCLUDED_RECORD_MATCHED = oracleClause(
  'EXCLUDED-RECORD-MATCHED',
  'a search returning an identity whose records are all excluded from matching (person: deactivated)',
  (j, c) => {
    const excluded = j.spec.queries.excludedFromMatching;
    if (!excluded) return [];
    const now = current(j);
    return [...j.obs.searches].flatMap(([label, reply]) =>
      reply.success !== true
        ? []
        : resultLinkIds(reply).flatMap((l) => {
            const group = now.get(l);
            const members = group === undefined ? [] : j.m.members(group);
            return members.length && members.every((r) => r.state === 'deactivated')
              ? [
                  finding(
                    c,
                    excluded,
                    `a search with ${label}'s data returns ${l}, whose records (${labels(members)}) are all ` +
                      `deactivated`,
                  ),
                ]
              : [];
          }),
    );
  },
);

export const INACTIVE_RECORD_MATCHED = oracleClause(
  'INACTIVE-RECORD-MATCHED',
  'a search result presenting, under a link ID no live record resolves to any more, values of a record that ' +
    'left its identity for no live one: merged into another ("a single surviving identity results") or, where ' +
    'soft-deleted sources are not found (profile softDeletedLookup = absent), soft-deleted ("no longer active")',
  (j, c) => {
    const now = current(j);
    const inactive = (r: ModelRecord) =>
      r.state === 'retired' || (r.state === 'soft-deleted' && j.softDeletedLookup === 'absent' && !r.data.nowhere);
    return [...j.obs.searches].flatMap(([label, reply]) =>
      reply.success !== true
        ? []
        : (Array.isArray(reply.content?.searchResults) ? reply.content.searchResults : []).flatMap((result: any) => {
            const l = result?.linkId;
            if (typeof l !== 'string' || now.has(l)) return [];
            return [...(j.m.linkHistory.get(l) ?? [])]
              .map((h) => j.m.get(h)!)
              .filter((r) => r && inactive(r))
              .flatMap((r) => {
                const shown = shownIn(result, j.m.ownValues(r));
                return shown.length
                  ? [
                      finding(
                        c,
                        j.plan.applied.cites.get(r.label) ?? r.since ?? j.plan.step,
                        `a search with ${label}'s data returns ${l}, the identity ${r.state} ${r.label} left, ` +
                          `with its data: ${shown.slice(0, 3).join(', ')}`,
                      ),
                    ]
                  : [];
              });
          }),
    );
  },
);

// --- Link IDs a step pins ---

export const LINK_NOT_ORIGINAL = oracleClause(
  'LINK-NOT-ORIGINAL',
  'a record that must return to its original link ID (person reactivate) in an identity with another link ID',
  (j, c) =>
    j.plan.applied.sameLink.flatMap((s) => {
      const r = j.m.get(s.label)!;
      const [was, now] = [j.plan.before.get(s.group), j.links.get(r.group)];
      return was && now && now !== was
        ? [finding(c, s.cite, `${r.label} was in identity ${was}, but is now in ${now}`)]
        : [];
    }),
);

export const LINK_NOT_NEW = oracleClause(
  'LINK-NOT-NEW',
  'a record that must be split into a new link ID of its own (person unlink, unmerge) in an identity whose link ' +
    'ID was seen before',
  (j, c) =>
    j.plan.applied.freshLink.flatMap((s) => {
      const r = j.m.get(s.label)!;
      const now = j.links.get(r.group);
      return now && j.m.linkHistory.has(now)
        ? [finding(c, s.cite, `${r.label} is in identity ${now}, a link ID seen before, not a new one`)]
        : [];
    }),
);

// --- Households (person) ---

/** The household a householdQuery reply names, or undefined when it names none (a rejection, or no householdId). */
export const householdOf = (r: Reply): string | undefined =>
  r.success === true && typeof r.content?.householdId === 'string' ? r.content.householdId : undefined;

export const HOUSEHOLD_WITHOUT_LINK = clause(
  'HOUSEHOLD-WITHOUT-LINK',
  'householdQuery by a link ID, or by a source, answering a household that does not list that link ID (or the ' +
    'link ID of the source)',
);
export const HOUSEHOLD_FORMS_DISAGREE = clause(
  'HOUSEHOLD-FORMS-DISAGREE',
  'householdQuery by link ID and by source plus native ID of one record finding different households, or one ' +
    'finding a household and the other none',
);
export const HOUSEHOLD_BY_ID_DIFFERS = clause(
  'HOUSEHOLD-BY-ID-DIFFERS',
  'householdQuery by a household ID another form found not returning that household, or listing other link IDs',
);

/**
 * The three lookup forms of householdQuery for one record, against one another: by link ID the household holding that
 * link ID, by source the household of the record's identity, by household ID that household with the same link IDs. A
 * household one form finds and another does not breaks the form that missed it. `byId` gives the reply for a household
 * ID (undefined: not asked). Households forming at all is not stated.
 * Source: person-provider-identity-api.md, Endpoints (/householdQuery: "returns the link IDs in a household, looked up
 * by link ID, by source plus native ID, or by household ID").
 */
export function householdForms(
  h: NonNullable<StateSpec['queries']['households']>,
  label: string,
  link: string,
  bySource: Reply,
  byLink: Reply,
  byId: (householdId: string) => Reply | undefined,
): Finding[] {
  const out: Finding[] = [];
  const say = (c: Clause, requirement: string, observed: string) =>
    out.push(finding(c, { requirement, forbids: h.seed }, observed));
  const [hs, hl] = [householdOf(bySource), householdOf(byLink)];
  if (hl && !list(byLink.content?.linkIdsInHousehold).includes(link))
    say(
      HOUSEHOLD_WITHOUT_LINK,
      h.byLinkId,
      `householdQuery by link ID ${link} answered household ${hl} without that link ID`,
    );
  if (hs && !list(bySource.content?.linkIdsInHousehold).includes(link))
    say(
      HOUSEHOLD_WITHOUT_LINK,
      h.bySource,
      `householdQuery by ${label}'s source answered household ${hs} without its link ID ${link}`,
    );
  if (hs && !hl)
    say(
      HOUSEHOLD_FORMS_DISAGREE,
      h.byLinkId,
      `householdQuery by link ID ${link} finds no household (${describeReply(byLink)}), but by ${label}'s ` +
        `source it finds ${hs}`,
    );
  if (hl && !hs)
    say(
      HOUSEHOLD_FORMS_DISAGREE,
      h.bySource,
      `householdQuery by ${label}'s source finds no household (${describeReply(bySource)}), but by its link ID ` +
        `${link} it finds ${hl}`,
    );
  if (hs && hl && hs !== hl)
    say(
      HOUSEHOLD_FORMS_DISAGREE,
      h.bySource,
      `householdQuery by ${label}'s source finds ${hs}, by its link ID ${link} ${hl}`,
    );
  const found = hl ?? hs;
  if (!found) return out;
  const reply = byId(found);
  if (!reply || householdOf(reply) !== found) {
    say(
      HOUSEHOLD_BY_ID_DIFFERS,
      h.byId,
      `householdQuery by household ID ${found} does not return that household: ` +
        `${reply ? describeReply(reply) : 'not asked'}`,
    );
    return out;
  }
  const other = hl ? byLink : bySource;
  const [a, b] = [list(reply.content?.linkIdsInHousehold).sort(), list(other.content?.linkIdsInHousehold).sort()];
  if (JSON.stringify(a) !== JSON.stringify(b))
    say(
      HOUSEHOLD_BY_ID_DIFFERS,
      h.byId,
      `householdQuery by household ID ${found} lists ${JSON.stringify(a)}, by ` +
        `${hl ? `link ID ${link}` : `${label}'s source`} ${JSON.stringify(b)}`,
    );
  return out;
}

export const HOUSEHOLDS = {
  ...clause(
    'HOUSEHOLD-FORMS',
    "householdQuery by link ID, by source and by household ID of a step's active record disagreeing with one another",
  ),
  judge(j: Judging): Finding[] {
    const h = j.spec.queries.households;
    if (!h) return [];
    return [...j.obs.householdsBySource].flatMap(([label, bySource]) => {
      const link = j.obs.linkOf.get(label);
      const byLink = link ? j.obs.householdsByLink.get(link) : undefined;
      return link && byLink
        ? householdForms(h, label, link, bySource, byLink, (id) => j.obs.householdsById.get(id))
        : [];
    });
  },
} satisfies OracleClause;

/** Every clause of the oracle, in the order a failure lists them. */
export const ORACLE_CLAUSES: readonly OracleClause[] = [
  LIVE_RECORD_NOT_FOUND,
  ONE_IDENTITY_SPLIT,
  SEPARATE_IDENTITIES_JOINED,
  DELETED_SOURCE_FOUND,
  SOFT_DELETED_SOURCE_FOUND,
  RETIRED_RESOLVES_ELSEWHERE,
  REQUESTED_LINK_NOT_ECHOED,
  LINK_IN_USE_NOT_FOUND,
  LINK_IN_USE_OTHER_IDENTITY,
  DELETED_IDENTITY_PRESENTED,
  REMOVED_SOURCE_LISTED,
  REMOVED_SOURCE_DATA_SHOWN,
  SOURCE_LISTED_WHERE_IT_LEFT,
  DEPARTED_DATA_SHOWN,
  MERGED_DATA_MISSING,
  RETURNED_DATA_MISSING,
  EXCLUDED_RECORD_MATCHED,
  INACTIVE_RECORD_MATCHED,
  LINK_NOT_ORIGINAL,
  LINK_NOT_NEW,
  HOUSEHOLDS,
];

/** Every clause a finding of the oracle may name (the household forms judge with three of their own). */
export const ORACLE_CLAUSE_IDS: ReadonlyMap<string, Clause> = new Map(
  [
    ...ORACLE_CLAUSES.filter((c) => c !== HOUSEHOLDS),
    HOUSEHOLD_WITHOUT_LINK,
    HOUSEHOLD_FORMS_DISAGREE,
    HOUSEHOLD_BY_ID_DIFFERS,
  ].map((c) => [c.id, { id: c.id, rejects: c.rejects }]),
);

/** Judges an observation with every clause. */
export const judgeAll = (j: Judging): Finding[] => ORACLE_CLAUSES.flatMap((c) => c.judge(j));
