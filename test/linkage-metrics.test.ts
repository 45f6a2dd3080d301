/**
 * Metrics of the match-quality benchmark against the study's test vectors
 * (linkage/README.md, "Test vectors") and fast-check invariants.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  b3ClusterWeighted,
  clusterMetrics,
  clusteringMetrics,
  contingency,
  pairCounts,
  pairwise,
} from '../linkage/metrics.js';

/** Labels per record from a list of clusters over record names. */
function labels(records: string[], truth: string[][], predicted: string[][]) {
  const entityOf = new Map<string, number>();
  truth.forEach((c, j) => c.forEach((r) => entityOf.set(r, j)));
  const clusterOf = new Map<string, string>();
  predicted.forEach((c, i) => c.forEach((r) => clusterOf.set(r, `P${i}`)));
  return contingency(
    records.map((r) => entityOf.get(r)!),
    records.map((r) => clusterOf.get(r)!),
  );
}

const eight = ['1', '2', '3', '4', '5', '6', '7', '8'];
const T = [['1', '2', '3'], ['4', '5'], ['6', '7'], ['8']];

describe('hand-computed test vectors (linkage/README.md, "Test vectors")', () => {
  it('P1 {1,2},{3,5},{4},{6,7,8}: pairwise 0.4/0.4/0.4, TP 2 FP 3 FN 3, B3 0.7083, cluster-weighted B3 0.6458/0.7639, S 2, M 2', () => {
    const ct = labels(eight, T, [['1', '2'], ['3', '5'], ['4'], ['6', '7', '8']]);
    const k = pairCounts(ct);
    expect([k.TP, k.FP, k.FN]).toEqual([2, 3, 3]);
    const p = pairwise(k);
    expect(p.precision).toBeCloseTo(0.4, 10);
    expect(p.recall).toBeCloseTo(0.4, 10);
    expect(p.f1).toBeCloseTo(0.4, 10);
    const c = clusterMetrics(ct);
    expect(c.b3Precision).toBeCloseTo(0.7083, 4);
    expect(c.b3Recall).toBeCloseTo(0.7083, 4);
    const cw = b3ClusterWeighted(ct);
    expect(cw.precision).toBeCloseTo(0.6458, 4);
    expect(cw.recall).toBeCloseTo(0.7639, 4);
    expect(c.splitsNeeded).toBe(2);
    expect(c.mergesNeeded).toBe(2);
  });

  it('P2 {1,2},{3,5},{4},{6,7},{8}: cluster precision 0.4, recall 0.5, F 0.444', () => {
    const c = clusterMetrics(labels(eight, T, [['1', '2'], ['3', '5'], ['4'], ['6', '7'], ['8']]));
    expect(c.clusterPrecision).toBeCloseTo(0.4, 10);
    expect(c.clusterRecall).toBeCloseTo(0.5, 10);
    expect(c.clusterF).toBeCloseTo(0.4444, 4);
  });

  const letters = 'abcdefghij'.split('');
  const gold = [
    ['a', 'b'],
    ['c', 'd'],
    ['e', 'f', 'g', 'h', 'i', 'j'],
  ];
  const cases: Array<[string, string[][], number, number, number, number]> = [
    ['{a},{b},{c},{d},{e..j}', [['a'], ['b'], ['c'], ['d'], ['e', 'f', 'g', 'h', 'i', 'j']], 2, 0, 1.0, 0.882],
    [
      '{a,b,c,d},{e..j}',
      [
        ['a', 'b', 'c', 'd'],
        ['e', 'f', 'g', 'h', 'i', 'j'],
      ],
      0,
      1,
      0.81,
      1.0,
    ],
    [
      '{a,b,c,d},{e,f,g},{h,i,j}',
      [
        ['a', 'b', 'c', 'd'],
        ['e', 'f', 'g'],
        ['h', 'i', 'j'],
      ],
      1,
      1,
      0.667,
      0.471,
    ],
  ];
  it.each(cases)(
    'gold {a,b},{c,d},{e..j} vs %s: merges %i, splits %i, P %f, R %f',
    (_name, predicted, merges, splits, p, r) => {
      const ct = labels(letters, gold, predicted);
      const m = clusteringMetrics(ct);
      expect(m.cluster.mergesNeeded).toBe(merges);
      expect(m.cluster.splitsNeeded).toBe(splits);
      expect(m.pairwise.precision).toBeCloseTo(p, 2);
      expect(m.pairwise.recall).toBeCloseTo(r, 2);
    },
  );

  it('F-beta and F* follow their definitions on P1 (F0.5 = F2 = 0.4 when P = R; F* = 2/8)', () => {
    const p = pairwise(pairCounts(labels(eight, T, [['1', '2'], ['3', '5'], ['4'], ['6', '7', '8']])));
    expect(p.f05).toBeCloseTo(0.4, 10);
    expect(p.f2).toBeCloseTo(0.4, 10);
    expect(p.fStar).toBeCloseTo(2 / 8, 10);
  });

  it('precision 1 when nothing is linked, recall 1 when nothing should be', () => {
    const none = pairwise(pairCounts(labels(['x', 'y'], [['x', 'y']], [['x'], ['y']])));
    expect(none.precision).toBe(1);
    expect(none.recall).toBe(0);
    const noTrue = pairwise(pairCounts(labels(['x', 'y'], [['x'], ['y']], [['x', 'y']])));
    expect(noTrue.recall).toBe(1);
    expect(noTrue.precision).toBe(0);
  });
});

