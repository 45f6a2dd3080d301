/**
 * demographicsSearch rules shared by the organization and provider services: nothing below matchScoreThreshold, ordered
 * best to worst, at most maxSearchResults, maxSearchResults > 0, scores in [0, 1] with sameIdentity Y/U/N,
 * searchResults present, an exact copy is found. The service supplies `variant` (a near copy of an identity, so a
 * search has several candidates) and `nonsense` (an identity nothing matches).
 * Source: organization-identity-api.md, Endpoints (rule 1), Resources (Search result), Limits;
 * person-provider-identity-api.md, Endpoints (provider demographicsSearch), Limits.
 */
import type { Faker } from '@faker-js/faker';
import type { Check } from '../../../harness/check.js';
import { answerOf } from '../../../harness/reply.js';
import { postContent } from '../../../generators/common.js';
import {
  BELOW_THRESHOLD,
  EXACT_NOT_FOUND,
  NONPOSITIVE_MAX_ACCEPTED,
  NON_MATCH_LISTED,
  OVER_MAX,
  RESULTS_MISSING,
  SAME_IDENTITY_VALUE,
  SCORE_OUT_OF_RANGE,
  THRESHOLD_DROPS,
  UNORDERED,
  belowThreshold,
  exactNotFound,
  nonMatchListed,
  nonPositiveMaxAccepted,
  overMax,
  resultsMissing,
  sameIdentityValue,
  scoreOutOfRange,
  thresholdDrops,
  unordered,
} from '../../../specs/clauses/search.js';
import { type Shared, type SharedCheck, registerShared } from './types.js';

export interface SearchHooks {
  /** A near copy of `identity` (the i-th), e.g. another address: a candidate that scores lower. */
  variant?: (identity: any, i: number) => Record<string, unknown>;
  /** An identity no posted identity resembles (the resultsRequired rule needs it). */
  nonsense?: (f: Faker) => Record<string, unknown>;
  /**
   * Posts several similar identities so a search has candidates of differing scores; returns the identity to search
   * with and the link IDs posted. Default: an identity, two variants of it and one unrelated identity.
   */
  family?: (t: Check, cites: string[]) => Promise<{ identity: Record<string, unknown>; linkIds: string[] }>;
  /**
   * Completes a partial copy of `from` so the deployment still compares it (provider: the provider type, without which
   * identities of a type never meet). Default: the copy as it is.
   */
  completePartial?: (copy: Record<string, unknown>, from: Record<string, unknown>) => Record<string, unknown>;
  /**
   * True where the seed leaves the search-result fields "not shown" (person): a rule that needs matchScore skips when
   * results carry none instead of failing.
   */
  scoresOptional?: boolean;
}

/** What every search check receives: the service's registrar, kit and label, and its hooks. */
type SearchSetup = Shared & SearchHooks;
type SearchCheck = SharedCheck<SearchSetup>;

type Result = { matchScore: number; linkId?: string; sameIdentity: string };
const results = (r: { content: any }) =>
  Array.isArray(r.content?.searchResults) ? (r.content.searchResults as Result[]) : [];
const scored = (list: Result[]) => list.every((x) => typeof x.matchScore === 'number');
const search = (t: Check, identity: unknown, extra: Record<string, unknown> = {}) =>
  t.call('demographicsSearch', { identity, ...extra });

/**
 * Copies of an identity with only some of its members (the first two, half, all but the last, and the second and third
 * alone): a search with the full identity scores them in the middle of the range, whichever members a deployment weighs
 * most.
 */
export function partialCopies(identity: Record<string, unknown>): Array<Record<string, unknown>> {
  const keys = Object.keys(identity).filter((k) => k !== 'sources' && identity[k] !== undefined);
  const subsets = [
    keys.slice(0, 2),
    keys.slice(0, Math.ceil(keys.length / 2)),
    keys.slice(0, -1),
    keys.slice(1, 2),
    keys.slice(2, 3),
  ];
  const seen = new Set<string>();
  return subsets
    .filter((ks) => ks.length && ks.length < keys.length && !seen.has(ks.join()) && seen.add(ks.join()))
    .map((ks) => Object.fromEntries(ks.map((k) => [k, structuredClone(identity[k])])));
}

