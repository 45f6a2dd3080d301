/**
 * Source lifecycle rows of the person state table: deactivate (excluded from matching, still
 * visible), reactivate (back to the original link ID, matching again), hard delete (physical;
 * the whole identity when it was the only source; others kept). The rows' outcomes are judged by
 * scripts against the executable state table (specs/person/state-spec.ts, scenarios/shared/script.ts).
 * Source: person-provider-identity-api.md, States and transitions.
 */
import type { Check } from '../../harness/check.js';
import { exactCopyNotLinked } from '../../specs/clauses/post.js';
import { REACTIVATED_NOT_MATCHING } from '../../specs/clauses/person.js';
import { postContent } from '../../generators/common.js';
import { script } from '../shared/script.js';
import type { Posted } from '../shared/steps.js';
import { area, deactivate, person, reactivate } from './person.js';
import { personWalks } from './walk-config.js';

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
  'a deactivated record attracts no new duplicate, no search returns it, and it stays visible through nativeIdQuery',
  ['PERSON-DEACTIVATE-EXCLUDES-MATCHING', 'PERSON-DEACTIVATE-VISIBLE'],
  async (t) => {
    const cites = ['PERSON-DEACTIVATE-EXCLUDES-MATCHING'];
    // Control: on an active record an exact copy links; otherwise exclusion cannot be observed through a copy.
    const control = await person.postNew(t, cites);
    if ((await postCopy(t, control, cites)) !== control.linkId)
      t.skip(
        'an exact copy does not link even to an active record here, so exclusion from matching cannot be observed',
      );
    const s = script(t, personWalks);
    const [a] = await s.start(1);
    await s.searchable(a!);
    await s.step('deactivate', [a!], ['PERSON-DEACTIVATE-EXCLUDES-MATCHING', 'PERSON-DEACTIVATE-VISIBLE']);
    await s.step('post copy of deactivated', [a!], cites);
  },
);

check('a reactivated record returns to its original link ID', ['PERSON-REACTIVATE-ORIGINAL-LINK'], async (t) => {
  const s = script(t, personWalks);
  const [a] = await s.start(1);
  await s.step('deactivate', [a!]);
  await s.step('reactivate', [a!], ['PERSON-REACTIVATE-ORIGINAL-LINK']);
});

check(
  'a reactivated record of a two-record identity returns to that identity',
  ['PERSON-REACTIVATE-ORIGINAL-LINK'],
  async (t) => {
    const s = script(t, personWalks);
    const [a, b] = await s.start(2);
    await s.step('link', [a!, b!]);
    await s.step('deactivate', [b!]);
    await s.step('reactivate', [b!], ['PERSON-REACTIVATE-ORIGINAL-LINK']);
  },
);

check('a reactivated record takes part in matching again', ['PERSON-REACTIVATE-MATCHES-AGAIN'], async (t) => {
  const cites = ['PERSON-REACTIVATE-MATCHES-AGAIN'];
  const a = await person.postNew(t, cites);
  await t.ok('deactivateSourceWs', deactivate(t, a.source), { cites });
  await t.ok('reactivateSourceWs', reactivate(t, a.source), { cites });
  const copyLink = await postCopy(t, a, cites);
  t.judge(REACTIVATED_NOT_MATCHING, 'PERSON-REACTIVATE-MATCHES-AGAIN', exactCopyNotLinked(a.linkId, copyLink));
});

check(
  'deleting the only source removes the identity, no query or search finds it, and it cannot be reactivated',
  ['PERSON-DELETE-ONLY-SOURCE', 'PERSON-DELETE-PHYSICAL'],
  async (t) => {
    const s = script(t, personWalks);
    const [a] = await s.start(1);
    await s.searchable(a!);
    await s.step('hard delete', [a!], ['PERSON-DELETE-PHYSICAL', 'PERSON-DELETE-ONLY-SOURCE']);
    // Whatever reactivateSourceWs answers (preconditions are not stated), the record stays deleted.
    await s.step('reactivate', [a!], ['PERSON-DELETE-PHYSICAL']);
  },
);

check('deleting one of two sources keeps the identity with the other', ['PERSON-DELETE-KEEPS-OTHERS'], async (t) => {
  const s = script(t, personWalks);
  const [a, b] = await s.start(2);
  await s.step('link', [a!, b!]);
  await s.step('hard delete', [b!], ['PERSON-DELETE-KEEPS-OTHERS']);
});
