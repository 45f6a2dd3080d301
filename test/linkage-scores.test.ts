/**
 * Search-score figures of the match-quality benchmark: the one-pass weighted summary used for the
 * bootstrap intervals equals the full precision-recall sweep without weights, and weights act as
 * repeated queries (an entity drawn twice counts its pairs and true pairs twice).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type UnitPair, scoreMetrics, scoreSummary } from '../linkage/scores.js';

const nan = (x: number | null | undefined) => (x === null || x === undefined ? Number.NaN : x);
/** Equal up to rounding, NaN (a figure that does not exist) equal only to NaN. */
const same = (a: number, b: number) => {
  expect(Number.isNaN(a), `${a} vs ${b}`).toBe(Number.isNaN(b));
  if (!Number.isNaN(b)) expect(a).toBeCloseTo(b, 12);
};

const pairsArb = fc.array(
  fc.record({
    score: fc.integer({ min: 0, max: 20 }).map((s) => s / 20),
    isTrue: fc.boolean(),
    unit: fc.integer({ min: 0, max: 5 }),
  }),
  { minLength: 1, maxLength: 40 },
);

it('without weights, scoreSummary equals scoreMetrics', () => {
  fc.assert(
    fc.property(pairsArb, fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 6, maxLength: 6 }), (pairs, extra) => {
      const truePairsOf = new Map<number, number>();
      for (let u = 0; u < 6; u++) truePairsOf.set(u, pairs.filter((p) => p.unit === u && p.isTrue).length + extra[u]!);
      const TL = [...truePairsOf.values()].reduce((a, b) => a + b, 0);
      const sorted = [...pairs].sort((a, b) => b.score - a.score);
      const full = scoreMetrics(pairs, TL);
      const s = scoreSummary(sorted, truePairsOf);
      same(s['search.averagePrecision'], full.averagePrecision);
      same(s['search.bestF1'], nan(full.bestF1?.f1));
      same(s['search.bestF1Threshold'], nan(full.bestF1?.threshold));
      same(s['search.recallAtPrecision099'], nan(full.recallAtPrecision099));
      same(s['search.recallAtPrecision0999'], nan(full.recallAtPrecision0999));
      same(s['search.candidateRecall'], full.candidateRecall);
    }),
  );
});

it('a weight of 2 on an entity equals listing its pairs and true pairs twice', () => {
  const pairs: UnitPair[] = [
    { score: 0.95, isTrue: true, unit: 0 },
    { score: 0.9, isTrue: false, unit: 1 },
    { score: 0.8, isTrue: true, unit: 1 },
    { score: 0.6, isTrue: false, unit: 0 },
  ];
  const weighted = scoreSummary(
    pairs,
    new Map([
      [0, 2],
      [1, 1],
    ]),
    [2, 1],
  );
  const doubled = scoreMetrics([pairs[0]!, pairs[0]!, pairs[1]!, pairs[2]!, pairs[3]!, pairs[3]!], 5);
  expect(weighted['search.averagePrecision']).toBeCloseTo(doubled.averagePrecision, 12);
  expect(weighted['search.bestF1']).toBeCloseTo(doubled.bestF1!.f1, 12);
  expect(weighted['search.candidateRecall']).toBeCloseTo(doubled.candidateRecall, 12);
  // Entity 0 left out of a resample: only entity 1's pairs and true pair remain.
  const without = scoreSummary(
    pairs,
    new Map([
      [0, 2],
      [1, 1],
    ]),
    [0, 1],
  );
  expect(without['search.candidateRecall']).toBe(1);
  expect(without['search.bestF1Threshold']).toBe(0.8);
});