/**
 * The search checks, in a fixed order (their order in the file is observable); a service registers those its catalogue
 * gives a requirement (registerShared).
 */
export const searchChecks = (s: SearchSetup) =>
  registerShared(s, [
    THRESHOLD,
    THRESHOLD_BETWEEN_SCORES,
    ORDER,
    MAX_RESULTS,
    ...[0, -1].map(maxPositive),
    SCORE_RANGE,
    RESULTS_REQUIRED,
    FINDS_EXACT,
  ]);

/** The default family: an identity, two variants of it and one unrelated identity. */
async function defaultFamily(t: Check, { kit, variant }: SearchSetup, cites: string[]) {
  if (!variant) throw new Error('searchChecks needs a variant hook or a family hook');
  const [a] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
  // The two variants of A go out together: each is matched against A, neither needs the other.
  const variants = await Promise.all(
    [1, 2].map((i) => {
      const source = t.source(i);
      const content = postContent(variant(structuredClone(a.identity), i), source, t.profile.sourcePlacement);
      return kit.postAndRead(t, { source, identity: {}, content }, cites);
    }),
  );
  return { identity: a.identity, linkIds: [a.linkId, ...variants.map((v) => v.linkId)] };
}

/** The family, searched for once the search index shows it (a lagging index is legitimate). */
async function postedFamily(t: Check, s: SearchSetup, cites: string[]) {
  const f = await (s.family ? s.family(t, cites) : defaultFamily(t, s, cites));
  const seen = (r: { content: any }) => f.linkIds.filter((l) => results(r).some((x) => x.linkId === l)).length;
  await t.waitFor(
    'search shows the posted family',
    () => search(t, f.identity, { matchScoreThreshold: 0 }),
    (r) => seen(r) === f.linkIds.length || results(r).length >= f.linkIds.length,
  );
  return f;
}

/** Skips (person) or lets the contract rule report it (organization, provider) when results carry no score. */
function needScores(t: Check, { scoresOptional }: SearchSetup, list: Result[], what: string): void {
  if (scoresOptional && !scored(list)) t.skip(`search results carry no matchScore, so ${what} cannot be observed`);
}

/**
 * demographicsSearch returns no identity scoring below matchScoreThreshold, at three thresholds.
 * Source: organization-identity-api.md, Endpoints, rule 1; person-provider-identity-api.md, Endpoints
 * (demographicsSearch).
 */
const THRESHOLD: SearchCheck = {
  id: 'demographicssearch-returns-nothing-below-matchscorethreshold',
  role: 'search.threshold',
  title: 'demographicsSearch returns nothing below matchScoreThreshold',
  body: async (t, { s, id }) => {
    const a = await postedFamily(t, s, [id]);
    let seen = 0;
    const thresholds = [0.2, 0.6, 0.95];
    // Three reads of the same family, none depending on another: sent together, judged in order.
    const lists = await Promise.all(
      thresholds.map(async (threshold) => results(await search(t, a.identity, { matchScoreThreshold: threshold }))),
    );
    thresholds.forEach((threshold, i) => {
      const list = lists[i]!;
      needScores(t, s, list, 'the threshold');
      seen += list.length;
      t.judge(BELOW_THRESHOLD, id, belowThreshold(list, threshold));
    });
    if (!seen) t.skip('the deployment returned no candidates, so the threshold could not be observed');
  },
};

/**
 * A threshold put at or between observed scores drops nothing at or above it (and returns nothing below).
 * Source: organization-identity-api.md, Endpoints, rule 1 ("greater than or equal to matchScoreThreshold").
 */
