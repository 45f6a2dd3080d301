/**
 * What a link ID no longer in use answers, drawn from everything the seeds allow (`stale-links=<mode>`). A link ID goes
 * out of use when the last record visible in its identity is merged away, linked, unlinked or unmerged elsewhere,
 * soft-deleted or hard-deleted. The seeds do not say what identityIdQuery answers for it; they forbid only showing a
 * hard-deleted source (organization-identity-api.md, States and transitions: "all information of the source is
 * removed"; person-provider-identity-api.md: "removes all information and history of the source"), and, person,
 * presenting an identity deleted as a whole with its only source record ("when it is the only source record of an
 * identity the whole identity is deleted"). Modes:
 * - chain: it answers the identity its records went into, along the whole chain of moves, for ever, also after those
 *   records were deleted (a merged-away B's link ID answers A's identity after B is hard-deleted, showing A's data
 *   only);
 * - self: it still answers as itself, an identity with no sources and no data;
 * - any: it answers some live identity of the service, unrelated to the records it held.
 * Every answer echoes the requested link ID in requestedLinkId.
 */
import { type HandlerContext, recordNamed as recordOf } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';
import { type ServiceStore, type SourceRecord, perStore } from '../store.js';
import { idQueryAnswer } from '../handlers/identity.js';

export type StaleLinkMode = 'chain' | 'self' | 'any';
export const STALE_LINK_MODES: readonly StaleLinkMode[] = ['chain', 'self', 'any'];

interface Stale {
  /**
   * Link IDs out of use, with the link ID their last record went into ('' where it went nowhere: deleted,
   * soft-deleted).
   */
  next: Map<string, string>;
  /** Person: identities deleted as a whole with their only source record; they answer nothing. */
  gone: Set<string>;
}

const of = perStore((): Stale => ({ next: new Map(), gone: new Set() }));

/** Members of the request that name the records an operation may move out of their identity. */
const NAMED: Record<string, (ctx: HandlerContext) => string[]> = {
  mergeIdentities: () => ['toRetireSource'],
  linkIdentities: () => ['source'],
  unlinkIdentities: () => ['source'],
  unmergeIdentities: () => ['unmergeSource'],
  deleteSourceIdentity: () => ['source'],
  softDeleteSource: () => ['sourceToSoftDelete'],
};

/** Follows the chain from `linkId` to the first identity still in use (undefined: none). */
function forward(store: ServiceStore, s: Stale, linkId: string): string | undefined {
  const seen = new Set<string>();
  let at: string | undefined = linkId;
  while (at && !seen.has(at)) {
    if (store.visibleMembers(at).length) return at;
    seen.add(at);
    at = s.next.get(at) || undefined;
  }
  return undefined;
}

/**
 * A stable choice of a live identity for `linkId` (the same one every time it is asked while the service's identities
 * stay the same).
 */
function anyLive(store: ServiceStore, linkId: string): string | undefined {
  const live = [...store.activeLinkIds()].sort();
  if (!live.length) return undefined;
  let h = 0;
  for (const ch of linkId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return live[h % live.length];
}

export const staleLinks = (mode: StaleLinkMode): ReferenceHook[] => [
  {
    operations: Object.keys(NAMED),
    handler: (next, ctx, op) => {
      const s = of(ctx.store);
      const moved = NAMED[op]!(ctx)
        .map((m) => recordOf(ctx, m))
        .filter((r): r is SourceRecord => Boolean(r));
      const before = moved.map((r) => ({ r, link: r.linkId, only: ctx.store.withLinkId(r.linkId).length === 1 }));
      const result = next(ctx);
      for (const { r, link, only } of before) {
        if (ctx.store.visibleMembers(link).length) continue;
        const alive = ctx.store.get(r.source);
        const into = alive && alive.linkId !== link ? alive.linkId : '';
        s.next.set(link, into || s.next.get(link) || '');
        if (op === 'deleteSourceIdentity' && only && ctx.store.service === 'person') s.gone.add(link);
      }
      return result;
    },
  },
  {
    operations: ['identityIdQuery'],
    handler: (next, ctx) => {
      const asked = ctx.content?.linkId;
      const s = of(ctx.store);
      if (
        typeof asked !== 'string' ||
        ctx.store.visibleMembers(asked).length ||
        !s.next.has(asked) ||
        s.gone.has(asked)
      )
        return next(ctx);
      if (mode === 'self') return idQueryAnswer(asked);
      const target = mode === 'chain' ? forward(ctx.store, s, asked) : anyLive(ctx.store, asked);
      if (!target) return next(ctx);
      return {
        ...(next({ ...ctx, content: { ...ctx.content, linkId: target } }) as Record<string, unknown>),
        requestedLinkId: asked,
      };
    },
  },
];
