/**
 * The whole-state oracle's clauses on where each record resolves (nativeIdQuery) and what identityIdQuery answers, each
 * a pure judgement of one observation (specs/state/observation.ts).
 *
 * Source: organization-identity-api.md, "States and transitions", "What the service does", Endpoints (rule 3);
 * person-provider-identity-api.md, "States and transitions", Endpoints.
 */
import { said } from '../common/answer.js';
import { type Finding, finding } from '../common/clause.js';
import { resultLinkIds } from '../common/identity-content.js';
import type { ModelRecord } from './identity-model.js';
import { REQUESTED_NOT_ECHOED, requestedNotEchoed } from '../clauses/query.js';
import { type OracleClause, citeFor, current, labels, oracleClause } from './observation.js';
import { isLive } from './state-spec.js';

// --- Where each record resolves (nativeIdQuery) ---

export const LIVE_RECORD_NOT_FOUND = oracleClause(
  'LIVE-RECORD-NOT-FOUND',
  'nativeIdQuery finding no identity for a record the state table keeps live (active, or deactivated where it ' +
    'stays visible)',
  ['state:effect', 'walk.rejectedNoChange'],
  (j, c) =>
    [...j.m.groups().values()].flatMap((members) =>
      members
        .filter((r) => !j.obs.linkOf.get(r.label))
        .map((r) =>
          finding(
            c,
            citeFor(j, r),
            `${r.label} is ${r.state}, but nativeIdQuery finds no identity: ` +
              `${j.obs.lookups.has(r.label) ? said(j.obs.lookups.get(r.label)!) : 'none at the last observation'}`,
          ),
        ),
    ),
);

export const ONE_IDENTITY_SPLIT = oracleClause(
  'ONE-IDENTITY-SPLIT',
  'records the state table holds in one identity resolving to different link IDs',
  ['state:effect', 'walk.rejectedNoChange'],
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
  ['state:effect', 'walk.apart', 'walk.rejectedNoChange'],
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
  ['state:effect', 'walk.rejectedNoChange'],
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
  ['state:effect', 'state:queries.softDeletedAbsent', 'walk.rejectedNoChange'],
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
  ['state:effect', 'walk.rejectedNoChange'],
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

/** REQUESTED-NOT-ECHOED (specs/clauses/query.ts), judged on every identityIdQuery answer the oracle read. */
export const REQUESTED_LINK_ECHO: OracleClause = {
  ...REQUESTED_NOT_ECHOED,
  judge: (j) => {
    const echo = j.spec.queries.idQueryEcho;
    if (!echo) return [];
    return [...j.obs.identities].flatMap(([linkId, reply]) =>
      reply.success === true && !reply.absent
        ? requestedNotEchoed(linkId, reply.content?.requestedLinkId).map((o) =>
            finding(REQUESTED_NOT_ECHOED, echo, `identityIdQuery(${linkId}): ${o}`),
          )
        : [],
    );
  },
};

export const LINK_IN_USE_NOT_FOUND = oracleClause(
  'LINK-IN-USE-NOT-FOUND',
  'identityIdQuery finding nothing for a link ID in use (one that nativeIdQuery resolves a live record to)',
  ['state:queries.idQueryReturns'],
  (j, c) =>
    [...j.obs.identities].flatMap(([linkId, reply]) => {
      const group = current(j).get(linkId);
      return group !== undefined && reply.absent
        ? [
            finding(
              c,
              j.spec.queries.idQueryReturns,
              `identityIdQuery(${linkId}), the identity of ${labels(j.m.members(group))}, finds nothing: ` +
                `${said(reply)}`,
            ),
          ]
        : [];
    }),
);

export const LINK_IN_USE_OTHER_IDENTITY = oracleClause(
  'LINK-IN-USE-OTHER-IDENTITY',
  'identityIdQuery of a link ID in use answering an identity with another link ID',
  ['state:queries.idQueryReturns'],
  (j, c) =>
    [...j.obs.identities].flatMap(([linkId, reply]) => {
      const group = current(j).get(linkId);
      return group !== undefined && !reply.absent && reply.content?.linkId !== linkId
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
  ['state:effect.identityGone'],
  (j, c) => {
    const out: Finding[] = [];
    for (const [linkId, cite] of j.m.goneLinks) {
      const id = j.obs.identities.get(linkId);
      if (id && id.success === true && !id.absent && id.content?.linkId === linkId)
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
