/**
 * Source lifecycle variants: outcomes the state tables leave open
 * (organization-identity-api.md, "States and transitions": "Preconditions on the prior state of
 * each operation, and any further states: not shown").
 * - restore-after-delete-succeeds: restoreSource of a source the service does not hold (never
 *   posted, or hard-deleted) answers success with nothing modified or created, instead of a rejection.
 * - restore-new-identity: a restored source always comes back in a new identity of its own (with
 *   the records retired into it), never rejoining its former one (person-provider-identity-api.md,
 *   provider restoreSource: "a new entity may be created or existing entities modified").
 * - soft-deleted-visible (organization): nativeIdQuery of a soft-deleted source still answers,
 *   with the link ID the source had and the source's own preserved data (organization seed,
 *   softDeleteSource: "data history is preserved"; what a lookup then shows is not).
 */
import { identityReply } from '../handlers/identity.js';
import type { Handler, HandlerContext } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';

const named = (ctx: HandlerContext, member: string) => ctx.content?.[member] as { name?: string; id?: string } | undefined;

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
        for (const x of ctx.store.records.values()) if (x.retiredInto === r.key && x.linkId === r.linkId) x.linkId = fresh;
        r.linkId = fresh;
      }
      return next(ctx);
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
