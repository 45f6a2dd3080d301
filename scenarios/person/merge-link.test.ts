/**
 * Merge, unmerge, link and unlink rows of the person state table, observed through
 * nativeIdQuery: merged records share one link ID; an unmerged record gets a new link ID of its
 * own; linked records share one; unlink splits a linked or a matched record into its own.
 * Source: person-provider-identity-api.md, States and transitions.
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { isAbsent } from '../../harness/reply.js';
import { postContent } from '../../generators/common.js';
import { area, person, src } from './person.js';

const { check } = area('merge-link');
const two = (t: Check, cites: string[]) => Promise.all([person.postNew(t, cites), person.postNew(t, cites)]);

check('after mergeIdentities both records share one link ID and the retired one stands alone nowhere', ['PERSON-MERGE-SHARED-LINK'], async (t) => {
  const [a, b] = await two(t, ['PERSON-MERGE-SHARED-LINK']);
  await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) });
  const [survivor, retired, old] = await Promise.all([person.lookup(t, a.source), person.lookup(t, b.source), t.call('identityIdQuery', { linkId: b.linkId })]);
  await t.rule('PERSON-MERGE-SHARED-LINK', () => {
    expect(survivor.content?.linkId, 'the survivor keeps its link ID').toBe(a.linkId);
    if (!isAbsent(retired)) expect(retired.content?.linkId, 'the retired record is in the survivor\'s link ID').toBe(a.linkId);
    if (!isAbsent(old)) expect(old.content?.linkId, `the retired record's former identity ${b.linkId} no longer stands alone`).toBe(a.linkId);
  });
});

check('after unmergeIdentities the record is active in a new link ID of its own', ['PERSON-UNMERGE-NEW-LINK'], async (t) => {
  const cites = ['PERSON-UNMERGE-NEW-LINK'];
  const [a, b] = await two(t, cites);
  await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites });
  await t.ok('unmergeIdentities', { unmergeFromSource: src(a.source), unmergeSource: src(b.source) });
  const [la, lb] = await Promise.all([person.linkIdOf(t, a.source), person.linkIdOf(t, b.source)]);
  await t.rule('PERSON-UNMERGE-NEW-LINK', () => {
    expect(lb, 'the unmerged record resolves to an identity').toEqual(expect.any(String));
    expect(lb, 'its link ID is not the survivor\'s').not.toBe(la);
    expect(la, 'the survivor keeps its link ID').toBe(a.linkId);
  });
});

check('after linkIdentities both records are active in one link ID', ['PERSON-LINK-SAME-LINKID'], async (t) => {
  const [a, b] = await two(t, ['PERSON-LINK-SAME-LINKID']);
  await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) });
  const [la, lb] = await Promise.all([person.lookup(t, a.source), person.lookup(t, b.source)]);
  await t.rule('PERSON-LINK-SAME-LINKID', () => {
    expect(isAbsent(la) || isAbsent(lb), 'both records are still found').toBe(false);
    expect(lb.content?.linkId, 'both records share one link ID').toBe(la.content?.linkId);
  });
});

check('after unlinkIdentities a linked record is in its own new link ID', ['PERSON-UNLINK-OWN-LINKID'], async (t) => {
  const cites = ['PERSON-UNLINK-OWN-LINKID'];
  const [a, b] = await two(t, cites);
  await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites });
  await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(b.source) });
  const [la, lb] = await Promise.all([person.linkIdOf(t, a.source), person.linkIdOf(t, b.source)]);
  await t.rule('PERSON-UNLINK-OWN-LINKID', () => {
    expect(lb, 'the unlinked record resolves to an identity').toEqual(expect.any(String));
    expect(lb, 'in a link ID of its own').not.toBe(la);
    expect(lb, 'a new link ID, not the one it had before the link').not.toBe(b.linkId);
  });
});

check('unlinkIdentities splits a record that postIdentity matched', ['PERSON-UNLINK-MATCHED'], async (t) => {
  const cites = ['PERSON-UNLINK-MATCHED'];
  const a = await person.postNew(t, cites);
  const copy = t.source(1);
  await t.ok('postIdentity', postContent(a.identity, copy, t.profile.sourcePlacement), { cites });
  if ((await person.linkIdOf(t, copy)) !== a.linkId) t.skip('the exact copy was not matched to the original, so there are no matched records to split');
  await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(copy) });
  const [la, lc] = await Promise.all([person.linkIdOf(t, a.source), person.linkIdOf(t, copy)]);
  await t.rule('PERSON-UNLINK-MATCHED', () => {
    expect(lc, 'the split record resolves to an identity').toEqual(expect.any(String));
    expect(lc, 'in a link ID of its own').not.toBe(la);
  });
});
