/**
 * Provider source lifecycle rows for both types: soft delete (removed from every identity, merge
 * history kept), restore (new entity or modified ones, named in the reply), hard delete
 * (permanent, merge history included).
 * Source: person-provider-identity-api.md, States and transitions (provider rows).
 */
import { expect } from 'vitest';
import { describeReply } from '../../harness/check.js';
import { isAbsent } from '../../harness/reply.js';
import { groupedSources, sameSource } from '../shared/steps.js';
import { lifecycleChecks } from '../shared/rules/lifecycle.js';
import { src } from '../shared/rules/types.js';
import { TYPES, area } from './provider.js';

const { check } = area('lifecycle');

for (const { label, kit } of TYPES) {
  lifecycleChecks({
    check,
    kit,
    label,
  });

  check(`a soft-deleted source is removed from the identity it was linked into (${label})`, ['PROV-SOFTDELETE-EFFECT'], async (t) => {
    const cites = ['PROV-SOFTDELETE-EFFECT'];
    const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
    await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites });
    await t.ok('softDeleteSource', { sourceToSoftDelete: src(b.source) }, { cites });
    const after = await kit.lookupUntil(
      t,
      a.source,
      'the soft-deleted source leaves the identity',
      (r) => !isAbsent(r) && !groupedSources(r.content).some((s) => sameSource(s, b.source)),
    );
    await t.rule(cites, () => {
      expect(isAbsent(after), `the identity keeps its other source: ${describeReply(after)}`).toBe(false);
      expect(
        groupedSources(after.content).filter((s) => sameSource(s, b.source)),
        'the soft-deleted source is no longer in the identity',
      ).toEqual([]);
    });
  });

  check(
    `soft delete keeps merge history: a merge can be reversed after soft delete and restore (${label})`,
    ['PROV-SOFTDELETE-KEEPS-HISTORY'],
    async (t) => {
      const cites = ['PROV-SOFTDELETE-KEEPS-HISTORY'];
      const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
      await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites });
      await t.ok('softDeleteSource', { sourceToSoftDelete: src(a.source) }, { cites });
      await t.ok('restoreSource', { [t.profile.members.restoreSource]: src(a.source) }, { cites });
      const unmerge = await t.call('unmergeIdentities', { unmergeFromSource: src(a.source), unmergeSource: src(b.source) });
      const [la, lb] = await Promise.all([
        kit.linkIdOf(t, a.source),
        kit.linkIdUntil(t, b.source, 'the unmerged source stands alone', (l) => l !== undefined && l !== a.linkId),
      ]);
      await t.rule(cites, () => {
        expect(unmerge.success, `unmerge after soft delete and restore uses the kept merge history: ${describeReply(unmerge)}`).toBe(true);
        expect(lb, 'the unmerged source stands in an identity of its own').toEqual(expect.any(String));
        expect(lb).not.toBe(la);
      });
    },
  );

  check(
    `hard delete removes merge history: a hard-deleted retired source cannot be unmerged (${label})`,
    ['PROV-HARDDELETE-HISTORY'],
    async (t) => {
      const cites = ['PROV-HARDDELETE-HISTORY'];
      const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
      await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites });
      await t.ok('deleteSourceIdentity', { source: src(b.source) }, { cites });
      // Whatever unmergeIdentities answers (preconditions are "not shown"), nothing of the deleted source comes back.
      const unmerge = await t.raw('unmergeIdentities', { unmergeFromSource: src(a.source), unmergeSource: src(b.source) });
      const [retired, survivor] = await Promise.all([kit.lookup(t, b.source), kit.lookup(t, a.source)]);
      await t.rule(cites, () => {
        expect(
          isAbsent(retired),
          `the hard-deleted source resolves again after an unmerge (${describeReply(unmerge)}): ${describeReply(retired)}`,
        ).toBe(true);
        expect(
          groupedSources(survivor.content).filter((s) => sameSource(s, b.source)),
          'the deleted source is listed in no identity',
        ).toEqual([]);
      });
    },
  );
}
