/**
 * Source lifecycle rows of the person state table: deactivate (excluded from matching, still
 * visible), reactivate (back to the original link ID, matching again), hard delete (physical;
 * the whole identity when it was the only source; others kept).
 * Source: person-provider-identity-api.md, States and transitions.
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { describeReply } from '../../harness/check.js';
import { isAbsent } from '../../harness/reply.js';
import { postContent } from '../../generators/common.js';
import { type Posted, ranksFirst } from '../shared/steps.js';
import { area, deactivate, person, reactivate, src } from './person.js';

const { check } = area('lifecycle');

/**
 * Posts an exact copy of `a` from another source and returns the link ID the copy lands in. The
 * copy goes out once a search shows `a` (matching may read a search index that lags writes).
 */
async function postCopy(t: Check, a: Posted, cites: string[]) {
  await person.whenSearchable(t, a);
  const copy = t.source(1);
  await t.ok('postIdentity', postContent(a.identity, copy, t.profile.sourcePlacement), { cites });
  return person.resolved(t, copy);
}

check(
  'a deactivated record attracts no new duplicate but stays visible through nativeIdQuery',
  ['PERSON-DEACTIVATE-EXCLUDES-MATCHING', 'PERSON-DEACTIVATE-VISIBLE'],
  async (t) => {
    const cites = ['PERSON-DEACTIVATE-EXCLUDES-MATCHING'];
    // Control: on an active record an exact copy links; otherwise exclusion cannot be observed.
    const control = await person.postNew(t, cites);
    if ((await postCopy(t, control, cites)) !== control.linkId)
      t.skip('an exact copy does not link even to an active record here, so exclusion from matching cannot be observed');
    const a = await person.postNew(t, cites);
    await person.whenSearchable(t, a);
    await t.ok('deactivateSourceWs', deactivate(t, a.source), { cites });
    // A lagging index may still show the record for a while: the copy goes out once search no
    // longer ranks it first (or the consistency budget is spent), not after a wait for a record
    // that a deactivated record must never become again.
    await t.waitFor(
      `search no longer ranks ${a.linkId} first`,
      () => t.call('demographicsSearch', { identity: a.identity }),
      (x) => !ranksFirst(x, a.linkId),
    );
    const copy = t.source(1);
    await t.ok('postIdentity', postContent(a.identity, copy, t.profile.sourcePlacement), { cites });
    const copyLink = await person.resolved(t, copy);
    await t.rule('PERSON-DEACTIVATE-EXCLUDES-MATCHING', () =>
      expect(copyLink, "the copy posted after deactivation is not in the deactivated record's link ID").not.toBe(a.linkId),
    );
    const seen = await person.lookupUntil(t, a.source, 'the deactivated record stays visible', (r) => r.content?.linkId === a.linkId);
    await t.rule('PERSON-DEACTIVATE-VISIBLE', () =>
      expect(seen.content?.linkId, `nativeIdQuery still returns the deactivated record's identity (${describeReply(seen)})`).toBe(a.linkId),
    );
  },
);

check('a reactivated record returns to its original link ID', ['PERSON-REACTIVATE-ORIGINAL-LINK'], async (t) => {
  const cites = ['PERSON-REACTIVATE-ORIGINAL-LINK'];
  const a = await person.postNew(t, cites);
  await t.ok('deactivateSourceWs', deactivate(t, a.source), { cites });
  await t.ok('reactivateSourceWs', reactivate(t, a.source), { cites });
  const now = await person.linkIdUntil(t, a.source, 'the reactivated record is back in its link ID', (l) => l === a.linkId);
  await t.rule('PERSON-REACTIVATE-ORIGINAL-LINK', () => expect(now, 'link ID after reactivation').toBe(a.linkId));
});

