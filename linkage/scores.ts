/**
 * Score-based metrics from demographicsSearch candidates (linkage/README.md, "Metrics"): the candidate set K holds
 * every (query record, candidate record, score) returned plus every true pair that was not returned, scored 0 (Splink's
 * positives-not-captured convention). Sweeping a threshold t over the distinct scores gives TP(t) = true pairs with
 * s ≥ t, FP(t) = non-true returned pairs with s ≥ t, FN(t) = TL − TP(t).
 */
import { fBeta } from './metrics.js';

export interface ScoredPair {
  score: number;
  isTrue: boolean;
}

export interface ThresholdPoint {
  threshold: number;
  TP: number;
  FP: number;
  FN: number;
  precision: number;
  recall: number;
  f1: number;
  fStar: number;
}

export interface ScoreMetrics {
  /** True pairs of the queried records (TL of the search sample). */
  truePairs: number;
  /** Returned candidate pairs (K without the zero-scored misses). */
  returnedPairs: number;
  /** True pairs returned with any score / TL. */
  candidateRecall: number;
  /** One point per distinct score, descending. */
  curve: ThresholdPoint[];
  averagePrecision: number;
  bestF1: { threshold: number; f1: number; precision: number; recall: number } | null;
  /** Highest recall among thresholds whose precision ≥ 0.99 (resp. 0.999); null when none reaches it. */
  recallAtPrecision099: number | null;
  recallAtPrecision0999: number | null;
}

/**
 * Precision-recall curve and summary figures. `truePairs` is TL: every true pair of the queried records, returned or
 * not. Pairs with isTrue in `pairs` are the returned true pairs.
 */
export function scoreMetrics(pairs: ScoredPair[], truePairs: number): ScoreMetrics {
  const sorted = [...pairs].sort((a, b) => b.score - a.score);
  const curve: ThresholdPoint[] = [];
  let TP = 0;
  let FP = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]!.isTrue) TP++;
    else FP++;
    if (i + 1 < sorted.length && sorted[i + 1]!.score === sorted[i]!.score) continue;
    const precision = TP + FP === 0 ? 1 : TP / (TP + FP);
    const recall = truePairs === 0 ? 1 : TP / truePairs;
    const FN = truePairs - TP;
    curve.push({
      threshold: sorted[i]!.score,
      TP,
      FP,
      FN,
      precision,
      recall,
      f1: fBeta(precision, recall, 1),
      fStar: TP + FP + FN === 0 ? 1 : TP / (TP + FP + FN),
    });
  }
  let ap = 0;
  let prevRecall = 0;
  for (const p of curve) {
    ap += (p.recall - prevRecall) * p.precision;
    prevRecall = p.recall;
  }
  const best = curve.reduce<ThresholdPoint | null>((b, p) => (!b || p.f1 > b.f1 ? p : b), null);
  const recallAt = (minPrecision: number) => {
    const ok = curve.filter((p) => p.precision >= minPrecision);
    return ok.length ? Math.max(...ok.map((p) => p.recall)) : null;
  };
  const returnedTrue = pairs.filter((p) => p.isTrue).length;
  return {
    truePairs,
    returnedPairs: pairs.length,
    candidateRecall: truePairs === 0 ? 1 : returnedTrue / truePairs,
    curve,
    averagePrecision: ap,
    bestF1: best ? { threshold: best.threshold, f1: best.f1, precision: best.precision, recall: best.recall } : null,
    recallAtPrecision099: recallAt(0.99),
    recallAtPrecision0999: recallAt(0.999),
  };
}

/** Score histogram: 20 equal-width bins over [0, 1], counts of true and non-true returned pairs. */
export function scoreHistogram(
  pairs: ScoredPair[],
  bins = 20,
): Array<{ from: number; to: number; match: number; nonMatch: number }> {
  const out = Array.from({ length: bins }, (_, i) => ({ from: i / bins, to: (i + 1) / bins, match: 0, nonMatch: 0 }));
  for (const p of pairs) {
    const b = out[Math.min(bins - 1, Math.max(0, Math.floor(p.score * bins)))]!;
    if (p.isTrue) b.match++;
    else b.nonMatch++;
  }
  return out;
}

/** A returned pair of the search sample with the entity of its query (the bootstrap unit). */
export interface UnitPair extends ScoredPair {
  unit: number;
}

/** Summary figures of the score sweep under entity weights, for bootstrap intervals. */
export interface ScoreSummary {
  'search.averagePrecision': number;
  'search.bestF1': number;
  'search.bestF1Threshold': number;
  'search.recallAtPrecision099': number;
  'search.recallAtPrecision0999': number;
  'search.candidateRecall': number;
}

/**
 * The figures of scoreMetrics (average precision, best F1 and its threshold, recall at precision 0.99 / 0.999,
 * candidate recall) in one pass over pairs already sorted by descending score, with every pair and every true pair
 * counted `w[unit]` times (undefined: once). `truePairsOf` maps a unit to its true pairs (returned or not). A figure
 * that does not exist (no threshold reaches the precision) is NaN. Used for the bootstrap over entities (analysis.ts);
 * equals scoreMetrics without weights.
 */
export function scoreSummary(
  sorted: UnitPair[],
  truePairsOf: Map<number, number>,
  w?: ArrayLike<number>,
): ScoreSummary {
  const weight = (unit: number) => (w ? w[unit]! : 1);
  let TL = 0;
  for (const [unit, n] of truePairsOf) TL += weight(unit) * n;
  let TP = 0;
  let FP = 0;
  let ap = 0;
  let prevRecall = 0;
  let best = { f1: Number.NaN, threshold: Number.NaN };
  let r099 = Number.NaN;
  let r0999 = Number.NaN;
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i]!;
    const k = weight(p.unit);
    if (p.isTrue) TP += k;
    else FP += k;
    if (i + 1 < sorted.length && sorted[i + 1]!.score === p.score) continue;
    if (TP + FP === 0) continue; // every pair so far has weight 0: no point on this resample's curve
    const precision = TP / (TP + FP);
    const recall = TL === 0 ? 1 : TP / TL;
    ap += (recall - prevRecall) * precision;
    prevRecall = recall;
    const f1 = fBeta(precision, recall, 1);
    if (!(f1 <= best.f1)) best = { f1, threshold: p.score };
    if (precision >= 0.99 && !(recall <= r099)) r099 = recall;
    if (precision >= 0.999 && !(recall <= r0999)) r0999 = recall;
  }
  return {
    'search.averagePrecision': ap,
    'search.bestF1': best.f1,
    'search.bestF1Threshold': best.threshold,
    'search.recallAtPrecision099': r099,
    'search.recallAtPrecision0999': r0999,
    'search.candidateRecall': TL === 0 ? 1 : TP / TL,
  };
}
