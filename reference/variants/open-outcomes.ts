/**
 * Variants for the outcomes the executable state tables leave open (specs/<service>/state-spec.ts, `level: 'open'`
 * effects and `open` entries): each makes the reference take another legitimate choice than its own, so a run shows the
 * suite judges none of them.
 *
 * - retired-follow-survivor: sources merged into a source follow it when it is linked, unlinked or restored elsewhere,
 *   and stay in its identity when it is deleted (the merge history kept);
 * - retired-link-forwarding: identityIdQuery of a link ID no longer in use answers the identity that now holds its
 *   sources, echoing the requested link ID;
 * - retired-lookup-absent: nativeIdQuery of a merged source finds nothing;
 * - retired-data (hidden | shown): whether the survivor's identity shows the merged sources' data;
 * - soft-deleted-data-shown: identities keep showing a soft-deleted source's data (organization: "data history is
 *   preserved");
 * - departed-data-shown: an identity a source left by link or unlink still shows its data;
 * - lenient-preconditions: requests from states the seeds do not name are accepted and change nothing;
 * - no-households: householdQuery finds no household for any lookup form (how households form is not shown).
 */
import { type HandlerContext, Rejection, recordNamed as rec } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';
import { type SourceRecord, perStore } from '../store.js';
import { noIdentity } from '../handlers/identity.js';
import { sourceEntry } from '../handlers/person.js';

type Content = Record<string, any>;
const IDENTITY_REPLIES = [
  'postIdentity',
  'nativeIdQuery',
  'identityIdQuery',
  'demographicsQuery',
  'demographicsSearch',
];

/** Calls `fn` with each identity a reply carries (its link ID and its `identity` object). */
function eachIdentity(result: Content, fn: (linkId: string, identity: Content) => void): void {
  const one = (r: Content) => {
    if (r && typeof r.linkId === 'string' && r.identity && typeof r.identity === 'object') fn(r.linkId, r.identity);
  };
  if (Array.isArray(result?.searchResults)) result.searchResults.forEach(one);
  else one(result);
}

/**
 * Adds a record's attribute values to an identity object, as the service writes them (person: each attribute object
 * with the source entry that asserts it).
 */
function addData(service: string, identity: Content, r: SourceRecord): void {
  const entry = sourceEntry(r);
  for (const [k, v] of Object.entries(r.data)) {
    if (!Array.isArray(v) || k === 'sources') continue;
    const items = (v as Content[]).map((x) =>
      service === 'person' ? { ...x, sources: [entry], clusterStatus: 'ACTIVE' } : x,
    );
    identity[k] = [...(Array.isArray(identity[k]) ? identity[k] : []), ...items];
  }
}

/**
 * Records whose data an identity reply should show besides its own, by link ID; added to every identity-returning
 * reply.
 */
const showing = (records: (ctx: HandlerContext, linkId: string) => SourceRecord[]): ReferenceHook => ({
  operations: IDENTITY_REPLIES,
  handler: (next, ctx) => {
    const result = next(ctx) as Content;
    eachIdentity(result, (linkId, identity) => {
      for (const r of records(ctx, linkId)) addData(ctx.store.service, identity, r);
    });
    return result;
  },
});

/**
 * Linked, unlinked or restored, the survivor takes the sources merged into it along; deleted, it leaves them where they
 * are (visible through that identity).
 */
export const retiredFollowSurvivor = (): ReferenceHook[] => [
  {
    operations: ['linkIdentities', 'unlinkIdentities', 'restoreSource'],
    handler: (next, ctx, op) => {
      const r = rec(ctx, op === 'restoreSource' ? ctx.members.restoreSource : 'source');
      const result = next(ctx);
      if (r)
        for (const x of ctx.store.records.values())
          if (x.state === 'retired' && x.retiredInto === r.key) x.linkId = r.linkId;
      return result;
    },
  },
];

/** Per store: every link ID a step took out of use, with the record that carried it then. */
const formerOf = perStore(() => new Map<string, string>());
const MOVING: Record<string, string[]> = {
  mergeIdentities: ['toRetireSource'],
  linkIdentities: ['source'],
  unlinkIdentities: ['source'],
  unmergeIdentities: ['unmergeSource'],
};

export const retiredLinkForwarding = (): ReferenceHook[] => [
  {
    operations: Object.keys(MOVING),
    handler: (next, ctx, op) => {
      const moved = MOVING[op]!.map((m) => rec(ctx, m)).filter((r): r is SourceRecord => Boolean(r));
      const before = moved.map((r) => r.linkId);
      const result = next(ctx);
      moved.forEach((r, i) => {
        if (before[i] !== r.linkId && !ctx.store.visibleMembers(before[i]!).length)
          formerOf(ctx.store).set(before[i]!, r.key);
      });
      return result;
    },
  },
  {
    operations: ['identityIdQuery'],
    handler: (next, ctx) => {
      const asked = ctx.content.linkId as string;
      const key = formerOf(ctx.store).get(asked);
      const r = key ? [...ctx.store.records.values()].find((x) => x.key === key) : undefined;
      if (!r || ctx.store.visibleMembers(asked).length || !ctx.store.visibleMembers(r.linkId).length) return next(ctx);
      return { ...next({ ...ctx, content: { ...ctx.content, linkId: r.linkId } }), requestedLinkId: asked };
    },
  },
];

export const retiredLookupAbsent = (): ReferenceHook[] => [
  {
    operations: ['nativeIdQuery'],
    handler: (next, ctx) => {
      if (rec(ctx, 'source')?.state === 'retired') return noIdentity();
      return next(ctx);
    },
  },
];

