/**
 * Merge, unmerge, link and unlink rows shared by the three state tables. Each check is a short
 * script (scenarios/shared/script.ts) judged, at the step it is about, on its own requirement by
 * the executable state table and the whole-state oracle: the reply members the row names, or
 * everything observable afterwards (lookups and identityIdQuery of every link ID so far, each
 * identity's data, searches with the records' data).
 * Source: organization-identity-api.md, States and transitions; person-provider-identity-api.md,
 * States and transitions.
 */
import type { Check } from '../../../harness/check.js';
import { script } from '../script.js';
import { type Scripted, idsFor, titled } from './types.js';

export const MERGE_LINK_ROLES = [
  'mergeReply',
  'mergeEffect',
  'unmergeReply',
  'unmergeEffect',
  'linkReply',
  'linkEffect',
  'unlinkReply',
  'unlinkEffect',
] as const;
export type MergeLinkRole = (typeof MERGE_LINK_ROLES)[number];

export function mergeLinkChecks({ check, verifies, walks, kind, label }: Scripted): void {
  const ids = idsFor(check, 'mergeLink', MERGE_LINK_ROLES, verifies);
  const T = (s: string) => titled(s, label);
  /** Two new identities (of the check's kind), observed. */
  const two = async (t: Check) => {
    const s = script(t, walks);
    const [a, b] = await s.start(2, kind);
    return { s, a: a!, b: b! };
  };

  if (ids.mergeReply) {
    const id = ids.mergeReply;
    check(T("mergeIdentities replies with the survivor's linkId"), [id], async (t) => {
      const { s, a, b } = await two(t);
      await s.step('merge', [a, b], [id]);
    });
  }

  if (ids.mergeEffect) {
    const id = ids.mergeEffect;
    check(T('after mergeIdentities a single surviving identity results, and no search or query names the retired one'), [id], async (t) => {
      const { s, a, b } = await two(t);
      await s.searchable(a, b);
      await s.step('merge', [a, b], [id]);
    });
  }

  if (ids.unmergeReply) {
    const id = ids.unmergeReply;
    check(T('unmergeIdentities replies with unmergedId and unmergedFromId'), [id], async (t) => {
      const { s, a, b } = await two(t);
      await s.step('merge', [a, b]);
      await s.step('unmerge', [a, b], [id]);
    });
  }

  if (ids.unmergeEffect) {
    const id = ids.unmergeEffect;
    check(T('after unmergeIdentities the source is active in a new, separate identity, with its data'), [id], async (t) => {
      const { s, a, b } = await two(t);
      await s.step('merge', [a, b]);
      await s.step('unmerge', [a, b], [id]);
    });
  }

  if (ids.linkReply) {
    const id = ids.linkReply;
    check(T("linkIdentities replies with the linkId of linkToSource's identity"), [id], async (t) => {
      const { s, a, b } = await two(t);
      await s.step('link', [a, b], [id]);
    });
  }

  if (ids.linkEffect) {
    const id = ids.linkEffect;
    check(T('after linkIdentities both sources are active in one identity, with their data'), [id], async (t) => {
      const { s, a, b } = await two(t);
      await s.step('link', [a, b], [id]);
    });
  }

  if (ids.unlinkReply) {
    const id = ids.unlinkReply;
    check(T('unlinkIdentities replies with unlinkedId and unlinkedFromId'), [id], async (t) => {
      const { s, a, b } = await two(t);
      await s.step('link', [a, b]);
      await s.step('unlink', [a, b], [id]);
    });
  }

  if (ids.unlinkEffect) {
    const id = ids.unlinkEffect;
    check(
      T('after unlinkIdentities the source is active in a separate identity, and no search names a link ID out of use'),
      [id],
      async (t) => {
        const { s, a, b } = await two(t);
        await s.step('link', [a, b]);
        await s.searchable(b);
        await s.step('unlink', [a, b], [id]);
      },
    );
  }
}
