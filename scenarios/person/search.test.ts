/**
 * demographicsSearch: the threshold (nothing below it; no filtering without it), ranking,
 * maxSearchResults (at most; greater than 0; the system maximum when absent), and finding an
 * exact copy. Result fields are "not shown" for the person service: checks that need a score
 * skip when the deployment returns none.
 * Source: person-provider-identity-api.md, Resources (Person request content options), Endpoints, Limits.
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { describeReply } from '../../harness/check.js';
import { isRejection } from '../../harness/reply.js';
import { postContent } from '../../generators/common.js';
import { personHousehold } from '../../generators/person.js';
import { area, person } from './person.js';

const { check } = area('search');
type Result = { matchScore?: number; linkId?: string };

/** Posts a household (three people sharing an address and family name) so a search has several candidates of differing scores. */
async function family(t: Check, cites: string[]) {
  const sources = [t.source(0), t.source(1), t.source(0)];
  const members = personHousehold(t.faker, sources, 3);
  for (const [i, m] of members.entries()) await t.ok('postIdentity', postContent(m, sources[i]!, t.profile.sourcePlacement), { cites });
  return members[0]!;
}

const search = (t: Check, identity: unknown, extra: Record<string, unknown> = {}) => t.call('demographicsSearch', { identity, ...extra });
const results = (r: { content: any }) => (Array.isArray(r.content?.searchResults) ? (r.content.searchResults as Result[]) : []);
const scored = (list: Result[]) => list.every((x) => typeof x.matchScore === 'number');

check('demographicsSearch returns nothing below matchScoreThreshold', ['PERSON-SEARCH-THRESHOLD'], async (t) => {
  const a = await family(t, ['PERSON-SEARCH-THRESHOLD']);
  let seen = 0;
  for (const threshold of [0.2, 0.6, 0.95]) {
    const list = results(await search(t, a, { matchScoreThreshold: threshold }));
    if (!scored(list)) t.skip('search results carry no matchScore, so the threshold cannot be observed');
    seen += list.length;
    await t.rule('PERSON-SEARCH-THRESHOLD', () => expect(list.filter((x) => x.matchScore! < threshold).map((x) => x.matchScore), `scores below ${threshold}`).toEqual([]));
  }
  if (!seen) t.skip('the deployment returned no candidates, so the threshold could not be observed');
});

check('without matchScoreThreshold the results include every thresholded result', ['PERSON-SEARCH-NO-THRESHOLD'], async (t) => {
  const a = await family(t, ['PERSON-SEARCH-NO-THRESHOLD']);
  // A low threshold keeps weak candidates, which an unfiltered search must include too.
  const [plain, thresholded] = await Promise.all([search(t, a), search(t, a, { matchScoreThreshold: 0.01 })]);
  const withThreshold = results(thresholded).map((x) => x.linkId);
  if (!withThreshold.length) t.skip('the thresholded search returned nothing to compare');
  await t.rule('PERSON-SEARCH-NO-THRESHOLD', () => expect(results(plain).map((x) => x.linkId), 'unfiltered results').toEqual(expect.arrayContaining(withThreshold)));
});

check('searchResults are ranked best to worst', ['PERSON-SEARCH-ORDER'], async (t) => {
  const a = await family(t, ['PERSON-SEARCH-ORDER']);
  const list = results(await search(t, a, { matchScoreThreshold: 0.01 }));
  if (!scored(list)) t.skip('search results carry no matchScore, so the ranking cannot be observed');
  const scores = list.map((x) => x.matchScore!);
  if (scores.length < 2) t.skip(`only ${scores.length} candidate(s) returned; ranking needs two`);
  await t.rule('PERSON-SEARCH-ORDER', () => expect(scores, 'non-increasing matchScore').toEqual([...scores].sort((x, y) => y - x)));
});

check('demographicsSearch returns at most maxSearchResults results', ['PERSON-SEARCH-MAX-RESULTS'], async (t) => {
  const a = await family(t, ['PERSON-SEARCH-MAX-RESULTS']);
  if (results(await search(t, a, { matchScoreThreshold: 0.01 })).length < 2) t.skip('fewer than two candidates, so a limit of 1 could not be observed');
  for (const max of [1, 2]) {
    const r = await search(t, a, { matchScoreThreshold: 0.01, maxSearchResults: max });
    await t.rule('PERSON-SEARCH-MAX-RESULTS', () => expect(results(r).length, `results with maxSearchResults=${max}`).toBeLessThanOrEqual(max));
  }
});

check('without maxSearchResults no fewer results come back than with a small limit', ['PERSON-SEARCH-MAX-DEFAULT'], async (t) => {
  const a = await family(t, ['PERSON-SEARCH-MAX-DEFAULT']);
  const [unlimited, limited] = await Promise.all([search(t, a, { matchScoreThreshold: 0.01 }), search(t, a, { matchScoreThreshold: 0.01, maxSearchResults: 2 })]);
  if (!results(limited).length) t.skip('no candidates returned');
  await t.rule('PERSON-SEARCH-MAX-DEFAULT', () => expect(results(unlimited).length, 'results with the system maximum').toBeGreaterThanOrEqual(results(limited).length));
});

for (const max of [0, -1]) {
  check(`maxSearchResults ${max} is rejected`, ['PERSON-SEARCH-MAX-POSITIVE'], async (t) => {
    const r = await t.invalid('demographicsSearch', { identity: person.make(t).identity, maxSearchResults: max });
    await t.rule('PERSON-SEARCH-MAX-POSITIVE', () => expect(isRejection(r, { sentInvalid: true }), `maxSearchResults=${max} must be rejected, got ${describeReply(r)}`).toBe(true));
  });
}

check('a search with an exact copy of a posted person returns it', ['PERSON-SEARCH-FINDS-EXACT'], async (t) => {
  const a = await person.postNew(t, ['PERSON-SEARCH-FINDS-EXACT']);
  const found = await t.eventually('search finds the posted person', async () => {
    const r = await search(t, a.identity);
    return results(r).some((x) => x.linkId === a.linkId) ? r : undefined;
  });
  await t.rule('PERSON-SEARCH-FINDS-EXACT', () => expect(found, `search returned ${a.linkId} within the consistency budget`).toBeDefined());
});
