/**
 * The Mann-Whitney U test (Wilcoxon rank-sum) of two samples, with its effect size, and Holm's step-down correction for
 * testing many at once: what `npm run compare` asks of two runs' per-request times before it calls an operation slower
 * or faster (report/compare.ts).
 *
 * simple-statistics gives the rank sum (wilcoxonRankSum, ties sharing their mean rank) and the error function; the rest
 * is written here from the textbook formulas: U = W - n1 (n1 + 1) / 2; under no difference U has mean n1 n2 / 2 and
 * variance n1 n2 / 12 ((N + 1) - Σ(t³ - t) / (N (N - 1))) for tie groups of sizes t (the normal approximation, with a
 * continuity correction of 1/2, sound from about 8 per sample); the two-sided p is erfc(|z| / √2). The effect size is
 * Cliff's delta, 2U / (n1 n2) - 1 (the rank-biserial correlation): the chance that a value of the second sample exceeds
 * one of the first, less the chance of the reverse, from -1 to 1.
 */
import { errorFunction, wilcoxonRankSum } from 'simple-statistics';

export interface RankTest {
  /** Mann-Whitney U of the second sample: pairs (a, b) with b > a, ties counting a half. */
  u: number;
  /** The standardised U (normal approximation with continuity and tie corrections). */
  z: number;
  /** Two-sided p-value of "neither sample tends to larger values". */
  p: number;
  /** Cliff's delta of the second sample over the first: > 0 when it tends larger. */
  delta: number;
}

/**
 * Conventional bounds of |Cliff's delta| (Romano et al. 2006): below 0.147 negligible, 0.33 small, 0.474 medium, else
 * large.
 */
export const DELTA_BOUNDS = { negligible: 0.147, small: 0.33, medium: 0.474 } as const;

/** The effect size in words, by DELTA_BOUNDS. */
export function deltaSize(delta: number): 'negligible' | 'small' | 'medium' | 'large' {
  const d = Math.abs(delta);
  return d < DELTA_BOUNDS.negligible
    ? 'negligible'
    : d < DELTA_BOUNDS.small
      ? 'small'
      : d < DELTA_BOUNDS.medium
        ? 'medium'
        : 'large';
}

/**
 * Tests whether `b` tends to larger or smaller values than `a`.
 * @throws Error when either sample is empty
 */
export function mannWhitney(a: readonly number[], b: readonly number[]): RankTest {
  const n1 = a.length;
  const n2 = b.length;
  if (!n1 || !n2) throw new Error('mannWhitney: both samples need at least one value');
  // U of b from b's rank sum.
  const u = wilcoxonRankSum([...b], [...a]) - (n2 * (n2 + 1)) / 2;
  const n = n1 + n2;
  const pooled = [...a, ...b].sort((x, y) => x - y);
  let ties = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && pooled[j + 1] === pooled[i]) j++;
    const t = j - i + 1;
    ties += t * t * t - t;
    i = j + 1;
  }
  const mean = (n1 * n2) / 2;
  const variance = n > 1 ? ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1))) : 0;
  const off = u - mean;
  const z = variance > 0 ? (Math.sign(off) * Math.max(0, Math.abs(off) - 0.5)) / Math.sqrt(variance) : 0;
  const p = variance > 0 ? Math.min(1, Math.max(0, 1 - errorFunction(Math.abs(z) / Math.SQRT2))) : 1;
  return { u, z, p, delta: (2 * u) / (n1 * n2) - 1 };
}

/**
 * Holm's step-down correction: which of `pValues` are significant at family-wise error rate `alpha` (the smallest
 * against alpha / m, the next against alpha / (m - 1), ..., stopping at the first that is not).
 * @returns one boolean per p-value, in the order given
 */
export function holm(pValues: readonly number[], alpha: number): boolean[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const out = new Array<boolean>(m).fill(false);
  for (let k = 0; k < m; k++) {
    if (order[k]!.p > alpha / (m - k)) break;
    out[order[k]!.i] = true;
  }
  return out;
}
