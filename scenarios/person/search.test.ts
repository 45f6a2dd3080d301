/**
 * demographicsSearch: the threshold (nothing below it; no filtering without it), ranking,
 * maxSearchResults (at most; greater than 0; the system maximum when absent), one result or more for
 * an unthresholded search of a posted person's data, whole or less its SSN ("returns one to many ranked
 * results"), and finding an exact copy (shared table, with a household as the family of candidates). Result fields are
 * "not shown" for the person service: rules that need a score skip when the deployment returns none.
 * Source: person-provider-identity-api.md, Resources (Person request content options), Endpoints, Limits.
 */
import type { Check } from '../../harness/check.js';
import {
  DEFAULT_MAX_FEWER,
  NO_RESULT,
  UNTHRESHOLDED_FILTERS,
  defaultMaxFewer,
  noResult,
  unthresholdedFilters,
} from '../../specs/clauses/search.js';
import type { Reply } from '../../harness/reply.js';
import { postContent } from '../../generators/common.js';
import { personHousehold } from '../../generators/person.js';
import { searchChecks } from '../shared/rules/search.js';
import { resultLinkIds } from '../../specs/common/identity-content.js';
import { area, person } from './person.js';

const { check } = area('search');

/** Posts a household (three people sharing an address and family name) so a search has several candidates of differing scores. */
async function household(t: Check, cites: string[]) {
  const sources = [t.source(0), t.source(1), t.source(0)];
  const members = personHousehold(t.faker, sources, 3);
  // The members are three people: posted together, none is matched against another.
  const posted = await Promise.all(
    members.map((m, i) =>
      person.postAndRead(
        t,
        { source: sources[i]!, identity: m, content: postContent(m, sources[i]!, t.profile.sourcePlacement) },
        cites,
      ),
    ),
  );
  const linkIds = posted.map((p) => p.linkId);
  const identity = members[0]!;
  // Judge only once the search index shows the household (a lagging index is legitimate).
  await t.waitFor(
    'search shows the household',
    () => t.call('demographicsSearch', { identity, matchScoreThreshold: 0.01 }),
    (r) => linkIds.every((l) => resultLinkIds(r).includes(l)),
  );
  return { identity, linkIds };
}

searchChecks({
  check,
  kit: person,
  family: household,
  scoresOptional: true,
});

const search = (t: Check, identity: unknown, extra: Record<string, unknown> = {}) =>
  t.call('demographicsSearch', { identity, ...extra });

/**
 * Pairs of searches the no-threshold check reads at most: the two searches of a pair go together,
 * but records of other checks (or other users) may enter the index between them and, where the
 * system maximum of results cuts both lists, push the household out of one; a pair that disagrees
 * is read again. A deployment that filters unthresholded searches disagrees in every pair.
 */
const PAIR_READS = 3;

check(
  'without matchScoreThreshold the results include every thresholded result',
  ['PERSON-SEARCH-NO-THRESHOLD'],
  async (t) => {
    const h = await household(t, ['PERSON-SEARCH-NO-THRESHOLD']);
    // A low threshold keeps weak candidates, which an unfiltered search must include too.
    const pair = () => Promise.all([search(t, h.identity), search(t, h.identity, { matchScoreThreshold: 0.01 })]);
    // Only the check's own household is compared: other records may enter or leave the index between the two searches.
    const own = (r: Reply<'demographicsSearch'>) => resultLinkIds(r).filter((l) => h.linkIds.includes(l));
    const results = (r: Reply<'demographicsSearch'>) =>
      Array.isArray(r.content?.searchResults) ? r.content.searchResults : [];
    const rejected = ([plain, thresholded]: Awaited<ReturnType<typeof pair>>) =>
      unthresholdedFilters(new Set(h.linkIds), results(plain), results(thresholded));
    let read = await pair();
    for (let i = 1; i < PAIR_READS && rejected(read).length; i++) read = await pair();
    if (!own(read[1]).length) t.skip('the thresholded search returned none of the household to compare');
    t.judge(UNTHRESHOLDED_FILTERS, 'PERSON-SEARCH-NO-THRESHOLD', rejected(read), read[0]);
  },
);

check(
  'a search without matchScoreThreshold with the data of a posted person, whole or less its SSN, returns a result or more',
  ['PERSON-SEARCH-ONE-TO-MANY'],
  async (t) => {
    const posted = await person.postNew(t, ['PERSON-SEARCH-ONE-TO-MANY']);
    const results = (r: Reply<'demographicsSearch'>) =>
      Array.isArray(r.content?.searchResults) ? r.content.searchResults : [];
    // A fuzzy search is made of what the caller has: an SSN is often missing (a matcher that gave every
    // candidate no score once a field was absent on one side answered such searches with nothing).
    const { ssns: _ssns, ...lessSsn } = posted.identity;
    for (const identity of [posted.identity, lessSsn]) {
      // A lagging index is legitimate: the search is judged once the consistency budget is spent.
      const read = await t.settle(
        'search returns a result',
        () => search(t, identity),
        (r) => results(r).length > 0,
      );
      t.judge(NO_RESULT, 'PERSON-SEARCH-ONE-TO-MANY', noResult(results(read)), read);
    }
  },
);

check(
  'without maxSearchResults no fewer results come back than with a small limit',
  ['PERSON-SEARCH-MAX-DEFAULT'],
  async (t) => {
    const h = await household(t, ['PERSON-SEARCH-MAX-DEFAULT']);
    const [unlimited, limited] = await Promise.all([
      search(t, h.identity, { matchScoreThreshold: 0.01 }),
      search(t, h.identity, { matchScoreThreshold: 0.01, maxSearchResults: 2 }),
    ]);
    if (!resultLinkIds(limited).length) t.skip('no candidates returned');
    t.judge(
      DEFAULT_MAX_FEWER,
      'PERSON-SEARCH-MAX-DEFAULT',
      defaultMaxFewer(resultLinkIds(unlimited).length, resultLinkIds(limited).length, 2),
      unlimited,
    );
  },
);
