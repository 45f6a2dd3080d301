/**
 * Clauses of the demographicsSearch checks: nothing below matchScoreThreshold and nothing at or above it filtered away,
 * ranked best to worst, at most maxSearchResults, maxSearchResults > 0, score range and sameIdentity values, a results
 * list that is there and holds no non-match; person: no filtering without a threshold, the system maximum without
 * maxSearchResults, and one result or more for an unthresholded search of a person it holds. Results are read
 * tolerantly: a result without a numeric score is judged by no score clause (person result fields are not shown); ties
 * may come in any order.
 * Source: organization-identity-api.md, Endpoints (rule 1, demographicsSearch), Resources (Search result), Limits;
 * person-provider-identity-api.md, Resources (Person request content options), Endpoints, Limits.
 */
import { type Answer, accepted, said } from '../common/answer.js';
import { clause } from '../common/clause.js';

/** A search result as the clauses read it. */
export interface Result {
  linkId?: unknown;
  matchScore?: unknown;
  sameIdentity?: unknown;
}
const scoreOf = (r: Result) => (typeof r.matchScore === 'number' ? r.matchScore : undefined);
const named = (r: Result) => `${String(r.linkId)}:${JSON.stringify(r.matchScore)}`;

export const BELOW_THRESHOLD = clause(
  'BELOW-THRESHOLD',
  'a search result scoring below the matchScoreThreshold of its request',
  ['search.threshold'],
);
/** BELOW-THRESHOLD: results of a search at `threshold` that score below it. */
export function belowThreshold(results: readonly Result[], threshold: number): string[] {
  return results
    .filter((r) => scoreOf(r) !== undefined && scoreOf(r)! < threshold)
    .map((r) => `${named(r)} at matchScoreThreshold ${threshold}`);
}

export const THRESHOLD_DROPS = clause(
  'THRESHOLD-DROPS',
  'a result that searches of the same identity without a threshold score at or above matchScoreThreshold (read ' +
    'before and after), missing from the search with that threshold while it holds fewer results than it may',
  ['search.threshold'],
);
/**
 * THRESHOLD-DROPS: the check's own results that both unthresholded reads (`before`, `after`) score at or above
 * `threshold` with the same score, missing from `got` (the search at `threshold`, which asked for at most `max` results
 * and holds fewer).
 */
export function thresholdDrops(
  own: ReadonlySet<string>,
  before: readonly Result[],
  after: readonly Result[],
  got: readonly Result[],
  threshold: number,
  max: number,
): string[] {
  if (got.length >= max) return [];
  const score = (list: readonly Result[], id: string) => scoreOf(list.find((r) => r.linkId === id) ?? {});
  return [...own]
    .filter((id) => {
      const [a, b] = [score(before, id), score(after, id)];
      return a !== undefined && a === b && a >= threshold && !got.some((r) => r.linkId === id);
    })
    .map((id) => `${id} scored ${score(before, id)} without a threshold, absent at matchScoreThreshold ${threshold}`);
}

export const UNORDERED = clause('UNORDERED', 'a search result list whose match scores rise somewhere down the list', [
  'search.order',
]);
/** UNORDERED: each place where a result scores higher than the scored result before it. */
export function unordered(results: readonly Result[]): string[] {
  const scored = results.filter((r) => scoreOf(r) !== undefined);
  return scored
    .slice(1)
    .flatMap((r, i) => (scoreOf(r)! > scoreOf(scored[i]!)! ? [`${named(scored[i]!)} before ${named(r)}`] : []));
}

export const OVER_MAX = clause('OVER-MAX', 'more search results than the maxSearchResults of the request', [
  'search.maxResults',
]);
/** OVER-MAX: the count, when it exceeds `max`. */
export function overMax(results: readonly Result[], max: number): string[] {
  return results.length > max ? [`${results.length} results at maxSearchResults=${max}`] : [];
}

export const NONPOSITIVE_MAX_ACCEPTED = clause(
  'NONPOSITIVE-MAX-ACCEPTED',
  'a search with maxSearchResults not greater than 0 accepted (success=true)',
  ['search.maxPositive'],
);
/** NONPOSITIVE-MAX-ACCEPTED: the reply to a search with maxSearchResults `max` (<= 0), when it accepted it. */
export function nonPositiveMaxAccepted(max: number, a: Answer): string[] {
  return max <= 0 && accepted(a) ? [`maxSearchResults=${max} accepted: ${said(a)}`] : [];
}

export const SCORE_OUT_OF_RANGE = clause(
  'SCORE-OUT-OF-RANGE',
  'a matchScore that is not a number between 0.0 and 1.0',
  ['search.scoreRange'],
);
/** SCORE-OUT-OF-RANGE: results whose matchScore is not a number in [0, 1]. */
export function scoreOutOfRange(results: readonly Result[]): string[] {
  return results
    .filter((r) => !(typeof r.matchScore === 'number' && r.matchScore >= 0 && r.matchScore <= 1))
    .map(named);
}

