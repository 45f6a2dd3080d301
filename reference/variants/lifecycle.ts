/**
 * Source lifecycle variants: outcomes the state tables leave open (organization-identity-api.md, "States and
 * transitions": "Preconditions on the prior state of each operation, and any further states: not shown").
 * - restore-after-delete-succeeds: restoreSource of a source the service does not hold (never posted, or hard-deleted)
 *   answers success with nothing modified or created, instead of a rejection.
 * - restore-new-identity: a restored source always comes back in a new identity of its own (with the records retired
 *   into it), never rejoining its former one (person-provider-identity-api.md, provider restoreSource: "a new entity
 *   may be created or existing entities modified").
 * - soft-deleted-visible (organization): nativeIdQuery of a soft-deleted source still answers, with the link ID the
 *   source had and the source's own preserved data (organization seed, softDeleteSource: "data history is preserved";
 *   what a lookup then shows is not).
 */
import { identityReply } from '../handlers/identity.js';
import type { Handler, HandlerContext } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';
import { perStore } from '../store.js';

const named = (ctx: HandlerContext, member: string) =>
  ctx.content?.[member] as { name?: string; id?: string } | undefined;

export const restoreAfterDeleteSucceeds = (): ReferenceHook[] => [
  {
    operations: ['restoreSource'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const s = named(ctx, ctx.members.restoreSource);
      const known = s && typeof s.name === 'string' && typeof s.id === 'string' ? ctx.store.get(s) : true;
      return known ? next(ctx) : { linkIdsModified: [], linkIdCreated: null };
    },
  },
];

export const restoreNewIdentity = (): ReferenceHook[] => [
  {
    operations: ['restoreSource'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const r = ctx.store.get(named(ctx, ctx.members.restoreSource));
      // Moved to a fresh link ID before the restore, the record has no identity to rejoin.
      if (r?.state === 'soft-deleted' && ctx.store.activeMembers(r.linkId).length > 0) {
        const fresh = ctx.store.newLinkId();
        for (const x of ctx.store.records.values())
          if (x.retiredInto === r.key && x.linkId === r.linkId) x.linkId = fresh;
        r.linkId = fresh;
      }
      return next(ctx);
    },
  },
];

/** Per store: the records each record ever shared an identity with (by key), through a link or a merge. */
const companionsOf = perStore(() => new Map<string, Set<string>>());

/**
 * A restored source joins another existing identity: that of a record it once shared an identity with (through a link
 * or a merge) that now lives elsewhere, never an identity of records it never met (of other users). "a new entity may
 * be created or existing entities modified" (provider), "restoreSource | soft-deleted | | active" (organization: which
 * identity is not stated).
 */
export const restoreJoinsOther = (): ReferenceHook[] => [
  {
    operations: ['linkIdentities', 'mergeIdentities'],
    handler: (next: Handler, ctx: HandlerContext, op: string) => {
      const result = next(ctx);
      const [a, b] =
        op === 'mergeIdentities'
          ? [named(ctx, 'toSurviveSource'), named(ctx, 'toRetireSource')]
          : [named(ctx, 'linkToSource'), named(ctx, 'source')];
      const [ra, rb] = [ctx.store.get(a), ctx.store.get(b)];
      if (ra && rb) {
        const together = ctx.store.withLinkId(ra.linkId).map((r) => r.key);
        for (const key of together)
          companionsOf(ctx.store).set(key, new Set([...(companionsOf(ctx.store).get(key) ?? []), ...together]));
      }
      return result;
    },
  },
  {
    operations: ['restoreSource'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const r = ctx.store.get(named(ctx, ctx.members.restoreSource));
      const result = next(ctx) as { linkIdsModified?: string[]; linkIdCreated?: string | null };
      if (r?.state !== 'active') return result;
      const met = companionsOf(ctx.store).get(r.key) ?? new Set<string>();
      const other = [...ctx.store.records.values()]
        .filter((x) => met.has(x.key) && x.state === 'active' && x.linkId !== r.linkId)
        .sort((a, b) => b.updatedAt - a.updatedAt)[0];
      if (!other) return result;
      const left = r.linkId;
      for (const x of ctx.store.records.values())
        if (x.retiredInto === r.key && x.linkId === left) x.linkId = other.linkId;
      r.linkId = r.originalLinkId = other.linkId;
      return { linkIdsModified: [other.linkId], linkIdCreated: null };
    },
  },
];

export const softDeletedVisible = (): ReferenceHook[] => [
  {
    operations: ['nativeIdQuery'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const r = ctx.store.get(named(ctx, 'source'));
      if (r?.state !== 'soft-deleted') return next(ctx);
      const source = { name: r.source.name, id: r.source.id };
      return {
        ...identityReply(ctx, r.linkId),
        identity: structuredClone(r.data),
        identityGroupedBySource: [{ source, ...structuredClone(r.data), recordStatus: 'SOFT_DELETED' }],
      };
    },
  },
];
