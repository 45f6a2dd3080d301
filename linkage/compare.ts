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
    truncated: boolean;
  };
}

export const MIN_REGRESSION = 0.005;
const MAX_ENUMERATED_PAIRS = 5_000_000;

export const labelsOf = (f: ResultsFile) =>
  new Map(f.records.flatMap((id, i) => (f.linkIds[i] ? [[id, f.linkIds[i]!] as [string, string]] : [])));

/** True when the two results were produced from the same data (options and record ids agree). */
export function sameData(a: ResultsFile, b: ResultsFile): string | undefined {
  for (const k of ['service', 'preset', 'size', 'seed', 'searchSample'] as const)
    if (a.options[k] !== b.options[k]) return `${k} differs (${a.options[k]} vs ${b.options[k]})`;
  if (a.records.length !== b.records.length || a.records.some((id, i) => id !== b.records[i])) return 'record ids differ';
  return undefined;
}

/** Pairs of records in the same cluster, as "i|j" keys over record indices (bounded). */
function linkedPairs(records: string[], labels: Map<string, string>): { pairs: Set<string>; truncated: boolean } {
  const clusters = new Map<string, number[]>();
  records.forEach((id, i) => {
    const l = labels.get(id);
    if (l) (clusters.get(l) ?? clusters.set(l, []).get(l)!).push(i);
  });
  const pairs = new Set<string>();
  let truncated = false;
  for (const members of clusters.values())
    for (let x = 0; x < members.length && !truncated; x++)
      for (let y = x + 1; y < members.length; y++) {
        if (pairs.size >= MAX_ENUMERATED_PAIRS) {
          truncated = true;
          break;
        }
        pairs.add(`${members[x]}|${members[y]}`);
      }
  return { pairs, truncated };
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

  const entityOf = dataset.records.map((r) => r.entity);
  const A = linkedPairs(baseline.records, la);
  const B = linkedPairs(current.records, lb);
  const flips = {
    truePairsNewlyLinked: 0,
    truePairsNewlyUnlinked: 0,
    nonPairsNewlyLinked: 0,
    nonPairsNewlyUnlinked: 0,
    truncated: A.truncated || B.truncated,
  };
  const isTrue = (key: string) => {
    const [i, j] = key.split('|').map(Number) as [number, number];
    return entityOf[i] === entityOf[j];
  };
  for (const k of B.pairs) if (!A.pairs.has(k)) isTrue(k) ? flips.truePairsNewlyLinked++ : flips.nonPairsNewlyLinked++;
  for (const k of A.pairs) if (!B.pairs.has(k)) isTrue(k) ? flips.truePairsNewlyUnlinked++ : flips.nonPairsNewlyUnlinked++;
  return {
    baselineRunId: baseline.runId,
    runId: current.runId,
    rows,
    regressions: rows.filter((r) => r.regression).map((r) => r.metric),
    flips,
  };
}
