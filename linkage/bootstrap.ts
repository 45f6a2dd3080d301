/**
 * Cluster bootstrap over true entities (linkage/README.md, "Intervals"): resample entities with replacement (their
 * records come along), recompute every metric, and take 95% percentile intervals. The same resampling weights serve
 * both runs of a comparison, so paired differences get intervals too.
 */
import { quantileSorted } from 'simple-statistics';

/**
 * Deterministic 32-bit PRNG (mulberry32): the data set (linkage/data/edits.ts Rng) and the bootstrap resamples. Not
 * pure-rand's: it has no mulberry32, and each of its generators (congruential32, mersenne, xorshift128plus,
 * xoroshiro128plus) gives another stream for the same seed, so switching would change every data set and interval a
 * seed gives, and a `--compare` baseline, whose data set is rebuilt from its seed, would no longer match its own
 * results.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `B` resamples of `entities` entity weights (multinomial counts), deterministic from `seed`. */
export function* resampleWeights(entities: number, B: number, seed: number): Generator<Uint16Array> {
  const rand = mulberry32(seed);
  for (let b = 0; b < B; b++) {
    const w = new Uint16Array(entities);
    for (let i = 0; i < entities; i++) w[Math.floor(rand() * entities)]!++;
    yield w;
  }
}

export interface Interval {
  value: number;
  low: number;
  high: number;
}

/**
 * 2.5% and 97.5% percentiles of `samples` (linear interpolation, R type 7: simple-statistics quantileSorted), around
 * the point estimate.
 */
export function percentileInterval(value: number, samples: number[]): Interval {
  const s = samples.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return { value, low: value, high: value };
  return { value, low: quantileSorted(s, 0.025), high: quantileSorted(s, 0.975) };
}

/**
 * Intervals for a set of named metrics: `compute(w)` returns the metrics for entity weights `w` (undefined = the
 * observed data). Returns one interval per metric name.
 */
export function bootstrap<K extends string>(
  entities: number,
  compute: (w?: Uint16Array) => Record<K, number>,
  B: number,
  seed: number,
): Record<K, Interval> {
  const point = compute();
  const samples = Object.fromEntries(Object.keys(point).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (const w of resampleWeights(entities, B, seed)) {
    const m = compute(w);
    for (const k of Object.keys(point) as K[]) samples[k].push(m[k]);
  }
  return Object.fromEntries(
    (Object.keys(point) as K[]).map((k) => [k, percentileInterval(point[k], samples[k])]),
  ) as Record<K, Interval>;
}

/** Paired intervals: metrics of run A and run B under the same weights, and of B − A. */
export function pairedBootstrap<K extends string>(
  entities: number,
  computeA: (w?: Uint16Array) => Record<K, number>,
  computeB: (w?: Uint16Array) => Record<K, number>,
  B: number,
  seed: number,
): Record<K, { a: Interval; b: Interval; diff: Interval }> {
  const pa = computeA();
  const pb = computeB();
  const keys = Object.keys(pa) as K[];
  const sa = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const sb = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const sd = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (const w of resampleWeights(entities, B, seed)) {
    const a = computeA(w);
    const b = computeB(w);
    for (const k of keys) {
      sa[k].push(a[k]);
      sb[k].push(b[k]);
      sd[k].push(b[k] - a[k]);
    }
  }
  return Object.fromEntries(
    keys.map((k) => [
      k,
      {
        a: percentileInterval(pa[k], sa[k]),
        b: percentileInterval(pb[k], sb[k]),
        diff: percentileInterval(pb[k] - pa[k], sd[k]),
      },
    ]),
  ) as Record<K, { a: Interval; b: Interval; diff: Interval }>;
}
