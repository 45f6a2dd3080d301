/**
 * demographicsSearch: rule 1 (nothing below matchScoreThreshold; maxSearchResults > 0),
 * ordering best to worst, at most maxSearchResults, score range, sameIdentity values, and the
 * searchResults member itself.
 * Source: organization-identity-api.md, Endpoints (rule 1), Resources (Search result), Limits.
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { isRejection } from '../../harness/client.js';
import { describeReply } from '../../harness/check.js';
import { postContent } from '../../generators/common.js';
import { area, org } from './org.js';

const { check } = area('search');

/** Posts an identity plus two variants of it (other addresses) so a search has several candidates. */
async function family(t: Check, cites: string[]) {
  const a = await org.postNew(t, cites);
  for (const i of [1, 2]) {
    const variant = structuredClone(a.identity) as any;
    variant.addresses = [variant.addresses[1]];
    variant.employerIdentificationNumber = [];
    variant.organizationNames[0].tradingName = `${variant.organizationNames[0].tradingName} ${i}`;
    await t.ok('postIdentity', postContent(variant, t.source(i), t.profile.sourcePlacement), { cites });
  }
  return a;
}

const search = (t: Check, identity: unknown, extra: Record<string, unknown> = {}) => t.call('demographicsSearch', { identity, ...extra });

const results = (r: { content: any }) => (Array.isArray(r.content?.searchResults) ? (r.content.searchResults as Array<{ matchScore: number; linkId?: string; sameIdentity: string }>) : []);

check('demographicsSearch returns nothing below matchScoreThreshold', ['ORG-SEARCH-THRESHOLD'], async (t) => {
  const a = await family(t, ['ORG-SEARCH-THRESHOLD']);
  for (const threshold of [0.2, 0.6, 0.95]) {
    const r = await search(t, a.identity, { matchScoreThreshold: threshold });
    await t.rule('ORG-SEARCH-THRESHOLD', () => expect(results(r).filter((x) => x.matchScore < threshold).map((x) => x.matchScore), `scores below ${threshold}`).toEqual([]));
  }
  const any = await search(t, a.identity, { matchScoreThreshold: 0.2 });
  if (!results(any).length) t.skip('the deployment returned no candidates, so the threshold could not be observed');
});

check('searchResults are ordered best to worst', ['ORG-SEARCH-ORDER'], async (t) => {
  const a = await family(t, ['ORG-SEARCH-ORDER']);
  const r = await search(t, a.identity, { matchScoreThreshold: 0 });
  const scores = results(r).map((x) => x.matchScore);
  if (scores.length < 2) t.skip(`only ${scores.length} candidate(s) returned; ordering needs two`);
  await t.rule('ORG-SEARCH-ORDER', () => expect(scores, 'non-increasing matchScore').toEqual([...scores].sort((x, y) => y - x)));
});

check('demographicsSearch returns at most maxSearchResults results', ['ORG-SEARCH-MAX-RESULTS'], async (t) => {
  const a = await family(t, ['ORG-SEARCH-MAX-RESULTS']);
  const all = await search(t, a.identity, { matchScoreThreshold: 0 });
  if (results(all).length < 2) t.skip('fewer than two candidates, so a limit of 1 could not be observed');
  for (const max of [1, 2]) {
    const r = await search(t, a.identity, { matchScoreThreshold: 0, maxSearchResults: max });
    await t.rule('ORG-SEARCH-MAX-RESULTS', () => expect(results(r).length, `results with maxSearchResults=${max}`).toBeLessThanOrEqual(max));
  }
});

for (const max of [0, -1]) {
  check(`maxSearchResults ${max} is rejected`, ['ORG-SEARCH-MAX-POSITIVE'], async (t) => {
    const r = await t.raw('demographicsSearch', { identity: org.make(t).identity, maxSearchResults: max });
    await t.rule('ORG-SEARCH-MAX-POSITIVE', () => expect(isRejection(r), `maxSearchResults=${max} must be rejected, got ${describeReply(r)}`).toBe(true));
  });
}

check('every matchScore lies in [0, 1] and sameIdentity is Y, U or N', ['ORG-SEARCH-SCORE-RANGE', 'ORG-SEARCH-SAME-IDENTITY'], async (t) => {
  const a = await family(t, ['ORG-SEARCH-SCORE-RANGE']);
  const r = await t.raw('demographicsSearch', { identity: a.identity, matchScoreThreshold: 0 });
  const list = results(r);
  if (!list.length) t.skip('no candidates returned');
  await t.rule('ORG-SEARCH-SCORE-RANGE', () => expect(list.filter((x) => !(typeof x.matchScore === 'number' && x.matchScore >= 0 && x.matchScore <= 1)).map((x) => x.matchScore)).toEqual([]));
  await t.rule('ORG-SEARCH-SAME-IDENTITY', () => expect(list.filter((x) => !['Y', 'U', 'N'].includes(x.sameIdentity)).map((x) => x.sameIdentity)).toEqual([]));
});

check('searchResults is present, and empty when nothing matches', ['ORG-SEARCH-RESULTS-REQUIRED'], async (t) => {
  const nonsense = { organizationNames: [{ legalBusinessName: `Zqxv ${t.faker.string.alpha(12)} Plorth` }], addresses: [{ postalCode: '00000', city: t.faker.string.alpha(10) }] };
  const r = await t.ok('demographicsSearch', { identity: nonsense, matchScoreThreshold: 0.99 });
  await t.rule('ORG-SEARCH-RESULTS-REQUIRED', () => {
    expect(Array.isArray(r.content?.searchResults), 'searchResults is an array').toBe(true);
    expect(r.content.searchResults.length, 'nothing matches a nonsense identity at 0.99').toBe(0);
  });
});

check('a search with an exact copy of a posted identity returns it', ['ORG-SEARCH-FINDS-EXACT'], async (t) => {
  const a = await org.postNew(t, ['ORG-SEARCH-FINDS-EXACT']);
  const found = await t.eventually('search finds the posted identity', async () => {
    const r = await search(t, a.identity);
    return results(r).some((x) => x.linkId === a.linkId) ? r : undefined;
  });
  await t.rule('ORG-SEARCH-FINDS-EXACT', () => expect(found, `search returned ${a.linkId} within the consistency budget`).toBeDefined());
});
