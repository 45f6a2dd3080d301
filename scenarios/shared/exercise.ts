/**
 * For every shared operation, how to build a valid request (setting up run-owned state first
 * where the operation needs it). The envelope scenarios walk this table so every operation is
 * exercised with a request it should accept.
 */
import type { Check } from '../../harness/check.js';
import type { SharedOperation } from '../../specs/common/operation-names.js';
import { relationshipMembers } from '../../harness/profile.js';
import type { steps } from './steps.js';

type Kit = ReturnType<typeof steps>;
export type Exercise = (t: Check, cites: string[]) => Promise<Record<string, unknown>>;

const src = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });

export function relationshipContent(t: Check, subject: string, object: string, extra: Record<string, unknown> = {}) {
  const r = t.profile.relationship;
  const m = relationshipMembers(t.profile, t.service);
  return {
    relationship: {
      relationshipVerb: r.verb,
      ...(r.inverseVerb ? { inverseRelationshipVerb: r.inverseVerb } : {}),
      [m.subject]: subject,
      [m.object]: object,
      ...(r.status ? { status: r.status } : {}),
      ...(r.domain ? { domain: r.domain } : {}),
      startDate: new Date(Date.UTC(2024, 0, 1)).toISOString(),
      ...extra,
    },
  };
}

/** A way to build a valid request for each shared operation (a missing one is a compile error). */
export function sharedExercises(kit: Kit): Record<SharedOperation, Exercise> {
  return {
    postIdentity: async (t) => kit.make(t).content,
    demographicsSearch: async (t, cites) => ({ identity: (await kit.postNew(t, cites)).identity, maxSearchResults: 5 }),
    demographicsQuery: async (t, cites) => ({ identity: (await kit.postNew(t, cites)).identity }),
    nativeIdQuery: async (t, cites) => ({ source: src((await kit.postNew(t, cites)).source) }),
    identityIdQuery: async (t, cites) => ({ linkId: (await kit.postNew(t, cites)).linkId }),
    deleteSourceIdentity: async (t, cites) => ({ source: src((await kit.postNew(t, cites)).source) }),
    softDeleteSource: async (t, cites) => ({ sourceToSoftDelete: src((await kit.postNew(t, cites)).source) }),
    restoreSource: async (t, cites) => {
      const a = await kit.postNew(t, cites);
      await t.ok('softDeleteSource', { sourceToSoftDelete: src(a.source) }, { cites });
      return { [t.profile.members.restoreSource]: src(a.source) };
    },
    mergeIdentities: async (t, cites) => {
      const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
      return { toSurviveSource: src(a.source), toRetireSource: src(b.source) };
    },
    unmergeIdentities: async (t, cites) => {
      const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
      await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites });
      return { unmergeFromSource: src(a.source), unmergeSource: src(b.source) };
    },
    linkIdentities: async (t, cites) => {
      const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
      return { linkToSource: src(a.source), source: src(b.source) };
    },
    unlinkIdentities: async (t, cites) => {
      const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
      await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites });
      return { unlinkFromSource: src(a.source), source: src(b.source) };
    },
    addRelationshipService: async (t, cites) => {
      const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
      return relationshipContent(t, a.linkId, b.linkId);
    },
    searchRelationshipsService: async (t, cites) => {
      const a = await kit.postNew(t, cites);
      return { relationship: { [t.profile.members.relationshipSubject]: a.linkId } };
    },
    deleteRelationshipService: async (t, cites) => {
      const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
      const added = await t.ok('addRelationshipService', relationshipContent(t, a.linkId, b.linkId), { cites });
      const id = added.content?.relationship?.id;
      if (typeof id !== 'string') t.fail(cites, 'addRelationshipService replied without relationship.id, so there is nothing to delete');
      return { id };
    },
    searchNotifications: async (t) => ({
      pageNumber: t.profile.notifications.firstPage,
      pageSize: t.profile.notifications.pageSize,
      startDate: new Date(Date.now() - 3600_000).toISOString(),
      endDate: new Date().toISOString(),
    }),
  };
}
