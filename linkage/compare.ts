/**
 * Run-to-run comparison on the same data and seed (linkage/README.md,
 * "Comparison"): paired bootstrap over entities (the same resamples for both runs), pair flips,
 * and a regression verdict. A metric regresses when it is worse by more than
 * max(0.5 pp, the baseline's interval half-width) AND the paired-difference interval excludes 0.
 */
import type { Dataset } from './data/dataset.js';
import { type Interval, pairedBootstrap } from './bootstrap.js';
import { HEADLINE, LOWER_IS_BETTER, metricsFor, prepare } from './analysis.js';
import type { ResultsFile } from './results.js';

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
  flips: {
    truePairsNewlyLinked: number;
    truePairsNewlyUnlinked: number;
    nonPairsNewlyLinked: number;
    nonPairsNewlyUnlinked: number;
    /** Always false now that the flips are counted, not enumerated (kept for readers of older comparison.json files). */
    truncated: boolean;
  };
}

export const MIN_REGRESSION = 0.005;

export const labelsOf = (f: ResultsFile) =>
  new Map(f.records.flatMap((id, i) => (f.linkIds[i] ? [[id, f.linkIds[i]!] as [string, string]] : [])));

/** True when the two results were produced from the same data (options and record ids agree). */
export function sameData(a: ResultsFile, b: ResultsFile): string | undefined {
  for (const k of ['service', 'preset', 'size', 'seed', 'searchSample'] as const)
    if (a.options[k] !== b.options[k]) return `${k} differs (${a.options[k]} vs ${b.options[k]})`;
  if (a.records.length !== b.records.length || a.records.some((id, i) => id !== b.records[i])) return 'record ids differ';
  return undefined;
}

/** C(n, 2): pairs among n records. */
const c2 = (n: number) => (n * (n - 1)) / 2;

/** Records per key, summed as C(n, 2) over the keys: the pairs of records that share the key. */
function pairsSharing(keys: Iterable<string>): number {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  let pairs = 0;
  for (const n of counts.values()) pairs += c2(n);
  return pairs;
}

/**
 * Record pairs linked in one run and not in the other, true (same entity) or not, counted from
 * the joint table of (entity, baseline cluster, current cluster) instead of enumerating pairs, so
 * memory stays with the number of records however large the clusters. `a[i]` and `b[i]` are the
 * link IDs of record i in the two runs (null or empty: not read back, linked to nothing), `entity[i]` its entity.
 */
export function pairFlips(entity: number[], a: Array<string | null>, b: Array<string | null>): Comparison['flips'] {
  const label = (l: string | null, i: number) => (l ? `\u0001${l}` : `\u0000unread ${i}`);
  const ia = a.map(label);
  const ib = b.map(label);
  const key = (...parts: Array<string | number>) => parts.join('\u0002');
  const idx = entity.map((_, i) => i);
  const inA = pairsSharing(ia);
  const inB = pairsSharing(ib);
  const inBoth = pairsSharing(idx.map((i) => key(ia[i]!, ib[i]!)));
  const trueInA = pairsSharing(idx.map((i) => key(entity[i]!, ia[i]!)));
  const trueInB = pairsSharing(idx.map((i) => key(entity[i]!, ib[i]!)));
  const trueInBoth = pairsSharing(idx.map((i) => key(entity[i]!, ia[i]!, ib[i]!)));
  const truePairsNewlyLinked = trueInB - trueInBoth;
  const truePairsNewlyUnlinked = trueInA - trueInBoth;
  return {
    truePairsNewlyLinked,
    truePairsNewlyUnlinked,
    nonPairsNewlyLinked: inB - inBoth - truePairsNewlyLinked,
    nonPairsNewlyUnlinked: inA - inBoth - truePairsNewlyUnlinked,
    truncated: false,
  };
}

export function compare(dataset: Dataset, baseline: ResultsFile, current: ResultsFile, resamples: number): Comparison {
  const la = labelsOf(baseline);
  const lb = labelsOf(current);
  const pa = prepare(dataset, la);
  const pb = prepare(dataset, lb);
  const keys = (m: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(m).filter(
        ([k]) => (HEADLINE as readonly string[]).includes(k) || k.startsWith('recall.tier.') || k.startsWith('falseLink.'),
      ),
    );
  const paired = pairedBootstrap(
    dataset.entities.length,
    (w) => keys(metricsFor(pa, w)),
    (w) => keys(metricsFor(pb, w)),
    resamples,
    baseline.options.seed,
  );
  const rows: ComparisonRow[] = Object.entries(paired).map(([metric, r]) => {
    const worse = LOWER_IS_BETTER.has(metric) ? r.diff.value : -r.diff.value;
    const halfWidth = (r.a.high - r.a.low) / 2;
    const excludesZero = r.diff.low > 0 || r.diff.high < 0;
    const regression = Number.isFinite(worse) && worse > Math.max(MIN_REGRESSION, halfWidth) && excludesZero;
    const improvement = Number.isFinite(worse) && -worse > Math.max(MIN_REGRESSION, halfWidth) && excludesZero;
    return { metric, a: r.a, b: r.b, diff: r.diff, regression, improvement };
  });

  const flips = pairFlips(
    dataset.records.map((r) => r.entity),
    baseline.linkIds,
    current.linkIds,
  );
  return {
    baselineRunId: baseline.runId,
    runId: current.runId,
    rows,
    regressions: rows.filter((r) => r.regression).map((r) => r.metric),
    flips,
  };
}