const THRESHOLD_BETWEEN_SCORES: SearchCheck = {
  id: 'a-threshold-between-observed-scores-returns-exactly-the-results-at-or-above-it',
  role: 'search.threshold',
  title: 'a threshold between observed scores returns exactly the results at or above it',
  body: async (t, { s, id }) => {
    const { kit, completePartial = (c) => c } = s;
    // Partial copies of one identity (fewer and fewer of its members) score in the middle of the range.
    const base = await kit.postNew(t, [id]);
    // The partial copies go out together: each is matched against what is there, none needs another's link ID.
    const copies = await Promise.all(
      partialCopies(base.identity)
        .map((c) => completePartial(c, base.identity))
        .map((copy, i) => {
          const source = t.source(i + 1);
          const content = postContent(copy, source, t.profile.sourcePlacement);
          return kit.postAndRead(t, { source, identity: copy, content }, [id]);
        }),
    );
    const mine = [base.linkId, ...copies.map((c) => c.linkId)];
    const wide = { maxSearchResults: 50 };
    await t.waitFor(
      'search shows the partial copies',
      () => search(t, base.identity, { matchScoreThreshold: 0, ...wide }),
      (r) => mine.every((l) => results(r).some((x) => x.linkId === l)),
    );
    const all = results(await search(t, base.identity, { matchScoreThreshold: 0, ...wide }));
    needScores(t, s, all, 'the threshold');
    const own = all.filter((x) => x.linkId !== undefined && mine.includes(x.linkId));
    const scores = [...new Set(own.map((x) => x.matchScore))].sort((x, y) => y - x);
    const mid = scores.filter((x) => x > 0 && x < 1);
    if (!mid.length)
      t.skip(
        `the check's identity and ${mine.length - 1} partial copies scored ${scores.join(', ') || 'nothing'}: ` +
          `no score strictly between 0 and 1 to put a threshold at`,
      );
    // Each mid-range score itself (a result scoring exactly the threshold must appear), and midway between
    // neighbours.
    const between = scores
      .slice(1)
      .map((lo, i) => (scores[i]! + lo) / 2)
      .filter((x) => x > 0 && x < 1);
    const thresholds = [...new Set([...mid.slice(0, 2), ...between.slice(0, 2)])];
    const got = await Promise.all(
      thresholds.map(async (threshold) => ({
        threshold,
        list: results(await search(t, base.identity, { matchScoreThreshold: threshold, ...wide })),
      })),
    );
    // Read without a threshold again: only a result both reads score alike is one the threshold may not drop (scores
    // may drift, MATCH-DETERMINISTIC is EXPECT).
    const again = results(await search(t, base.identity, { matchScoreThreshold: 0, ...wide }));
    for (const { threshold, list } of got) {
      t.judge(BELOW_THRESHOLD, id, belowThreshold(list, threshold));
      t.judge(THRESHOLD_DROPS, id, thresholdDrops(new Set(mine), all, again, list, threshold, wide.maxSearchResults));
    }
  },
};

/**
 * searchResults come ordered best to worst.
 * Source: organization-identity-api.md, Endpoints (demographicsSearch: ordered best to worst);
 * person-provider-identity-api.md, Endpoints (provider demographicsSearch: ordered by match score).
 */
const ORDER: SearchCheck = {
  id: 'searchresults-are-ordered-best-to-worst',
  role: 'search.order',
  title: 'searchResults are ordered best to worst',
  body: async (t, { s, id }) => {
    const a = await postedFamily(t, s, [id]);
    const r = await search(t, a.identity, { matchScoreThreshold: 0 });
    needScores(t, s, results(r), 'the ranking');
    const scores = results(r).map((x) => x.matchScore);
    if (scores.length < 2) t.skip(`only ${scores.length} candidate(s) returned; ordering needs two`);
    t.judge(UNORDERED, id, unordered(results(r)), r);
  },
};

/**
 * demographicsSearch returns at most maxSearchResults results (limits 1 and 2).
 * Source: organization-identity-api.md, Endpoints (demographicsSearch), Limits; person-provider-identity-api.md,
 * Limits.
 */
