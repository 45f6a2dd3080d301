/**
 * The mutation score and its interval. K mutants killed (timeouts included) of N measured; of
 * those, M are left once the survivors triaged equivalent or legal are set aside
 * (detection/mutants.md), and the score without them, K of M, gets a 95 % Wilson score interval
 * (the binomial interval that stays inside 0-100 % and keeps its coverage near 95 % for small
 * counts and scores near 100 %, unlike the normal approximation).
 */
/** The standard normal quantile of 0.975 (a two-sided 95 % interval). */
const Z95 = 1.959963984540054;

/** The 95 % Wilson score interval of `k` successes in `n` trials, as fractions. */
export function wilsonInterval(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = Z95;
  const p = k / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const denominator = 1 + (z * z) / n;
  return [Math.max(0, (centre - spread) / denominator), Math.min(1, (centre + spread) / denominator)];
}

export interface Score {
  killed: number;
  measured: number;
  /** Survivors triaged equivalent or legal. */
  excluded: number;
}

const pct = (k: number, n: number) => (n ? ((100 * k) / n).toFixed(1) : '-');

/** The score's line: `mutation score: K of N killed (P %); without equivalent and legal: K of M (Q %) [95 % interval a-b %]`. */
export function scoreLine({ killed, measured, excluded }: Score): string {
  const m = measured - excluded;
  const [lo, hi] = wilsonInterval(killed, m);
  const interval = m ? `${(100 * lo).toFixed(1)}-${(100 * hi).toFixed(1)} %` : '-';
  return `mutation score: ${killed} of ${measured} killed (${pct(killed, measured)} %); without equivalent and legal: ${killed} of ${m} (${pct(killed, m)} %) [95 % interval ${interval}]`;
}
