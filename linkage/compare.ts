/**
 * Run-to-run comparison on the same data and seed (linkage/README.md, "Comparison"): paired bootstrap over entities
 * (the same resamples for both runs), the matching decisions that changed (pairs newly merged and newly split, counted
 * and listed: report/pair-decisions.ts), and a regression verdict. A metric regresses when it is worse by more than
 * max(0.5 pp, the baseline's interval half-width) AND the paired-difference interval excludes 0.
 */
import type { Dataset } from './data/dataset.js';
import { type Interval, pairedBootstrap } from './bootstrap.js';
import { HEADLINE, LOWER_IS_BETTER, metricsFor, prepare } from './analysis.js';
import type { ResultsFile } from './results.js';
import { type PairDecisions, type PairFlips, changedPairs, pairFlips } from '../report/pair-decisions.js';

export interface ComparisonRow {
  metric: string;
  a: Interval;
  b: Interval;
  diff: Interval;
  regression: boolean;
  improvement: boolean;
}

export interface Comparison {
  baselineRunId: string;
  runId: string;
  rows: ComparisonRow[];
  regressions: string[];
  /** Pair counts (the same as decisions.flips; kept for readers of older comparison.json files). */
  flips: PairFlips;
  /** The pairs newly merged and newly split (record indexes into the data set's records). */
  decisions: PairDecisions;
}

export const MIN_REGRESSION = 0.005;

/** True when the two results were produced from the same data (options, truth set and record ids agree). */
export function sameData(a: ResultsFile, b: ResultsFile): string | undefined {
  for (const k of ['service', 'preset', 'size', 'seed', 'searchSample'] as const)
    if (a.options[k] !== b.options[k]) return `${k} differs (${a.options[k]} vs ${b.options[k]})`;
  if (a.options.truthSet?.sha256 !== b.options.truthSet?.sha256)
    return 'the truth set differs (its files have other contents)';
  if (a.records.length !== b.records.length || a.records.some((id, i) => id !== b.records[i]))
    return 'record ids differ';
  return undefined;
}

export { pairFlips };

/** One clustering of the data set's records: link IDs in record order (null: not read back). */
export interface Clustering {
  runId: string;
  linkIds: Array<string | null>;
}

/**
 * Compares two clusterings of the same data set: paired bootstrap (the same resamples of entities for both, drawn from
 * `seed`), the regression verdict, and the matching decisions that changed (report/pair-decisions.ts: pairs newly
 * merged and newly split, true pairs and non-pairs apart).
 */
export function compareClusterings(
  dataset: Dataset,
  before: Clustering,
  after: Clustering,
  resamples: number,
  seed: number,
): Comparison {
  const ids = dataset.records.map((r) => r.id);
  const labels = (c: Clustering) =>
    new Map(ids.flatMap((id, i) => (c.linkIds[i] ? [[id, c.linkIds[i]!] as [string, string]] : [])));
  const pa = prepare(dataset, labels(before));
  const pb = prepare(dataset, labels(after));
  const keys = (m: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(m).filter(
        ([k]) =>
          (HEADLINE as readonly string[]).includes(k) || k.startsWith('recall.tier.') || k.startsWith('falseLink.'),
      ),
    );
  const paired = pairedBootstrap(
    dataset.entities.length,
    (w) => keys(metricsFor(pa, w)),
    (w) => keys(metricsFor(pb, w)),
    resamples,
    seed,
  );
  const rows: ComparisonRow[] = Object.entries(paired).map(([metric, r]) => {
    const worse = LOWER_IS_BETTER.has(metric) ? r.diff.value : -r.diff.value;
    const halfWidth = (r.a.high - r.a.low) / 2;
    const excludesZero = r.diff.low > 0 || r.diff.high < 0;
    const regression = Number.isFinite(worse) && worse > Math.max(MIN_REGRESSION, halfWidth) && excludesZero;
    const improvement = Number.isFinite(worse) && -worse > Math.max(MIN_REGRESSION, halfWidth) && excludesZero;
    return { metric, a: r.a, b: r.b, diff: r.diff, regression, improvement };
  });
  const decisions = changedPairs(
    dataset.records.map((r) => r.entity),
    before.linkIds,
    after.linkIds,
  );
  return {
    baselineRunId: before.runId,
    runId: after.runId,
    rows,
    regressions: rows.filter((r) => r.regression).map((r) => r.metric),
    flips: decisions.flips,
    decisions,
  };
}

/**
 * A run compared with its baseline on the same data and seed (sameData): compareClusterings under the baseline's seed.
 */
export function compare(dataset: Dataset, baseline: ResultsFile, current: ResultsFile, resamples: number): Comparison {
  return compareClusterings(dataset, baseline, current, resamples, baseline.options.seed);
}