const MAX_RESULTS: SearchCheck = {
  id: 'demographicssearch-returns-at-most-maxsearchresults-results',
  role: 'search.maxResults',
  title: 'demographicsSearch returns at most maxSearchResults results',
  body: async (t, { s, id }) => {
    const a = await postedFamily(t, s, [id]);
    const all = await search(t, a.identity, { matchScoreThreshold: 0 });
    if (results(all).length < 2) t.skip('fewer than two candidates, so a limit of 1 could not be observed');
    const limits = [1, 2];
    const limited = await Promise.all(
      limits.map((max) => search(t, a.identity, { matchScoreThreshold: 0, maxSearchResults: max })),
    );
    limits.forEach((max, i) => {
      const r = limited[i]!;
      t.judge(OVER_MAX, id, overMax(results(r), max), r);
      if (results(all).length > max) t.exercised(id, 'results:above-max');
    });
  },
};

/**
 * A maxSearchResults of `max` (not greater than 0) is rejected.
 * Source: organization-identity-api.md, Endpoints, rule 1, Limits; person-provider-identity-api.md, Limits.
 */
const maxPositive = (max: number): SearchCheck => ({
  id: `maxsearchresults-${Math.abs(max)}-is-rejected`,
  role: 'search.maxPositive',
  title: `maxSearchResults ${max} is rejected`,
  body: async (t, { s, id }) => {
    const r = await t.invalid('demographicsSearch', { identity: s.kit.make(t).identity, maxSearchResults: max });
    t.judge(NONPOSITIVE_MAX_ACCEPTED, id, nonPositiveMaxAccepted(max, answerOf(r)), r);
  },
});

/**
 * Every matchScore lies in [0, 1] (`range`) and every sameIdentity is Y, U or N (`same`).
 * Source: organization-identity-api.md, Resources (Search result), Limits.
 */
const SCORE_RANGE: SearchCheck = {
  id: 'every-matchscore-lies-in-0-1-and-sameidentity-is-y-u-or-n',
  role: 'search.scoreRange',
  title: 'every matchScore lies in [0, 1] and sameIdentity is Y, U or N',
  needs: { cites: ['search.sameIdentity'] },
  body: async (t, { s, id: range, ids }) => {
    const same = ids['search.sameIdentity'] ?? range;
    const a = await postedFamily(t, s, [range]);
    // raw: the score range and sameIdentity are judged here, by their own requirements.
    const r = await t.raw('demographicsSearch', { identity: a.identity, matchScoreThreshold: 0 });
    const found = results(r);
    if (!found.length) t.skip('no candidates returned');
    t.judge(SCORE_OUT_OF_RANGE, range, scoreOutOfRange(found), r);
    t.judge(SAME_IDENTITY_VALUE, same, sameIdentityValue(found), r);
  },
};

/**
 * searchResults is present in the reply, and empty when nothing matches.
 * Source: organization-identity-api.md, Endpoints (demographicsSearch: searchResults[] required, empty when no match).
 */
const RESULTS_REQUIRED: SearchCheck = {
  id: 'searchresults-is-present-and-empty-when-nothing-matches',
  role: 'search.resultsRequired',
  title: 'searchResults is present, and empty when nothing matches',
  needs: { setup: (s) => Boolean(s.nonsense) },
  body: async (t, { s, id }) => {
    const nonsense = s.nonsense!;
    // A posted identity the nonsense probe does not resemble: a deployment that returns the closest candidate anyway
    // shows it.
    await s.kit.postNew(t, [id]);
    const r = await t.ok('demographicsSearch', { identity: nonsense(t.faker), matchScoreThreshold: 0.99 });
    t.judge(RESULTS_MISSING, id, resultsMissing(r.content), r);
    t.judge(NON_MATCH_LISTED, id, nonMatchListed(results(r), 0.99), r);
  },
};

/**
 * A search with an exact copy of a posted identity finds it.
 * Source: organization-identity-api.md, What the service does (search by demographics);
 * person-provider-identity-api.md, Endpoints.
 */
const FINDS_EXACT: SearchCheck = {
  id: 'a-search-with-an-exact-copy-of-a-posted-identity-returns-it',
  role: 'search.findsExact',
  title: 'a search with an exact copy of a posted identity returns it',
  body: async (t, { s, id }) => {
    const a = await s.kit.postNew(t, [id]);
    const found = await s.kit.searchable(t, a);
    t.judge(EXACT_NOT_FOUND, id, exactNotFound(a.linkId, found));
  },
};
