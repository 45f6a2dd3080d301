/**
 * Merge, unmerge, link and unlink rows shared by the organization and provider state tables:
 * the reply members named and the identities observed afterwards through nativeIdQuery and
 * identityIdQuery. `pair` lets a service choose which two identities take part (default: two new
 * identities from the kit).
 * Source: organization-identity-api.md, States and transitions;
 * person-provider-identity-api.md, States and transitions (provider rows).
 */
import { expect } from 'vitest';
import type { Check } from '../../../harness/check.js';
import { describeReply } from '../../../harness/check.js';
import { isAbsent } from '../../../harness/reply.js';
import { type Shared, idsFor, src, titled } from './types.js';

const MERGE_LINK_ROLES = [
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

export interface MergeLinkOptions {
  /** The unlinked record gets a new link ID, not the one it had before the link (person seed: "split into its own new link ID"). */
  unlinkGetsNewLinkId?: boolean;
}

export function mergeLinkChecks({ check, kit, label, unlinkGetsNewLinkId }: Shared & MergeLinkOptions): void {
  const ids = idsFor(check, 'mergeLink', MERGE_LINK_ROLES);
  const T = (s: string) => titled(s, label);
  const two = (t: Check, cites: string[]) => Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
  const merged = async (t: Check, cites: string[]) => {
    const [a, b] = await two(t, cites);
    await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites });
    return [a, b] as const;
  };
  const linked = async (t: Check, cites: string[]) => {
    const [a, b] = await two(t, cites);
    await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites });
    return [a, b] as const;
  };

  if (ids.mergeReply) {
    const id = ids.mergeReply;
    check(T("mergeIdentities replies with the survivor's linkId"), [id], async (t) => {
      const [a, b] = await two(t, [id]);
      const r = await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) });
      await t.rule(id, () => expect(r.content?.linkId, 'the surviving identity').toBe(a.linkId));
    });
  }

  if (ids.mergeEffect) {
    const id = ids.mergeEffect;
    check(T('after mergeIdentities a single surviving identity results'), [id], async (t) => {
      const [a, b] = await merged(t, [id]);
      const [survivor, retired, oldIdentity] = await Promise.all([
        kit.lookupUntil(t, a.source, 'the survivor resolves to its identity', (r) => r.content?.linkId === a.linkId),
        kit.lookupUntil(
          t,
          b.source,
          'the retired source resolves to the survivor or nothing',
          (r) => isAbsent(r) || r.content?.linkId === a.linkId,
        ),
        t.settle(
          'the retired identity no longer stands alone',
          () => t.call('identityIdQuery', { linkId: b.linkId }),
          (r) => isAbsent(r) || r.content?.linkId === a.linkId,
        ),
      ]);
      await t.rule(id, () => {
        expect(survivor.content?.linkId, 'the survivor keeps its identity').toBe(a.linkId);
        if (!isAbsent(retired))
          expect(retired.content?.linkId, 'the retired source resolves to the survivor, not an identity of its own').toBe(a.linkId);
        if (!isAbsent(oldIdentity))
          expect(oldIdentity.content?.linkId, `the retired identity ${b.linkId} no longer stands alone`).toBe(a.linkId);
      });
    });
  }

  if (ids.unmergeReply) {
    const id = ids.unmergeReply;
    check(T('unmergeIdentities replies with unmergedId and unmergedFromId'), [id], async (t) => {
      const [a, b] = await merged(t, [id]);
      const r = await t.ok('unmergeIdentities', { unmergeFromSource: src(a.source), unmergeSource: src(b.source) });
      await t.rule(id, () => {
        expect(r.content?.unmergedId, 'unmergedId').toEqual(expect.any(String));
        expect(r.content?.unmergedFromId, 'unmergedFromId is the survivor').toBe(a.linkId);
        expect(r.content?.unmergedId, 'a new identity, not the survivor').not.toBe(a.linkId);
      });
    });
  }

  if (ids.unmergeEffect) {
    const id = ids.unmergeEffect;
    check(T('after unmergeIdentities the source is active in a new, separate identity'), [id], async (t) => {
      const [a, b] = await merged(t, [id]);
      const r = await t.ok('unmergeIdentities', { unmergeFromSource: src(a.source), unmergeSource: src(b.source) }, { cites: [id] });
      const [la, lb] = await Promise.all([
        kit.linkIdUntil(t, a.source, 'the survivor keeps its identity', (l) => l === a.linkId),
        kit.linkIdUntil(
          t,
          b.source,
          'the unmerged source resolves to an identity of its own',
          (l) => l !== undefined && l !== a.linkId && (!r.content?.unmergedId || l === r.content.unmergedId),
        ),
      ]);
      await t.rule(id, () => {
        expect(lb, 'the unmerged source resolves to an identity').toEqual(expect.any(String));
        expect(lb, 'the unmerged source is separate from the survivor').not.toBe(la);
        expect(la, 'the survivor keeps its identity').toBe(a.linkId);
        if (r.content?.unmergedId) expect(lb, 'the unmerged source is in unmergedId').toBe(r.content.unmergedId);
      });
    });
  }

  if (ids.linkReply) {
    const id = ids.linkReply;
    check(T("linkIdentities replies with the linkId of linkToSource's identity"), [id], async (t) => {
      const [a, b] = await two(t, [id]);
      const r = await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) });
      await t.rule(id, () => expect(r.content?.linkId, 'the identity of linkToSource').toBe(a.linkId));
    });
  }

  if (ids.linkEffect) {
    const id = ids.linkEffect;
    check(T('after linkIdentities both sources are active in one identity'), [id], async (t) => {
      const [a, b] = await linked(t, [id]);
      const [la, lb] = await Promise.all([
        kit.lookupUntil(t, a.source, 'linkToSource keeps its identity', (r) => r.content?.linkId === a.linkId),
        kit.lookupUntil(
          t,
          b.source,
          'the linked source joins the identity of linkToSource',
          (r) => !isAbsent(r) && r.content?.linkId === a.linkId,
        ),
      ]);
      await t.rule(id, () => {
        expect(isAbsent(lb), `the linked source is still active: ${describeReply(lb)}`).toBe(false);
        expect(lb.content?.linkId, 'both sources share the identity of linkToSource').toBe(la.content?.linkId);
        expect(la.content?.linkId).toBe(a.linkId);
      });
    });
  }

  if (ids.unlinkReply) {
    const id = ids.unlinkReply;
    check(T('unlinkIdentities replies with unlinkedId and unlinkedFromId'), [id], async (t) => {
      const [a, b] = await linked(t, [id]);
      const r = await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(b.source) });
      await t.rule(id, () => {
        expect(r.content?.unlinkedId, 'unlinkedId').toEqual(expect.any(String));
        expect(r.content?.unlinkedFromId, 'unlinkedFromId is the identity it left').toBe(a.linkId);
        expect(r.content?.unlinkedId).not.toBe(r.content?.unlinkedFromId);
      });
    });
  }

  if (ids.unlinkEffect) {
    const id = ids.unlinkEffect;
    check(T('after unlinkIdentities the source is active in a separate identity'), [id], async (t) => {
      const [a, b] = await linked(t, [id]);
      const r = await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(b.source) }, { cites: [id] });
      const [la, lb] = await Promise.all([
        kit.linkIdOf(t, a.source),
        kit.linkIdUntil(
          t,
          b.source,
          'the unlinked source resolves to a separate identity',
          (l) => l !== undefined && l !== a.linkId && (!r.content?.unlinkedId || l === r.content.unlinkedId),
        ),
      ]);
      await t.rule(id, () => {
        expect(lb, 'the unlinked source resolves to an identity').toEqual(expect.any(String));
        expect(lb, 'the unlinked source is in a separate identity').not.toBe(la);
        if (r.content?.unlinkedId) expect(lb, 'the unlinked source is in unlinkedId').toBe(r.content.unlinkedId);
        if (unlinkGetsNewLinkId) expect(lb, 'a new link ID, not the one it had before the link').not.toBe(b.linkId);
      });
    });
  }
}