check('a reactivated record of a two-record identity returns to that identity', ['PERSON-REACTIVATE-ORIGINAL-LINK'], async (t) => {
  const cites = ['PERSON-REACTIVATE-ORIGINAL-LINK'];
  const [a, b] = await Promise.all([person.postNew(t, cites), person.postNew(t, cites)]);
  await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites });
  await t.ok('deactivateSourceWs', deactivate(t, b.source), { cites });
  await t.ok('reactivateSourceWs', reactivate(t, b.source), { cites });
  const [la, lb] = await Promise.all([
    person.linkIdUntil(t, a.source, 'the other record keeps the shared link ID', (l) => l === a.linkId),
    person.linkIdUntil(t, b.source, 'the reactivated record is back in the shared link ID', (l) => l === a.linkId),
  ]);
  await t.rule('PERSON-REACTIVATE-ORIGINAL-LINK', () => {
    expect(lb, 'the reactivated record is back in the shared link ID').toBe(a.linkId);
    expect(la).toBe(a.linkId);
  });
});

check('a reactivated record takes part in matching again', ['PERSON-REACTIVATE-MATCHES-AGAIN'], async (t) => {
  const cites = ['PERSON-REACTIVATE-MATCHES-AGAIN'];
  const a = await person.postNew(t, cites);
  await t.ok('deactivateSourceWs', deactivate(t, a.source), { cites });
  await t.ok('reactivateSourceWs', reactivate(t, a.source), { cites });
  const copyLink = await postCopy(t, a, cites);
  await t.rule('PERSON-REACTIVATE-MATCHES-AGAIN', () => expect(copyLink, 'an exact copy joins the reactivated record').toBe(a.linkId));
});

check(
  'deleting the only source removes the identity and it cannot be reactivated',
  ['PERSON-DELETE-ONLY-SOURCE', 'PERSON-DELETE-PHYSICAL'],
  async (t) => {
    const a = await person.postNew(t, ['PERSON-DELETE-ONLY-SOURCE']);
    await t.ok('deleteSourceIdentity', { source: src(a.source) }, { cites: ['PERSON-DELETE-PHYSICAL'] });
    const [byNative, byLink] = await Promise.all([
      person.lookupUntil(t, a.source, 'the deleted record no longer resolves', isAbsent),
      t.settle('the deleted identity is gone', () => t.call('identityIdQuery', { linkId: a.linkId }), isAbsent),
    ]);
    // Whatever reactivateSourceWs answers (preconditions are not stated), the record stays deleted.
    await t.raw('reactivateSourceWs', reactivate(t, a.source));
    const again = await person.lookup(t, a.source);
    await t.rule('PERSON-DELETE-PHYSICAL', () => {
      expect(isAbsent(byNative), `nativeIdQuery after delete: ${describeReply(byNative)}`).toBe(true);
      expect(isAbsent(again), `a reactivateSourceWs of the deleted record brought it back: ${describeReply(again)}`).toBe(true);
    });
    await t.rule('PERSON-DELETE-ONLY-SOURCE', () =>
      expect(isAbsent(byLink), `identityIdQuery of the deleted identity: ${describeReply(byLink)}`).toBe(true),
    );
  },
);

check('deleting one of two sources keeps the identity with the other', ['PERSON-DELETE-KEEPS-OTHERS'], async (t) => {
  const cites = ['PERSON-DELETE-KEEPS-OTHERS'];
  const [a, b] = await Promise.all([person.postNew(t, cites), person.postNew(t, cites)]);
  await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites });
  await t.ok('deleteSourceIdentity', { source: src(b.source) }, { cites });
  const [byLink, gone] = await Promise.all([
    t.settle(
      'the identity remains with the other record',
      () => t.call('identityIdQuery', { linkId: a.linkId }),
      (r) => r.content?.linkId === a.linkId,
    ),
    person.lookupUntil(t, b.source, 'the deleted record no longer resolves', isAbsent),
  ]);
  await t.rule('PERSON-DELETE-KEEPS-OTHERS', () => {
    expect(byLink.content?.linkId, `the identity remains (${describeReply(byLink)})`).toBe(a.linkId);
    expect(isAbsent(gone), 'the deleted record is gone').toBe(true);
  });
});
