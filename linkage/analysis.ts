/**
 * Turns one benchmark observation (the link ID every record ended up with, and the scored search candidates) into the
 * figures of the report: headline metrics with 95% bootstrap intervals over entities, recall per corruption operator
 * and per difficulty tier, false-link rate per hard-negative kind, score metrics, and cluster sizes. Source:
 * linkage/README.md, "Metrics".
 *
 * Difficulty tier of a true pair (linkage/README.md, "Metrics"): the operators of both records are pooled; `easy` =
 * formatting (L2) only; `hard` = ≥ 3 non-formatting operators or any of {family-name change, move + new phone, DOB
 * error + SSN blank, given↔family swap}; `medium` = the rest.
 */
import type { Dataset, LinkageRecord } from './data/dataset.js';
import { type Interval, bootstrap } from './bootstrap.js';
import {
  type Contingency,
  clusterMetrics,
  clusterSizeDistribution,
  contingency,
  pairCounts,
  pairwise,
} from './metrics.js';
import { type ScoredPair, type UnitPair, scoreHistogram, scoreMetrics, scoreSummary } from './scores.js';

export interface SearchPair {
  query: string;
  candidate: string;
  score: number;
}

export type Tier = 'easy' | 'medium' | 'hard';

export function tierOf(ops: Array<{ operator: string; layer: string }>): Tier {
  const substantive = ops.filter((o) => o.layer !== 'L2');
  if (!substantive.length) return 'easy';
  const names = new Set(substantive.map((o) => o.operator));
  const any = (...n: string[]) => n.some((x) => names.has(x));
  const dobError = [...names].some((n) => n.startsWith('dob.') && n !== 'dob.blank');
  if (
    names.size >= 3 ||
    any('family.married', 'name.given-family-swap') ||
    (any('address.moved', 'location.other-practice', 'address.relocated') &&
      any('phone.new', 'phone.other-own', 'phone.department')) ||
    (dobError && names.has('ssn.blank'))
  )
    return 'hard';
  return 'medium';
}

/** Counts per entity for a ratio metric: numerator and denominator, so a bootstrap can reweight them. */
class Ratio {
  readonly cells: Array<{ e: number; f: number; num: number; den: number }> = [];
  add(e: number, f: number, num: number, den: number) {
    this.cells.push({ e, f, num, den });
  }
  /** Σ w_e·w_f·num / Σ w_e·w_f·den (f = −1: weight of e only). */
  value(w?: ArrayLike<number>): number {
    let n = 0;
    let d = 0;
    for (const c of this.cells) {
      const k = w ? w[c.e]! * (c.f >= 0 ? w[c.f]! : 1) : 1;
      n += k * c.num;
      d += k * c.den;
    }
    return d === 0 ? Number.NaN : n / d;
  }
  get size() {
    return this.cells.reduce((s, c) => s + c.den, 0);
  }
}

const HEADLINE = [
  'pairwise.precision',
  'pairwise.recall',
  'pairwise.f1',
  'pairwise.f05',
  'pairwise.f2',
  'pairwise.fStar',
  'b3.precision',
  'b3.recall',
  'b3.f',
  'cluster.precision',
  'cluster.recall',
  'residualDuplicateRate',
  'ahimaResidualRate',
  'overlayRate',
  'overlayRecordRate',
] as const;
/** Metrics where a lower value is better (the rest: higher is better). */
export const LOWER_IS_BETTER = new Set<string>([
  'residualDuplicateRate',
  'ahimaResidualRate',
  'overlayRate',
  'overlayRecordRate',
]);

/** Everything needed to compute the metrics for a set of entity weights. */
export interface Prepared {
  ct: Contingency;
  byOperator: Map<string, Ratio>;
  byTier: Map<Tier, Ratio>;
  byHardNegative: Map<string, Ratio>;
  linked: (a: string, b: string) => boolean;
}

