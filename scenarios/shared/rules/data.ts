/**
 * Data, not just link IDs: the state-table rows move attribute data, and a reply shows it.
 * - restore: the values the source's identity showed before the soft delete are shown again
 *   ("data history is preserved");
 * - hard delete of one of two linked sources: the values only the deleted source had leave the
 *   survivor's reply, and a search with the deleted source's data no longer returns the survivor
 *   ("all information of the source is removed");
 * - unmerge: the unmerged source's values are in its new identity and leave the survivor;
 * - link: the linked source's values are in the identity it was linked into.
 * Values are compared with the deployment's own earlier replies (steps.ts identityValues), so
 * formatting never matters. Where a view shows no per-source data, presence is not judged.
 * Source: organization-identity-api.md, States and transitions; person-provider-identity-api.md,
 * States and transitions.
 */
import { expect } from 'vitest';
import type { Check } from '../../../harness/check.js';
import { type Reply, isAbsent } from '../../../harness/reply.js';
import { type Posted, groupedSources, identityValues, onlyIn, sameSource } from '../steps.js';
import { type Shared, idsFor, src, titled } from './types.js';

const DATA_ROLES = ['restoreData', 'hardDeleteData', 'unmergeData', 'linkData'] as const;
export type DataRole = (typeof DATA_ROLES)[number];

const missing = (expected: string[], content: any) => {
  const shown = identityValues(content);
  return expected.filter((v) => !shown.has(v));
};
const present = (values: string[], content: any) => {
  const shown = identityValues(content);
  return values.filter((v) => shown.has(v));
};