/** Random truth and prediction over n records: entity and cluster labels drawn from small ranges. */
const clusterings = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc.tuple(
      fc.array(fc.integer({ min: 0, max: 12 }), { minLength: n, maxLength: n }),
      fc.array(fc.integer({ min: 0, max: 12 }), { minLength: n, maxLength: n }),
    ),
  )
  .map(([t, p]) => {
    // Renumber entities densely so every entity number 0..E−1 has records.
    const dense = new Map<number, number>();
    return { entity: t.map((x) => dense.get(x) ?? dense.set(x, dense.size).get(x)!), predicted: p.map(String) };
  });

describe('invariants (fast-check)', () => {
  it('TP + FP + FN + TN = C(N, 2), all counts non-negative', () => {
    fc.assert(
      fc.property(clusterings, ({ entity, predicted }) => {
        const k = pairCounts(contingency(entity, predicted));
        const N = entity.length;
        expect(k.TP + k.FP + k.FN + k.TN).toBe((N * (N - 1)) / 2);
        for (const v of [k.TP, k.FP, k.FN, k.TN]) expect(v).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('perfect prediction: every metric 1, zero merges and splits', () => {
    fc.assert(
      fc.property(clusterings, ({ entity }) => {
        const m = clusteringMetrics(
          contingency(
            entity,
            entity.map((e) => `L${e}`),
          ),
        );
        const { precision, recall, f1, f2, f05, fStar } = m.pairwise;
        for (const v of [precision, recall, f1, f2, f05, fStar]) expect(v).toBe(1);
        const c = m.cluster;
        for (const v of [c.b3Precision, c.b3Recall, c.b3F, c.clusterPrecision, c.clusterRecall, c.clusterF, c.ari])
          expect(v).toBeCloseTo(1, 12);
        expect(c.mergesNeeded).toBe(0);
        expect(c.splitsNeeded).toBe(0);
        expect(c.residualDuplicateRate).toBe(0);
        expect(c.overlayRate).toBe(0);
      }),
    );
  });

  it('F* ≤ F1, and every rate lies in [0, 1]', () => {
    fc.assert(
      fc.property(clusterings, ({ entity, predicted }) => {
        const m = clusteringMetrics(contingency(entity, predicted));
        expect(m.pairwise.fStar).toBeLessThanOrEqual(m.pairwise.f1 + 1e-12);
        for (const v of [
          m.pairwise.precision,
          m.pairwise.recall,
          m.cluster.b3Precision,
          m.cluster.b3Recall,
          m.cluster.overlayRecordRate,
          m.cluster.residualDuplicateRate,
        ]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
    );
  });

  it('unit weights give the same figures as no weights; weight 0 removes an entity', () => {
    fc.assert(
      fc.property(clusterings, ({ entity, predicted }) => {
        const ct = contingency(entity, predicted);
        const ones = ct.entitySizes.map(() => 1);
        expect(clusteringMetrics(ct, ones)).toEqual(clusteringMetrics(ct));
        // Dropping entity 0 by weight equals recomputing without its records.
        const w = ct.entitySizes.map((_, t) => (t === 0 ? 0 : 1));
        const keep = entity.map((e) => e !== 0);
        const without = contingency(
          entity.filter((_, i) => keep[i]).map((e) => e - 1),
          predicted.filter((_, i) => keep[i]),
        );
        const a = pairCounts(ct, w);
        const b = pairCounts(without);
        expect([a.TP, a.FP, a.FN, a.TN]).toEqual([b.TP, b.FP, b.FN, b.TN]);
      }),
    );
  });
});
