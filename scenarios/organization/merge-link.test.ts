/**
 * Merge, unmerge, link and unlink rows of the state table: the reply members the seed names,
 * and the identities observed afterwards through nativeIdQuery and identityIdQuery.
 * Source: organization-identity-api.md, States and transitions.
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { describeReply } from '../../harness/check.js';
import { isAbsent } from '../../harness/client.js';
import { area, org } from './org.js';

const { check } = area('merge-link');
const src = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });
const two = (t: Check, cites: string[]) => Promise.all([org.postNew(t, cites), org.postNew(t, cites)]);

check('mergeIdentities replies with the survivor\'s linkId', ['ORG-MERGE-REPLY'], async (t) => {
  const [a, b] = await two(t, ['ORG-MERGE-REPLY']);
  const r = await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) });
  await t.rule('ORG-MERGE-REPLY', () => expect(r.content?.linkId, 'the surviving identity').toBe(a.linkId));
});

check('after mergeIdentities a single surviving identity results', ['ORG-MERGE-EFFECT'], async (t) => {
  const [a, b] = await two(t, ['ORG-MERGE-EFFECT']);
  await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites: ['ORG-MERGE-EFFECT'] });
  const [survivor, retired, oldIdentity] = await Promise.all([org.lookup(t, a.source), org.lookup(t, b.source), t.call('identityIdQuery', { linkId: b.linkId })]);
  await t.rule('ORG-MERGE-EFFECT', () => {
    expect(survivor.content?.linkId, 'the survivor keeps its identity').toBe(a.linkId);
    if (!isAbsent(retired)) expect(retired.content?.linkId, 'the retired source resolves to the survivor, not an identity of its own').toBe(a.linkId);
    if (!isAbsent(oldIdentity)) expect(oldIdentity.content?.linkId, `the retired identity ${b.linkId} no longer stands alone`).toBe(a.linkId);
  });
});

async function merged(t: Check, cites: string[]) {
  const [a, b] = await two(t, cites);
  await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites });
  return [a, b] as const;
}

check('unmergeIdentities replies with unmergedId and unmergedFromId', ['ORG-UNMERGE-REPLY'], async (t) => {
  const [a, b] = await merged(t, ['ORG-UNMERGE-REPLY']);
  const r = await t.ok('unmergeIdentities', { unmergeFromSource: src(a.source), unmergeSource: src(b.source) });
  await t.rule('ORG-UNMERGE-REPLY', () => {
    expect(r.content?.unmergedId, 'unmergedId').toEqual(expect.any(String));
    expect(r.content?.unmergedFromId, 'unmergedFromId is the survivor').toBe(a.linkId);
    expect(r.content?.unmergedId, 'a new identity, not the survivor').not.toBe(a.linkId);
  });
});

check('after unmergeIdentities the source is active in a new, separate identity', ['ORG-UNMERGE-EFFECT'], async (t) => {
  const [a, b] = await merged(t, ['ORG-UNMERGE-EFFECT']);
  const r = await t.ok('unmergeIdentities', { unmergeFromSource: src(a.source), unmergeSource: src(b.source) }, { cites: ['ORG-UNMERGE-EFFECT'] });
  const [la, lb] = await Promise.all([org.linkIdOf(t, a.source), org.linkIdOf(t, b.source)]);
  await t.rule('ORG-UNMERGE-EFFECT', () => {
    expect(lb, 'the unmerged source resolves to an identity').toEqual(expect.any(String));
    expect(lb, 'the unmerged source is separate from the survivor').not.toBe(la);
    expect(la, 'the survivor keeps its identity').toBe(a.linkId);
    if (r.content?.unmergedId) expect(lb, 'the unmerged source is in unmergedId').toBe(r.content.unmergedId);
  });
});

check('linkIdentities replies with the linkId of linkToSource\'s identity', ['ORG-LINK-REPLY'], async (t) => {
  const [a, b] = await two(t, ['ORG-LINK-REPLY']);
  const r = await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) });
  await t.rule('ORG-LINK-REPLY', () => expect(r.content?.linkId, 'the identity of linkToSource').toBe(a.linkId));
});

check('after linkIdentities both sources are active in one identity', ['ORG-LINK-EFFECT'], async (t) => {
  const [a, b] = await two(t, ['ORG-LINK-EFFECT']);
  await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites: ['ORG-LINK-EFFECT'] });
  const [la, lb] = await Promise.all([org.lookup(t, a.source), org.lookup(t, b.source)]);
  await t.rule('ORG-LINK-EFFECT', () => {
    expect(isAbsent(lb), `the linked source is still active: ${describeReply(lb)}`).toBe(false);
    expect(lb.content?.linkId, 'both sources share the identity of linkToSource').toBe(la.content?.linkId);
    expect(la.content?.linkId).toBe(a.linkId);
  });
});

async function linked(t: Check, cites: string[]) {
  const [a, b] = await two(t, cites);
  await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites });
  return [a, b] as const;
}

check('unlinkIdentities replies with unlinkedId and unlinkedFromId', ['ORG-UNLINK-REPLY'], async (t) => {
  const [a, b] = await linked(t, ['ORG-UNLINK-REPLY']);
  const r = await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(b.source) });
  await t.rule('ORG-UNLINK-REPLY', () => {
    expect(r.content?.unlinkedId, 'unlinkedId').toEqual(expect.any(String));
    expect(r.content?.unlinkedFromId, 'unlinkedFromId is the identity it left').toBe(a.linkId);
    expect(r.content?.unlinkedId).not.toBe(r.content?.unlinkedFromId);
  });
});

check('after unlinkIdentities the source is active in a separate identity', ['ORG-UNLINK-EFFECT'], async (t) => {
  const [a, b] = await linked(t, ['ORG-UNLINK-EFFECT']);
  const r = await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(b.source) }, { cites: ['ORG-UNLINK-EFFECT'] });
  const [la, lb] = await Promise.all([org.linkIdOf(t, a.source), org.linkIdOf(t, b.source)]);
  await t.rule('ORG-UNLINK-EFFECT', () => {
    expect(lb, 'the unlinked source resolves to an identity').toEqual(expect.any(String));
    expect(lb, 'the unlinked source is in a separate identity').not.toBe(la);
    if (r.content?.unlinkedId) expect(lb, 'the unlinked source is in unlinkedId').toBe(r.content.unlinkedId);
  });
});