/** Prepares the contingency table and the breakdown ratios of one observation. */
export function prepare(dataset: Dataset, labels: Map<string, string>): Prepared {
  const label = (r: LinkageRecord) => labels.get(r.id) ?? `missing:${r.id}`;
  const ct = contingency(
    dataset.records.map((r) => r.entity),
    dataset.records.map(label),
  );
  const recordsOf: LinkageRecord[][] = dataset.entities.map(() => []);
  for (const r of dataset.records) recordsOf[r.entity]!.push(r);

  const byOperator = new Map<string, Ratio>();
  const byTier = new Map<Tier, Ratio>();
  for (const [e, rs] of recordsOf.entries()) {
    if (rs.length < 2) continue;
    const perOp = new Map<string, [number, number]>();
    const perTier = new Map<Tier, [number, number]>();
    for (let i = 0; i < rs.length; i++)
      for (let j = i + 1; j < rs.length; j++) {
        const ops = [...rs[i]!.ops, ...rs[j]!.ops];
        const hit = label(rs[i]!) === label(rs[j]!) ? 1 : 0;
        for (const name of new Set(ops.map((o) => o.operator))) {
          const c = perOp.get(name) ?? perOp.set(name, [0, 0]).get(name)!;
          c[0] += hit;
          c[1]++;
        }
        const t = tierOf(ops);
        const c = perTier.get(t) ?? perTier.set(t, [0, 0]).get(t)!;
        c[0] += hit;
        c[1]++;
      }
    for (const [name, [n, d]] of perOp)
      (byOperator.get(name) ?? byOperator.set(name, new Ratio()).get(name)!).add(e, -1, n, d);
    for (const [t, [n, d]] of perTier) (byTier.get(t) ?? byTier.set(t, new Ratio()).get(t)!).add(e, -1, n, d);
  }

  const groups = new Map<string, number[]>();
  for (const ent of dataset.entities)
    if (ent.hardNegative)
      (groups.get(ent.hardNegative.group) ?? groups.set(ent.hardNegative.group, []).get(ent.hardNegative.group)!).push(
        ent.id,
      );
  const byHardNegative = new Map<string, Ratio>();
  for (const members of groups.values()) {
    const kind = dataset.entities[members[0]!]!.hardNegative!.kind;
    const ratio = byHardNegative.get(kind) ?? byHardNegative.set(kind, new Ratio()).get(kind)!;
    for (let a = 0; a < members.length; a++)
      for (let b = a + 1; b < members.length; b++) {
        let hit = 0;
        let total = 0;
        for (const ra of recordsOf[members[a]!]!)
          for (const rb of recordsOf[members[b]!]!) {
            total++;
            if (label(ra) === label(rb)) hit++;
          }
        ratio.add(members[a]!, members[b]!, hit, total);
      }
  }
  const byId = new Map(dataset.records.map((r) => [r.id, r]));
  return { ct, byOperator, byTier, byHardNegative, linked: (a, b) => label(byId.get(a)!) === label(byId.get(b)!) };
}

/** Every bootstrapped metric, by name, for entity weights `w`. */
export function metricsFor(p: Prepared, w?: ArrayLike<number>): Record<string, number> {
  const k = pairCounts(p.ct, w);
  const pw = pairwise(k);
  const c = clusterMetrics(p.ct, w, k);
  const out: Record<string, number> = {
    'pairwise.precision': pw.precision,
    'pairwise.recall': pw.recall,
    'pairwise.f1': pw.f1,
    'pairwise.f05': pw.f05,
    'pairwise.f2': pw.f2,
    'pairwise.fStar': pw.fStar,
    'b3.precision': c.b3Precision,
    'b3.recall': c.b3Recall,
    'b3.f': c.b3F,
    'cluster.precision': c.clusterPrecision,
    'cluster.recall': c.clusterRecall,
    residualDuplicateRate: c.residualDuplicateRate,
    ahimaResidualRate: c.ahimaResidualRate,
    overlayRate: c.overlayRate,
    overlayRecordRate: c.overlayRecordRate,
  };
  for (const [name, r] of p.byOperator) out[`recall.operator.${name}`] = r.value(w);
  for (const [name, r] of p.byTier) out[`recall.tier.${name}`] = r.value(w);
  for (const [name, r] of p.byHardNegative) out[`falseLink.${name}`] = r.value(w);
  return out;
}

export interface Analysis {
  sampleSizes: {
    entities: number;
    records: number;
    truePairs: number;
    predictedPairs: number;
    predictedClusters: number;
    bootstrapResamples: number;
  };
  counts: ReturnType<typeof pairCounts>;
  mergesNeeded: number;
  splitsNeeded: number;
  ari: number;
  metrics: Record<string, Interval>;
  /** Sizes (pairs) behind each breakdown ratio. */
  breakdownSizes: Record<string, number>;
  search: ReturnType<typeof scoreMetrics> & { queries: number; histogram: ReturnType<typeof scoreHistogram> };
  clusterSizes: ReturnType<typeof clusterSizeDistribution>;
  largestClusters: Array<{ size: number; entities: number }>;
}

