/**
 * The verdict of a paired match-quality comparison in words (linkage/compare.ts compareClusterings decides it; this
 * module is small so that `npm run compare` reads a saved comparison.json without the bootstrap): the regressions,
 * and the metrics that improved significantly (by the same margin a regression needs), so that a better release is
 * not reported as only "no regression".
 */

/** A saved or fresh comparison as the verdict reads it (`improvement` is absent in older comparison.json files). */
export interface MatchVerdict {
  regressions: readonly string[];
  rows: ReadonlyArray<{ metric: string; improvement?: boolean }>;
}

/** The metrics that improved significantly. */
export const improvements = (c: MatchVerdict): string[] => c.rows.filter((r) => r.improvement).map((r) => r.metric);

/**
 * E.g. "REGRESSION in pairwise.recall; better in pairwise.precision", "no regression; better in pairwise.recall,
 * pairwise.f1", "no regression, no significant improvement".
 */
export function matchVerdictText(c: MatchVerdict): string {
  const better = improvements(c);
  if (c.regressions.length)
    return `REGRESSION in ${c.regressions.join(', ')}${better.length ? `; better in ${better.join(', ')}` : ''}`;
  return better.length ? `no regression; better in ${better.join(', ')}` : 'no regression, no significant improvement';
}
