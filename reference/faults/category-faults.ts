/**
 * Faults that hide at a multiplicity or boundary a minimal configuration never sets up (one record per identity, a
 * reply member no check compares with the request): each breaks a sentence only in the category that reveals it
 * (specs/common/categories.ts), and is caught there by a tour every run takes (scenarios/shared/walk/commands.ts TOURS)
 * or by the state table's reply clauses.
 *
 * Sources: organization-identity-api.md, "States and transitions" and Endpoints (the reply members of linkIdentities);
 * person-provider-identity-api.md, "States and transitions".
 */
import { recordNamed as rec } from '../handlers/types.js';
import type { SourceRecord } from '../store.js';
import { type FaultDefinition, forServices } from './types.js';

const sourceOf = (r: SourceRecord) => ({ name: r.source.name, id: r.source.id });

/**
 * unlinkIdentities from an identity of three or more records splits off another record than `source` (and replies as if
 * it split `source`).
 */
const unlinkWrongOfThree = forServices({
  operations: ['unlinkIdentities'],
  description:
    'unlinkIdentities from an identity of three or more records splits off the record linked most recently (not ' +
    'the one named in source), replying as if it split source',
  handler: (next, ctx) => {
    const from = rec(ctx, 'unlinkFromSource');
    const r = rec(ctx, 'source');
    const before = from && r ? ctx.store.activeMembers(from.linkId).filter((x) => x !== from && x !== r) : [];
    const result = next(ctx) as Record<string, unknown>;
    if (!from || !r || before.length < 1 || r.linkId === from.linkId) return result;
    const wrong = [...before].sort((a, b) => b.updatedAt - a.updatedAt)[0]!;
    // The wrong record takes the new link ID; the named one stays where it was.
    [wrong.linkId, r.linkId] = [r.linkId, from.linkId];
    wrong.originalLinkId = wrong.linkId;
    return result;
  },
});

/** searchRelationshipsService drops the object criterion whenever another criterion is given with it. */
const searchIgnoresObjectCombined = forServices({
  operations: ['searchRelationshipsService'],
  description:
    'searchRelationshipsService ignores the object criterion (objectServiceId) when other criteria are given with it',
  handler: (next, ctx) => {
    const criteria = { ...(ctx.content?.relationship ?? {}) } as Record<string, unknown>;
    const obj = ctx.members.relationshipObject;
    const given = Object.keys(criteria).filter((k) => criteria[k] !== undefined && criteria[k] !== null);
    if (!given.includes(obj) || given.length < 2) return next(ctx);
    delete criteria[obj];
    return next({ ...ctx, content: { ...ctx.content, relationship: criteria } });
  },
});

/**
 * The person service's searchRelationshipsService drops filterByObjectVeratoId whenever another filter is given with
 * it.
 */
const personSearchIgnoresObjectCombined: FaultDefinition = {
  name: 'person-rel-search-object-ignored-combined',
  service: 'person',
  requirement: 'PERSON-REL-SEARCH-OBJECT',
  operations: ['searchRelationshipsService'],
  description: 'searchRelationshipsService ignores filterByObjectVeratoId when other filters are given with it',
  handler: (next, ctx) => {
    const f = { ...(ctx.content?.relationshipFilter ?? {}) } as Record<string, unknown>;
    if (!f.filterByObjectVeratoId || !(f.filterBySubjectVeratoId || f.filterByRelationshipVerb)) return next(ctx);
    delete f.filterByObjectVeratoId;
    return next({ ...ctx, content: { ...ctx.content, relationshipFilter: f } });
  },
};

/** deleteRelationshipService deletes every relationship of the named one's subject. */
const deleteAllOfSubject = (
  service: FaultDefinition['service'],
  requirement: string,
  name: string,
  subjectMember?: string,
): FaultDefinition => ({
  name,
  service,
  requirement,
  operations: ['deleteRelationshipService'],
  description: 'deleteRelationshipService also deletes every other relationship of the same subject',
  handler: (next, ctx) => {
    const subj = subjectMember ?? ctx.members.relationshipSubject;
    const named = ctx.store.relationships.get(ctx.content?.id as string);
    const result = next(ctx);
    if (named)
      for (const [id, r] of ctx.store.relationships)
        if (r[subj] !== undefined && r[subj] === named[subj]) ctx.store.relationships.delete(id);
    return result;
  },
});

type Page = { hasNext?: unknown; notifications?: unknown[]; totalElements?: unknown };

/** searchNotifications says hasNext on the last page of a window holding an exact multiple of pageSize. */
const hasNextOnExactMultiple = forServices({
  operations: ['searchNotifications'],
  description:
    'searchNotifications replies hasNext true on the last page when the window holds an exact multiple of pageSize',
  handler: (next, ctx) => {
    const r = next(ctx) as Page;
    const size = ctx.content?.pageSize;
    const total = r.totalElements;
    const last = r.hasNext === false && (r.notifications?.length ?? 0) > 0;
    return last && typeof total === 'number' && Number.isInteger(size) && total % size === 0
      ? { ...r, hasNext: true }
      : r;
  },
});