export const SAME_IDENTITY_VALUE = clause(
  'SAME-IDENTITY-VALUE',
  'a search result whose sameIdentity is not Y, U or N',
  ['search.sameIdentity', 'search.scoreRange'],
);
/** SAME-IDENTITY-VALUE: results whose sameIdentity is not one of Y, U, N. */
export function sameIdentityValue(results: readonly Result[]): string[] {
  return results
    .filter((r) => !['Y', 'U', 'N'].includes(r.sameIdentity as string))
    .map((r) => `${String(r.linkId)}: ${JSON.stringify(r.sameIdentity)}`);
}

export const RESULTS_MISSING = clause('RESULTS-MISSING', 'a successful search reply without a searchResults list', [
  'search.resultsRequired',
]);
/** RESULTS-MISSING: the content of a successful search, when it holds no searchResults array. */
export function resultsMissing(content: Record<string, unknown> | null | undefined): string[] {
  return Array.isArray(content?.searchResults) ? [] : [`searchResults is ${JSON.stringify(content?.searchResults)}`];
}

export const NON_MATCH_LISTED = clause(
  'NON-MATCH-LISTED',
  'a result listed by a search that nothing matches at its matchScoreThreshold: one scoring below the ' +
    'threshold, or with no score',
  ['search.resultsRequired'],
  { on: 'empty when no match' },
);
/** NON-MATCH-LISTED: results of a search at `threshold` that are no match at it. */
export function nonMatchListed(results: readonly Result[], threshold: number): string[] {
  return results
    .filter((r) => !(scoreOf(r)! >= threshold))
    .map((r) => `${named(r)} at matchScoreThreshold ${threshold}`);
}

export const EXACT_NOT_FOUND = clause(
  'EXACT-NOT-FOUND',
  'a search with an exact copy of a posted identity that does not return it within the consistency budget',
  ['search.findsExact'],
);
/** EXACT-NOT-FOUND: the posted link ID, when the last search did not return it. */
export function exactNotFound(linkId: string, found: boolean): string[] {
  return found ? [] : [`${linkId} not among the results`];
}

export const UNTHRESHOLDED_FILTERS = clause(
  'UNTHRESHOLDED-FILTERS',
  'a result of a thresholded search missing from the same search without matchScoreThreshold, where the ' +
    'unthresholded list is not cut above it (it holds fewer results, or one scoring lower)',
  ['PERSON-SEARCH-NO-THRESHOLD'],
);
/** UNTHRESHOLDED-FILTERS: own results of `thresholded` missing from `plain` that no cut of `plain` explains. */
export function unthresholdedFilters(
  own: ReadonlySet<string>,
  plain: readonly Result[],
  thresholded: readonly Result[],
): string[] {
  const lowest = Math.min(...plain.map((r) => scoreOf(r) ?? Number.POSITIVE_INFINITY));
  return thresholded
    .filter((r) => own.has(String(r.linkId)) && !plain.some((p) => p.linkId === r.linkId))
    .filter((r) => plain.length < thresholded.length || (scoreOf(r) !== undefined && scoreOf(r)! > lowest))
    .map(
      (r) => `${named(r)} missing without a threshold (${plain.length} results there, ${thresholded.length} with it)`,
    );
}

export const DEFAULT_MAX_FEWER = clause(
  'DEFAULT-MAX-FEWER',
  'a search without maxSearchResults that returns fewer results than the same search with a small maxSearchResults',
  ['PERSON-SEARCH-MAX-DEFAULT'],
);
/** DEFAULT-MAX-FEWER: the counts, when the unlimited search returned fewer. */
export function defaultMaxFewer(unlimited: number, limited: number, max: number): string[] {
  return unlimited < limited
    ? [`${unlimited} results without maxSearchResults, ${limited} with maxSearchResults=${max}`]
    : [];
}

export const NO_RESULT = clause(
  'NO-RESULT',
  'a search without matchScoreThreshold, with the data of a person the service holds, that returns no result ' +
    'within the consistency budget',
  ['PERSON-SEARCH-ONE-TO-MANY'],
);
/** NO-RESULT: the empty list, when the unthresholded search of a held person returned no result. */
export function noResult(results: readonly Result[]): string[] {
  return results.length ? [] : ['no result (the seed: "returns one to many ranked results"; no score filtering)'];
}

export const SEARCH_CLAUSES = [
  BELOW_THRESHOLD,
  THRESHOLD_DROPS,
  UNORDERED,
  OVER_MAX,
  NONPOSITIVE_MAX_ACCEPTED,
  SCORE_OUT_OF_RANGE,
  SAME_IDENTITY_VALUE,
  RESULTS_MISSING,
  NON_MATCH_LISTED,
  EXACT_NOT_FOUND,
  UNTHRESHOLDED_FILTERS,
  DEFAULT_MAX_FEWER,
  NO_RESULT,
];
