/**
 * Variants for where records the state tables leave open go, drawn from everything the seeds allow
 * (specs/<service>/state-spec.ts, open effects):
 * - retired-released: sources merged into a record become active again, each in a new identity of its own, once that
 *   record is hard-deleted, linked or unlinked elsewhere, or soft-deleted (organization; the provider keeps "merge and
 *   linkage history" through a soft delete). What becomes of them is open: organization-identity-api.md, States and
 *   transitions ("any further states: not shown"); person-provider-identity-api.md ("Effects on the attributes of a
 *   retired person source after a merge: not shown").
 * - members-follow: the other sources of the identity a merge retires a source from, or a link moves a source out of,
 *   go along into the target identity (where they go is open; they stay active).
 */
import { recordNamed as rec } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';

/** The request member naming the record whose merged sources an operation releases, per operation. */
const RELEASING: Record<string, string> = {
  deleteSourceIdentity: 'source',
  linkIdentities: 'source',
  unlinkIdentities: 'source',
  softDeleteSource: 'sourceToSoftDelete',
};

export const retiredReleased = (): ReferenceHook[] => [
  {
    operations: Object.keys(RELEASING),
    handler: (next, ctx, op) => {
      // Provider: "merge and linkage history kept" through a soft delete.
      if (op === 'softDeleteSource' && ctx.store.service === 'provider') return next(ctx);
      const r = rec(ctx, RELEASING[op]!);
      const merged = r
        ? [...ctx.store.records.values()].filter((x) => x.state === 'retired' && x.retiredInto === r.key)
        : [];
      const result = next(ctx);
      for (const x of merged) {
        if (x.state !== 'retired') continue;
        x.state = 'active';
        x.retiredInto = undefined;
        x.linkId = x.originalLinkId = ctx.store.newLinkId();
        x.updatedAt = ctx.store.now();
      }
      return result;
    },
  },
];

export const membersFollow = (): ReferenceHook[] => [
  {
    operations: ['mergeIdentities', 'linkIdentities'],
    handler: (next, ctx, op) => {
      const moved = rec(ctx, op === 'mergeIdentities' ? 'toRetireSource' : 'source');
      const before = moved?.linkId;
      const others = moved && before ? ctx.store.visibleMembers(before).filter((x) => x.key !== moved.key) : [];
      const result = next(ctx);
      const target = rec(ctx, op === 'mergeIdentities' ? 'toSurviveSource' : 'linkToSource');
      if (target && moved && moved.linkId !== before)
        for (const x of others) {
          x.linkId = target.linkId;
          x.updatedAt = ctx.store.now();
        }
      return result;
    },
  },
];