/** searchNotifications gives as totalElements the number of notifications on the page returned, not in the window. */
const totalOfPage = forServices({
  operations: ['searchNotifications'],
  description:
    'searchNotifications replies totalElements equal to the number of notifications on the page returned, not ' +
    'in the window',
  handler: (next, ctx) => {
    const r = next(ctx) as Page;
    return Array.isArray(r.notifications) ? { ...r, totalElements: r.notifications.length } : r;
  },
});

/**
 * demographicsQuery answers the first identity (in creation order) to reach the match threshold, not the best-scored
 * one.
 */
const queryFirstAboveThreshold = forServices({
  operations: ['demographicsQuery'],
  description:
    'demographicsQuery returns the first identity created that reaches the match threshold, not the best-matching one',
  handler: (next, ctx) => {
    const probe = ctx.content?.identity as Record<string, unknown> | undefined;
    if (!probe) return next(ctx);
    const kind = ctx.matcher.kind?.(probe);
    for (const r of ctx.store.records.values()) {
      if (r.state !== 'active' || (kind !== undefined && ctx.matcher.kind?.(r.data) !== kind)) continue;
      // The first record that reaches the threshold: its own data makes the query answer its identity.
      if (ctx.matcher.score(probe, r.data) >= ctx.matcher.threshold)
        return next({ ...ctx, content: { ...ctx.content, identity: r.data } });
    }
    return next(ctx);
  },
});

/**
 * Faults only a single check that sets up a category catches (scenarios/shared/rules): several relationships of one
 * subject, relationships differing in one criterion, notification windows against pageSize, two identities above the
 * match threshold. Not walk faults.
 */
export const SINGLE_CATEGORY_FAULTS: FaultDefinition[] = [
  searchIgnoresObjectCombined('organization', 'ORG-REL-SEARCH', 'rel-search-object-ignored-combined'),
  searchIgnoresObjectCombined('provider', 'PROV-REL-SEARCH', 'provider-rel-search-object-ignored-combined'),
  personSearchIgnoresObjectCombined,
  deleteAllOfSubject('organization', 'ORG-REL-DELETE', 'rel-delete-all-of-subject'),
  deleteAllOfSubject('provider', 'PROV-REL-DELETE', 'provider-rel-delete-all-of-subject'),
  // The person service names the subject subjectVeratoId (person-provider-identity-api.md: members not shown; the
  // reference's own).
  deleteAllOfSubject('person', 'PERSON-REL-DELETE', 'person-rel-delete-all-of-subject', 'subjectVeratoId'),
  hasNextOnExactMultiple('organization', 'ORG-NOTIF-PAGING', 'notif-hasnext-exact-multiple'),
  hasNextOnExactMultiple('person', 'PERSON-NOTIF-PAGING', 'person-notif-hasnext-exact-multiple'),
  hasNextOnExactMultiple('provider', 'PROV-NOTIF-PAGING', 'provider-notif-hasnext-exact-multiple'),
  totalOfPage('organization', 'ORG-NOTIF-PAGING', 'notif-total-of-page'),
  totalOfPage('person', 'PERSON-NOTIF-PAGING', 'person-notif-total-of-page'),
  totalOfPage('provider', 'PROV-NOTIF-PAGING', 'provider-notif-total-of-page'),
  queryFirstAboveThreshold('organization', 'ORG-QUERY-BEST-MATCH', 'query-first-above-threshold'),
  queryFirstAboveThreshold('person', 'PERSON-QUERY-BEST-MATCH', 'person-query-first-above-threshold'),
  queryFirstAboveThreshold('provider', 'PROV-QUERY-BEST-MATCH', 'provider-query-first-above-threshold'),
];

export const CATEGORY_FAULTS: FaultDefinition[] = [
  {
    name: 'link-reply-names-source',
    service: 'organization',
    requirement: 'ORG-LINK-REPLY',
    operations: ['linkIdentities'],
    description:
      "linkIdentities replies with linkToSource naming the linked source (the request's `source`), not linkToSource",
    handler: (next, ctx) => {
      const moved = rec(ctx, 'source');
      const result = next(ctx) as Record<string, unknown>;
      return moved ? { ...result, linkToSource: sourceOf(moved) } : result;
    },
  },
  unlinkWrongOfThree('organization', 'ORG-UNLINK-EFFECT', 'unlink-wrong-record-of-three'),
  unlinkWrongOfThree('person', 'PERSON-UNLINK-OWN-LINKID', 'person-unlink-wrong-record-of-three'),
  unlinkWrongOfThree('provider', 'PROV-UNLINK-EFFECT', 'provider-unlink-wrong-record-of-three'),
  {
    name: 'person-deactivated-shared-still-matches',
    service: 'person',
    requirement: 'PERSON-DEACTIVATE-EXCLUDES-MATCHING',
    operations: ['postIdentity', 'demographicsSearch', 'demographicsQuery'],
    description:
      'a deactivated record whose identity still holds an active record keeps taking part in matching (only a ' +
      'deactivated record alone in its identity is excluded)',
    handler: (next, ctx) => {
      const shared = [...ctx.store.records.values()].filter(
        (r) => r.state === 'deactivated' && ctx.store.activeMembers(r.linkId).length > 0,
      );
      for (const r of shared) r.state = 'active';
      try {
        return next(ctx);
      } finally {
        for (const r of shared) if (r.state === 'active') r.state = 'deactivated';
      }
    },
  },
];
