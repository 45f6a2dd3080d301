/**
 * Merge, unmerge, link and unlink rows of the person state table (shared table), observed through
 * nativeIdQuery: merged records share one link ID; an unmerged record gets a new link ID of its
 * own; linked records share one; unlink splits a linked or a matched record into its own.
 * Source: person-provider-identity-api.md, States and transitions.
 */
import { postContent } from '../../generators/common.js';
import { MATCHED_NOT_SPLIT, matchedNotSplit } from '../../specs/clauses/person.js';
import { mergeLinkChecks } from '../shared/rules/merge-link.js';
import { area, person, src } from './person.js';
import { personWalks } from './walk-config.js';

const { check } = area('merge-link');

mergeLinkChecks({
  check,
  kit: person,
  walks: personWalks,
});

check('unlinkIdentities splits a record that postIdentity matched', ['PERSON-UNLINK-MATCHED'], async (t) => {
  const cites = ['PERSON-UNLINK-MATCHED'];
  const a = await person.postNew(t, cites);
  await person.whenSearchable(t, a);
  const copy = t.source(1);
  await t.ok('postIdentity', postContent(a.identity, copy, t.profile.sourcePlacement), { cites });
  if ((await person.resolved(t, copy)) !== a.linkId)
    t.skip('the exact copy was not matched to the original, so there are no matched records to split');
  await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(copy) });
  const [la, lc] = await Promise.all([
    person.linkIdOf(t, a.source),
    person.linkIdUntil(
      t,
      copy,
      'the split record resolves to its own link ID',
      (l) => l !== undefined && l !== a.linkId,
    ),
  ]);
  t.judge(MATCHED_NOT_SPLIT, 'PERSON-UNLINK-MATCHED', matchedNotSplit(la, lc));
});
