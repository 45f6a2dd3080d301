/**
 * Clauses of the matching properties any correct deployment has whatever its scores and threshold (metamorphic checks;
 * EXPECT: the seeds show neither), and of the hard delete's effect on matching: a search with a hard-deleted source's
 * data no longer scores the identity it was linked into as high as while the data was there.
 * Source: organization-identity-api.md, Endpoints rule 1, What the service does, States and transitions
 * (deleteSourceIdentity); person-provider-identity-api.md, same sections.
 */
import { clause } from '../common/clause.js';

/** A search hit: the identity and its score. */
export interface Hit {
  linkId: string;
  score: number;
}
const fmt = (hits: readonly Hit[]) => hits.map((h) => `${h.linkId}:${h.score}`).join(', ') || '(none)';

export const MONOTONE_BROKEN = clause(
  'MONOTONE-BROKEN',
  'a result of a search at a higher matchScoreThreshold that the search at threshold 0 did not return (and did ' +
    'not cut off), or returned with another score',
  ['metamorphic.thresholdMonotone'],
);
/**
 * MONOTONE-BROKEN: hits of the higher threshold not explained by the threshold-0 hits (`cut`: that list was cut at
 * maxSearchResults).
 */
export function monotoneBroken(
  higher: readonly Hit[],
  lower: readonly Hit[],
  cut: { at?: number },
  what: string,
): string[] {
  return higher.flatMap((h) => {
    const was = lower.find((x) => x.linkId === h.linkId);
    if (!was)
      return cut.at !== undefined && h.score <= cut.at
        ? []
        : [`${what}: ${h.linkId} (score ${h.score}) was not among [${fmt(lower)}]`];
    return was.score === h.score ? [] : [`${what}: ${h.linkId} scored ${h.score}, ${was.score} at threshold 0`];
  });
}

export const PREFIX_BROKEN = clause(
  'PREFIX-BROKEN',
  'a search with maxSearchResults=k whose results are not the first k of a larger request (results of equal ' +
    'score may reorder)',
  ['metamorphic.maxPrefix'],
);
/** True when `k`-result list `small` is the first k of `big`, allowing equal scores to reorder. */
export function isPrefixUpToTies(small: readonly Hit[], big: readonly Hit[]): boolean {
  const k = small.length;
  if (k > big.length) return false;
  for (let i = 0; i < k; i++) if (small[i]!.score !== big[i]!.score) return false;
  const cut = big[k - 1]?.score;
  return small.every((h) => {
    const at = big.findIndex((x) => x.linkId === h.linkId);
    return at >= 0 && big[at]!.score === h.score && (at < k || big[at]!.score === cut);
  });
}
/** PREFIX-BROKEN: the smaller search, when it is not a prefix of the larger one up to ties. */
export function prefixBroken(small: readonly Hit[], big: readonly Hit[], what: string): string[] {
  return isPrefixUpToTies(small, big)
    ? []
    : [`${what}: [${fmt(small)}] is not the first ${small.length} of [${fmt(big)}]`];
}

export const SELF_NOT_FIRST = clause(
  'SELF-NOT-FIRST',
  'a search with an exact copy of a posted identity that does not return it, or not with the highest score, or ' +
    'not first',
  ['metamorphic.selfFirst'],
);
/** SELF-NOT-FIRST: where `self` stands among `found`, when not first with the highest score. */
export function selfNotFirst(self: string, found: readonly Hit[]): string[] {
  const mine = found.find((h) => h.linkId === self);
  if (!mine) return [`${self} is not among [${fmt(found)}]`];
  const top = Math.max(...found.map((h) => h.score));
  return mine.score === top && found[0]!.score === mine.score
    ? []
    : [`${self} scored ${mine.score} in [${fmt(found)}]`];
}

export const NONDETERMINISTIC = clause(
  'NONDETERMINISTIC',
  'the same search twice, or with a requested view, giving other identities or scores (above any cut at ' +
    'maxSearchResults)',
  ['metamorphic.deterministic'],
);
/** NONDETERMINISTIC: the keyed results that differ from the first search's. */
export function nondeterministic(first: string, others: ReadonlyArray<{ what: string; key: string }>): string[] {
  return others.filter((o) => o.key !== first).map((o) => `${o.what}: [${o.key}], first search [${first}]`);
}

/** One observed decision: the best score a probe had just before, and whether the deployment matched. */
export interface Decision {
  what: string;
  score: number;
  matched: boolean;
}
export const THRESHOLDS_CONTRADICT = clause(
  'THRESHOLDS-CONTRADICT',
  'a decision not to match at a best score at least as high as that of a decision to match (no single threshold ' +
    'explains both)',
  ['metamorphic.oneThreshold'],
);
/** The interval in which one threshold explains every decision, or the pairs that contradict. */
export function oneThreshold(decisions: readonly Decision[]): {
  interval?: [number, number];
  contradictions: Array<[Decision, Decision]>;
} {
  const pos = decisions.filter((d) => d.matched);
  const neg = decisions.filter((d) => !d.matched);
  const contradictions = neg.flatMap((n) =>
    pos.filter((p) => p.score <= n.score).map((p) => [n, p] as [Decision, Decision]),
  );
  if (contradictions.length) return { contradictions };
  const low = Math.max(0, ...neg.map((d) => d.score));
  const high = Math.min(1, ...pos.map((d) => d.score));
  return { interval: [low, high], contradictions };
}
/** THRESHOLDS-CONTRADICT: the contradicting pairs in words. */
export function thresholdsContradict(decisions: readonly Decision[]): string[] {
  return oneThreshold(decisions).contradictions.map(
    ([n, p]) => `${n.what} did not match at score ${n.score}, but ${p.what} matched at ${p.score}`,
  );
}

export const DELETED_DATA_STILL_SCORES = clause(
  'DELETED-DATA-STILL-SCORES',
  "a search with a hard-deleted source's data that still scores the identity the source had been linked into as " +
    "high as while the source was in it, where the source's data had raised that identity's score",
  ['data.hardDeleteData'],
);
/**
 * DELETED-DATA-STILL-SCORES: the identity's score for the deleted source's data now (undefined: not returned), against
 * the score while the source was in it (`during`) and before it joined (`apart`; undefined: not returned then). Judged
 * only where the source's data raised the score.
 */
export function deletedDataStillScores(now: number | undefined, during: number, apart: number | undefined): string[] {
  if (apart !== undefined && during <= apart) return [];
  return now !== undefined && now >= during
    ? [
        `scored ${now} after the delete, ${during} while the source was in it, ${apart ?? 'not returned'} ` +
          `before it joined`,
      ]
    : [];
}

export const MATCHING_CLAUSES = [
  MONOTONE_BROKEN,
  PREFIX_BROKEN,
  SELF_NOT_FIRST,
  NONDETERMINISTIC,
  THRESHOLDS_CONTRADICT,
  DELETED_DATA_STILL_SCORES,
];