/** The scored pairs of the search sample: every candidate record of every result, true or not. */
export function scoredPairs(dataset: Dataset, pairs: SearchPair[]): { scored: ScoredPair[]; truePairs: number } {
  const entityOf = new Map(dataset.records.map((r) => [r.id, r.entity]));
  const size = new Map<number, number>();
  for (const r of dataset.records) size.set(r.entity, (size.get(r.entity) ?? 0) + 1);
  const truePairs = dataset.searchSample.reduce((s, q) => s + size.get(entityOf.get(q)!)! - 1, 0);
  return {
    scored: pairs.map((p) => ({ score: p.score, isTrue: entityOf.get(p.query) === entityOf.get(p.candidate) })),
    truePairs,
  };
}

/**
 * The search pairs as bootstrap units: each pair counts under the entity of its query (one query per sampled entity),
 * with the true pairs of every queried entity, sorted by descending score.
 */
export function searchUnits(
  dataset: Dataset,
  pairs: SearchPair[],
): { sorted: UnitPair[]; truePairsOf: Map<number, number> } {
  const entityOf = new Map(dataset.records.map((r) => [r.id, r.entity]));
  const size = new Map<number, number>();
  for (const r of dataset.records) size.set(r.entity, (size.get(r.entity) ?? 0) + 1);
  const truePairsOf = new Map<number, number>();
  for (const q of dataset.searchSample) {
    const e = entityOf.get(q)!;
    truePairsOf.set(e, (truePairsOf.get(e) ?? 0) + size.get(e)! - 1);
  }
  const sorted = pairs
    .map((x) => ({
      score: x.score,
      isTrue: entityOf.get(x.query) === entityOf.get(x.candidate),
      unit: entityOf.get(x.query)!,
    }))
    .sort((a, b) => b.score - a.score);
  return { sorted, truePairsOf };
}

export function analyse(
  dataset: Dataset,
  labels: Map<string, string>,
  search: SearchPair[],
  options: { resamples: number; seed: number },
): Analysis {
  const p = prepare(dataset, labels);
  // Search-score figures share the clustering metrics' resamples (bootstrap over entities: a query's pairs come along
  // with its entity); `search.*` intervals rest on the sampled queries only.
  const units = searchUnits(dataset, search);
  const metrics = bootstrap(
    dataset.entities.length,
    (w): Record<string, number> => ({
      ...metricsFor(p, w),
      ...(dataset.searchSample.length ? scoreSummary(units.sorted, units.truePairsOf, w) : {}),
    }),
    options.resamples,
    options.seed,
  );
  const k = pairCounts(p.ct);
  const c = clusterMetrics(p.ct, undefined, k);
  const breakdownSizes: Record<string, number> = {};
  for (const [n, r] of p.byOperator) breakdownSizes[`recall.operator.${n}`] = r.size;
  for (const [n, r] of p.byTier) breakdownSizes[`recall.tier.${n}`] = r.size;
  for (const [n, r] of p.byHardNegative) breakdownSizes[`falseLink.${n}`] = r.size;
  const { scored, truePairs } = scoredPairs(dataset, search);
  const largest = p.ct.byCluster
    .map((cells) => ({ size: cells.reduce((s, x) => s + x.n, 0), entities: cells.length }))
    .sort((a, b) => b.size - a.size || b.entities - a.entities)
    .slice(0, 10);
  return {
    sampleSizes: {
      entities: dataset.entities.length,
      records: dataset.records.length,
      truePairs: k.TL,
      predictedPairs: k.PL,
      predictedClusters: p.ct.clusterSizes.length,
      bootstrapResamples: options.resamples,
    },
    counts: k,
    mergesNeeded: c.mergesNeeded,
    splitsNeeded: c.splitsNeeded,
    ari: c.ari,
    metrics,
    breakdownSizes,
    search: {
      ...scoreMetrics(scored, truePairs),
      queries: dataset.searchSample.length,
      histogram: scoreHistogram(scored),
    },
    clusterSizes: clusterSizeDistribution(p.ct),
    largestClusters: largest,
  };
}

export { HEADLINE };