/**
 * hidden: the survivor's identity leaves out what was merged into it; shown: it adds it (person, whose identity shows
 * live sources only).
 */
export const retiredData = (mode: 'hidden' | 'shown'): ReferenceHook[] => [
  {
    operations: IDENTITY_REPLIES,
    handler: (next, ctx) => {
      const result = next(ctx) as Content;
      eachIdentity(result, (linkId, identity) => {
        const retired = [...ctx.store.records.values()].filter((x) => x.linkId === linkId && x.state === 'retired');
        if (!retired.length) return;
        if (mode === 'shown' && ctx.store.service === 'person') for (const r of retired) addData('person', identity, r);
        if (mode === 'hidden' && ctx.store.service !== 'person') {
          for (const k of Object.keys(identity)) delete identity[k];
          for (const r of ctx.store.visibleMembers(linkId)) addData(ctx.store.service, identity, r);
        }
      });
      return result;
    },
  },
];

export const softDeletedDataShown = (): ReferenceHook[] => [
  showing((ctx, linkId) =>
    [...ctx.store.records.values()].filter((x) => x.linkId === linkId && x.state === 'soft-deleted'),
  ),
];

/** Per store: identities a source left by link or unlink, with the sources that left. */
const departedOf = perStore(() => new Map<string, Set<string>>());

export const departedDataShown = (): ReferenceHook[] => [
  {
    operations: ['linkIdentities', 'unlinkIdentities', 'mergeIdentities'],
    handler: (next, ctx, op) => {
      const r = rec(ctx, op === 'mergeIdentities' ? 'toRetireSource' : 'source');
      const before = r?.linkId;
      const result = next(ctx);
      if (!r || !before || before === r.linkId) return result;
      // A source that comes back (linked or merged into an identity it once left) is one of its sources again: nothing
      // departed shows.
      departedOf(ctx.store).get(r.linkId)?.delete(r.key);
      if (op !== 'mergeIdentities')
        departedOf(ctx.store).set(before, new Set([...(departedOf(ctx.store).get(before) ?? []), r.key]));
      return result;
    },
  },
  showing((ctx, linkId) =>
    [...(departedOf(ctx.store).get(linkId) ?? [])]
      .map((key) => ctx.store.records.get(key))
      .filter((x): x is SourceRecord => Boolean(x && x.state === 'active' && x.linkId !== linkId)),
  ),
];

/** The reply an accepted request from a state the seeds do not name gives: success, nothing changed. */
const NO_CHANGE: Record<string, (ctx: HandlerContext) => Content> = {
  mergeIdentities: (ctx) => ({ linkId: rec(ctx, 'toSurviveSource')?.linkId ?? null }),
  linkIdentities: (ctx) => ({ linkId: rec(ctx, 'linkToSource')?.linkId ?? null }),
  unlinkIdentities: (ctx) => ({
    unlinkedId: rec(ctx, 'source')?.linkId ?? null,
    unlinkedFromId: rec(ctx, 'unlinkFromSource')?.linkId ?? null,
  }),
  unmergeIdentities: (ctx) => ({
    unmergedId: rec(ctx, 'unmergeSource')?.linkId ?? null,
    unmergedFromId: rec(ctx, 'unmergeFromSource')?.linkId ?? null,
  }),
  softDeleteSource: () => ({ linkIdsSoftDeleted: [], linkIdsModified: [] }),
  restoreSource: () => ({ linkIdsModified: [], linkIdCreated: null }),
  deactivateSourceWs: () => ({ linkIdsModified: [] }),
  reactivateSourceWs: () => ({ linkIdsModified: [], linkIdCreated: null }),
};

/** Which named records of a request make it one the seeds name (the state table's "From" column). */
function named(ctx: HandlerContext, op: string): boolean {
  const s = (m: string) => rec(ctx, m);
  const active = (r?: SourceRecord) => r?.state === 'active';
  switch (op) {
    case 'mergeIdentities':
    case 'linkIdentities': {
      const [a, b] =
        op === 'mergeIdentities' ? [s('toSurviveSource'), s('toRetireSource')] : [s('linkToSource'), s('source')];
      return !(a && b && active(a) && active(b) && a !== b && a.linkId === b.linkId);
    }
    case 'unlinkIdentities': {
      const [from, r] = [s('unlinkFromSource'), s('source')];
      return !(from && r && active(from) && active(r) && from !== r && from.linkId !== r.linkId);
    }
    case 'unmergeIdentities': {
      const [from, r] = [s('unmergeFromSource'), s('unmergeSource')];
      return !(from && r && !(r.state === 'retired' && r.retiredInto === from.key));
    }
    case 'softDeleteSource':
      return !(s('sourceToSoftDelete') && !active(s('sourceToSoftDelete')));
    case 'restoreSource':
      return !(s(ctx.members.restoreSource) && s(ctx.members.restoreSource)!.state !== 'soft-deleted');
    case 'deactivateSourceWs':
      return !(s(ctx.members.deactivateSource) && !active(s(ctx.members.deactivateSource)));
    case 'reactivateSourceWs':
      return !(s(ctx.members.reactivateSource) && s(ctx.members.reactivateSource)!.state !== 'deactivated');
    default:
      return true;
  }
}

export const lenientPreconditions = (): ReferenceHook[] => [
  {
    operations: Object.keys(NO_CHANGE),
    handler: (next, ctx, op) => (named(ctx, op) ? next(ctx) : NO_CHANGE[op]!(ctx)),
  },
];

export const noHouseholds = (): ReferenceHook[] => [
  {
    service: 'person',
    operations: ['householdQuery'],
    handler: () => {
      throw new Rejection(404, 'no household found');
    },
  },
];
