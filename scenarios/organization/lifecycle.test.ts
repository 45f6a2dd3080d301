/**
 * Source lifecycle rows of the state table: soft delete, restore, hard delete; each checks the
 * reply members the seed names and the observable state afterwards.
 * Source: organization-identity-api.md, States and transitions.
 */
import { expect } from 'vitest';
import { describeReply } from '../../harness/check.js';
import { isAbsent, isRejection } from '../../harness/client.js';
import { area, org } from './org.js';

const { check } = area('lifecycle');
const src = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });
const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

check('softDeleteSource lists the identity in linkIdsSoftDeleted or linkIdsModified', ['ORG-SOFTDELETE-REPLY'], async (t) => {
  const a = await org.postNew(t, ['ORG-SOFTDELETE-REPLY']);
  const r = await t.ok('softDeleteSource', { sourceToSoftDelete: src(a.source) });
  await t.rule('ORG-SOFTDELETE-REPLY', () => {
    expect(Array.isArray(r.content?.linkIdsSoftDeleted) || Array.isArray(r.content?.linkIdsModified), 'reply lists linkIdsSoftDeleted and linkIdsModified').toBe(true);
    expect([...list(r.content?.linkIdsSoftDeleted), ...list(r.content?.linkIdsModified)], 'the identity that held the source is named').toContain(a.linkId);
  });
});

check('after softDeleteSource the source no longer resolves to an active identity', ['ORG-SOFTDELETE-EFFECT'], async (t) => {
  if (t.profile.softDeletedLookup === 'any') t.omit('profile softDeletedLookup=any: what nativeIdQuery shows for a soft-deleted source is not pinned');
  const a = await org.postNew(t, ['ORG-SOFTDELETE-EFFECT']);
  await t.ok('softDeleteSource', { sourceToSoftDelete: src(a.source) }, { cites: ['ORG-SOFTDELETE-EFFECT'] });
  const after = await org.lookup(t, a.source);
  await t.rule('ORG-SOFTDELETE-EFFECT', () => expect(isAbsent(after), `nativeIdQuery of the soft-deleted source found ${describeReply(after)} linkId=${after.content?.linkId}`).toBe(true));
});

check('restoreSource names the identity the source returned to', ['ORG-RESTORE-REPLY'], async (t) => {
  const a = await org.postNew(t, ['ORG-RESTORE-REPLY']);
  await t.ok('softDeleteSource', { sourceToSoftDelete: src(a.source) }, { cites: ['ORG-RESTORE-REPLY'] });
  const r = await t.ok('restoreSource', { [t.profile.members.restoreSource]: src(a.source) });
  const now = await org.linkIdOf(t, a.source);
  await t.rule('ORG-RESTORE-REPLY', () => {
    const named = [...list(r.content?.linkIdsModified), ...(r.content?.linkIdCreated ? [r.content.linkIdCreated as string] : [])];
    expect(named.length, 'reply lists linkIdsModified or linkIdCreated').toBeGreaterThan(0);
    expect(named, 'the identity the restored source is in now').toContain(now);
  });
});

check('after restoreSource the source is active again', ['ORG-RESTORE-EFFECT'], async (t) => {
  const a = await org.postNew(t, ['ORG-RESTORE-EFFECT']);
  await t.ok('softDeleteSource', { sourceToSoftDelete: src(a.source) }, { cites: ['ORG-RESTORE-EFFECT'] });
  await t.ok('restoreSource', { [t.profile.members.restoreSource]: src(a.source) }, { cites: ['ORG-RESTORE-EFFECT'] });
  const after = await org.lookup(t, a.source);
  await t.rule('ORG-RESTORE-EFFECT', () => expect(isAbsent(after), `nativeIdQuery finds the restored source (${describeReply(after)})`).toBe(false));
});

check('deleteSourceIdentity of an identity\'s only source lists it in linkIdsDeleted', ['ORG-HARDDELETE-REPLY'], async (t) => {
  const a = await org.postNew(t, ['ORG-HARDDELETE-REPLY']);
  const r = await t.ok('deleteSourceIdentity', { source: src(a.source) });
  await t.rule('ORG-HARDDELETE-REPLY', () => expect(list(r.content?.linkIdsDeleted), 'the identity whose only source was deleted').toContain(a.linkId));
});

check('deleteSourceIdentity of one of two linked sources lists the identity in linkIdsModified', ['ORG-HARDDELETE-REPLY'], async (t) => {
  const [a, b] = await Promise.all([org.postNew(t, ['ORG-HARDDELETE-REPLY']), org.postNew(t, ['ORG-HARDDELETE-REPLY'])]);
  await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites: ['ORG-HARDDELETE-REPLY'] });
  const r = await t.ok('deleteSourceIdentity', { source: src(b.source) });
  await t.rule('ORG-HARDDELETE-REPLY', () => {
    expect(list(r.content?.linkIdsModified), 'the identity that keeps another source is modified').toContain(a.linkId);
    expect(list(r.content?.linkIdsDeleted), 'an identity that keeps a source is not deleted').not.toContain(a.linkId);
  });
});

check('after deleteSourceIdentity the source is found by no query and cannot be restored', ['ORG-HARDDELETE-EFFECT'], async (t) => {
  const a = await org.postNew(t, ['ORG-HARDDELETE-EFFECT']);
  await t.ok('deleteSourceIdentity', { source: src(a.source) }, { cites: ['ORG-HARDDELETE-EFFECT'] });
  const [byNative, byLink, restore] = await Promise.all([
    org.lookup(t, a.source),
    t.call('identityIdQuery', { linkId: a.linkId }),
    t.raw('restoreSource', { [t.profile.members.restoreSource]: src(a.source) }),
  ]);
  await t.rule('ORG-HARDDELETE-EFFECT', () => {
    expect(isAbsent(byNative), `nativeIdQuery after hard delete: ${describeReply(byNative)}`).toBe(true);
    expect(isAbsent(byLink), `identityIdQuery of the deleted identity: ${describeReply(byLink)}`).toBe(true);
    expect(isRejection(restore), `restoreSource after hard delete must fail: ${describeReply(restore)}`).toBe(true);
  });
});