export function dataChecks({ check, kit, label }: Shared): void {
  const ids = idsFor(check, 'data', DATA_ROLES);
  const T = (s: string) => titled(s, label);
  const lookup = (t: Check, p: Posted) => kit.lookup(t, p.source, t.profile.responseViews);
  const byLink = (t: Check, linkId: string) => t.call('identityIdQuery', { linkId, responseIdentityFormatNames: t.profile.responseViews });
  /** Posts two identities and returns them with the values each one's reply shows that the other's does not. */
  const two = async (t: Check, cites: string[]) => {
    const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
    const [ra, rb] = await Promise.all([lookup(t, a), lookup(t, b)]);
    const [va, vb] = [identityValues(ra.content), identityValues(rb.content)];
    return { a, b, onlyA: onlyIn(va, vb), onlyB: onlyIn(vb, va) };
  };

  if (ids.restoreData) {
    const id = ids.restoreData;
    check(T('after soft delete and restore the source shows its data again'), [id], async (t) => {
      const a = await kit.postNew(t, [id]);
      const before = [...identityValues((await lookup(t, a)).content)];
      if (!before.length) t.skip('the reply shows no attribute values to compare');
      await t.ok('softDeleteSource', { sourceToSoftDelete: src(a.source) }, { cites: [id] });
      await t.ok('restoreSource', { [t.profile.members.restoreSource]: src(a.source) }, { cites: [id] });
      const after = await t.settle(
        'the restored source shows its data',
        () => lookup(t, a),
        (r) => missing(before, r.content).length === 0,
      );
      await t.rule(id, () =>
        expect(
          missing(before, after.content),
          'values the identity showed before the soft delete and no longer shows after the restore',
        ).toEqual([]),
      );
    });
  }

  if (ids.hardDeleteData) {
    const id = ids.hardDeleteData;
    check(
      T('after deleteSourceIdentity of one of two linked sources its data leaves the survivor and no search finds the survivor by it'),
      [id],
      async (t) => {
        const { a, b, onlyB } = await two(t, [id]);
        await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites: [id] });
        const linked = await t.settle(
          "the identity shows the linked source's data",
          () => byLink(t, a.linkId),
          (r) => present(onlyB, r.content).length > 0,
        );
        const shownB = present(onlyB, linked.content);
        if (!shownB.length)
          t.skip("the identity's reply shows none of the linked source's own values, so their removal cannot be observed");
        await kit.whenSearchable(t, { identity: b.identity, linkId: a.linkId });
        // The survivor's score for the deleted source's data, before and after: it must fall (or the survivor drop out).
        const scoreOf = (r: Reply) =>
          (r.content?.searchResults ?? []).find((x: { linkId?: string }) => x?.linkId === a.linkId)?.matchScore as number | undefined;
        const before = scoreOf(await t.call('demographicsSearch', { identity: b.identity }));
        await t.ok('deleteSourceIdentity', { source: src(b.source) }, { cites: [id] });
        const dropped = (r: Reply) => scoreOf(r) === undefined || (typeof before === 'number' && (scoreOf(r) as number) < before);
        const [survivor, search] = await Promise.all([
          t.settle(
            "the deleted source's data leaves the survivor",
            () => byLink(t, a.linkId),
            (r) => present(shownB, r.content).length === 0,
          ),
          t.settle(
            "a search with the deleted source's data no longer finds the survivor by it",
            () => t.call('demographicsSearch', { identity: b.identity }),
            dropped,
          ),
        ]);
        await t.rule(id, () => {
          expect(
            present(shownB, survivor.content),
            `values of the deleted source ${b.source.id} still in the survivor ${a.linkId}`,
          ).toEqual([]);
          if (typeof before === 'number')
            expect(
              dropped(search),
              `a search with the deleted source's data still finds the survivor ${a.linkId} at score ${scoreOf(search)} (${before} before the delete)`,
            ).toBe(true);
        });
      },
    );
  }

  if (ids.unmergeData) {
    const id = ids.unmergeData;
    check(T("after unmergeIdentities the unmerged source's data is in its new identity and leaves the survivor"), [id], async (t) => {
      const { a, b, onlyB } = await two(t, [id]);
      if (!onlyB.length) t.skip("the second record's reply shows no values of its own to follow");
      await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites: [id] });
      await t.ok('unmergeIdentities', { unmergeFromSource: src(a.source), unmergeSource: src(b.source) }, { cites: [id] });
      const [unmerged, survivor] = await Promise.all([
        t.settle(
          "the unmerged source's identity shows its data",
          () => lookup(t, b),
          (r) => !isAbsent(r) && r.content?.linkId !== a.linkId && missing(onlyB, r.content).length === 0,
        ),
        t.settle(
          "the unmerged source's data leaves the survivor",
          () => byLink(t, a.linkId),
          (r) => present(onlyB, r.content).length === 0,
        ),
      ]);
      await t.rule(id, () => {
        expect(
          missing(onlyB, unmerged.content),
          `values of ${b.source.id} missing from its identity ${unmerged.content?.linkId} after the unmerge`,
        ).toEqual([]);
        expect(present(onlyB, survivor.content), `values of the unmerged ${b.source.id} still in the survivor ${a.linkId}`).toEqual([]);
      });
    });
  }

  if (ids.linkData) {
    const id = ids.linkData;
    check(T("after linkIdentities the identity holds the linked source's data"), [id], async (t) => {
      const { a, b, onlyB } = await two(t, [id]);
      if (!onlyB.length) t.skip("the second record's reply shows no values of its own to follow");
      await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites: [id] });
      const linked = await t.settle(
        "the identity shows the linked source's data",
        () => byLink(t, a.linkId),
        (r) => present(onlyB, r.content).length > 0,
      );
      const shown = present(onlyB, linked.content);
      // A view that shows one consolidated record may show none of b's values; only per-source data that leaves them out is judged.
      const groupB = (Array.isArray(linked.content?.identityGroupedBySource) ? linked.content.identityGroupedBySource : []).find(
        (g: any) => g?.source && sameSource(g.source, b.source),
      );
      if (!shown.length && !groupB)
        t.skip(
          'the reply shows no per-source data and its consolidated identity none of the linked values (choose a view that does: profile responseViews)',
        );
      await t.rule(id, () => {
        if (groupB)
          expect(
            groupedSources(linked.content).some((s) => sameSource(s, b.source)),
            'identityGroupedBySource lists the linked source',
          ).toBe(true);
        expect(
          shown.length,
          `values of the linked ${b.source.id} in identity ${a.linkId} (of ${onlyB.length} it showed alone)`,
        ).toBeGreaterThan(0);
      });
    });
  }
}
