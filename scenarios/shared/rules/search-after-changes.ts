/**
 * What demographicsSearch and demographicsQuery return after a state change: no identity made only
 * of records that left matching (soft-deleted: organization, provider; deactivated: person), and
 * no stale entry: every link ID of the check's records a search returns after a merge, an unlink
 * or a hard delete resolves through identityIdQuery to that identity.
 * Source: organization-identity-api.md, States and transitions (softDeleteSource,
 * mergeIdentities, unlinkIdentities, deleteSourceIdentity); person-provider-identity-api.md,
 * States and transitions (person deactivateSourceWs: "excluded from future matching"; provider
 * softDeleteSource: "source removed from all identities that reference it").
 */
import { expect } from 'vitest';
import type { Check } from '../../../harness/check.js';
import { describeReply } from '../../../harness/check.js';
import { isAbsent } from '../../../harness/reply.js';
import type { SourceRef } from '../../../specs/common/wire.js';
import { type Posted, resultLinkIds } from '../steps.js';
import { type Shared, idsFor, src, titled } from './types.js';

const SEARCH_AFTER_ROLES = ['excludesInactive', 'mergeResolves', 'unlinkResolves', 'deleteResolves'] as const;
export type SearchAfterRole = (typeof SEARCH_AFTER_ROLES)[number];

export interface SearchAfterHooks {
  /** Takes a record out of matching: softDeleteSource (organization, provider) or deactivateSourceWs (person). */
  retire?: { what: string; send: (t: Check, source: SourceRef) => Promise<unknown> };
}

export function searchAfterChangeChecks({ check, kit, label, retire }: Shared & SearchAfterHooks): void {
  const ids = idsFor(check, 'searchAfter', SEARCH_AFTER_ROLES);
  const T = (s: string) => titled(s, label);
  const search = (t: Check, p: Posted) => t.call('demographicsSearch', { identity: p.identity });

  if (ids.excludesInactive && retire) {
    const id = ids.excludesInactive;
    check(
      T(`after ${retire.what} neither demographicsSearch nor demographicsQuery returns an identity made only of that record`),
      [id],
      async (t) => {
        const a = await kit.postNew(t, [id]);
        await kit.whenSearchable(t, a);
        await retire.send(t, a.source);
        const [found, best] = await t.settle(
          `search and query leave the ${retire.what} record out`,
          () => Promise.all([search(t, a), t.call('demographicsQuery', { identity: a.identity })]),
          ([s, q]) => !resultLinkIds(s).includes(a.linkId) && q.content?.linkId !== a.linkId,
        );
        await t.rule(id, () => {
          expect(
            resultLinkIds(found),
            `demographicsSearch with an exact copy returns ${a.linkId}, whose only record was taken out of matching (${retire.what})`,
          ).not.toContain(a.linkId);
          expect(
            best.content?.linkId ?? null,
            `demographicsQuery returns ${a.linkId}, whose only record was taken out of matching (${retire.what})`,
          ).not.toBe(a.linkId);
        });
      },
    );
  }

  /** Searches with `probe`'s data until every link ID of `mine` it returns resolves to itself; judges the last search. */
  const resolving = async (t: Check, id: string, probe: Posted, mine: string[], what: string) => {
    const stale = async () => {
      const returned = resultLinkIds(await search(t, probe)).filter((l) => mine.includes(l));
      const looked = await Promise.all(returned.map(async (l) => ({ l, r: await t.call('identityIdQuery', { linkId: l }) })));
      return looked
        .filter(({ l, r }) => isAbsent(r) || r.content?.linkId !== l)
        .map(({ l, r }) => `${l} (identityIdQuery: ${isAbsent(r) ? describeReply(r) : `linkId ${r.content?.linkId}`})`);
    };
    const left = await t.settle(`search holds no stale link ID after ${what}`, stale, (x) => x.length === 0);
    await t.rule(id, () => expect(left, `link IDs a search returns after ${what} that no longer name that identity`).toEqual([]));
  };

  if (ids.mergeResolves) {
    const id = ids.mergeResolves;
    check(T('after mergeIdentities a search returns no stale link ID of the retired identity'), [id], async (t) => {
      const [a, b] = await Promise.all([kit.postNew(t, [id]), kit.postNew(t, [id])]);
      await Promise.all([kit.whenSearchable(t, a), kit.whenSearchable(t, b)]);
      await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites: [id] });
      await resolving(t, id, b, [a.linkId, b.linkId], 'the merge');
    });
  }

  if (ids.unlinkResolves) {
    const id = ids.unlinkResolves;
    check(T('after unlinkIdentities every link ID a search returns names its identity'), [id], async (t) => {
      const [a, b] = await Promise.all([kit.postNew(t, [id]), kit.postNew(t, [id])]);
      await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites: [id] });
      await kit.whenSearchable(t, { identity: b.identity, linkId: a.linkId });
      await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(b.source) }, { cites: [id] });
      const now = await kit.linkIdUntil(t, b.source, 'the unlinked source resolves', (l) => l !== undefined);
      await resolving(t, id, b, [a.linkId, b.linkId, ...(now ? [now] : [])], 'the unlink');
    });
  }

  if (ids.deleteResolves) {
    const id = ids.deleteResolves;
    check(T('after deleteSourceIdentity a search returns no stale link ID of the deleted identity'), [id], async (t) => {
      const b = await kit.postNew(t, [id]);
      await kit.whenSearchable(t, b);
      await t.ok('deleteSourceIdentity', { source: src(b.source) }, { cites: [id] });
      await resolving(t, id, b, [b.linkId], 'the hard delete');
    });
  }
}
