/**
 * The rank test behind compare's latency shifts (report/rank-test.ts) against values worked by
 * hand from the textbook formulas (the same as scipy.stats.mannwhitneyu, asymptotic, with the
 * continuity correction), Holm's correction, and compare's use of them (report/compare.ts
 * latencyShifts): many operations of one unchanged deployment (the same distribution twice) show
 * no shift, seed after seed, while a real slowdown of one operation is found and named.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { LATENCY_MIN_REQUESTS, latencyShifts } from '../report/compare.js';
import { deltaSize, holm, mannWhitney } from '../report/rank-test.js';
import type { LatencyStat } from '../report/stats.js';

describe('Mann-Whitney U', () => {
  it('gives U, z, p and Cliff delta as worked by hand, without ties and with them', () => {
    const a = mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
    expect(a.u).toBe(25);
    expect(a.z).toBeCloseTo(2.5067, 4);
    expect(a.p).toBeCloseTo(0.012186, 5);
    expect(a.delta).toBe(1);
    const t = mannWhitney([1, 2, 2, 3, 5, 8], [2, 3, 3, 4, 9, 9, 10]);
    expect(t.u).toBe(31);
    expect(t.z).toBeCloseTo(1.3742, 4);
    expect(t.p).toBeCloseTo(0.16937, 4);
    expect(t.delta).toBeCloseTo(0.47619, 5);
  });

  it('is symmetric, and finds nothing between a sample and itself', () => {
    const x = [5, 1, 9, 3, 3, 7];
    const y = [2, 8, 8, 4, 6];
    expect(mannWhitney(y, x).delta).toBeCloseTo(-mannWhitney(x, y).delta, 10);
    expect(mannWhitney(y, x).p).toBeCloseTo(mannWhitney(x, y).p, 10);
    expect(mannWhitney(x, x)).toMatchObject({ p: 1, delta: 0 });
    expect(() => mannWhitney([], [1])).toThrow(/both samples/);
  });

  it('names effect sizes by the conventional bounds', () => {
    expect([0.1, -0.2, 0.4, -0.6].map(deltaSize)).toEqual(['negligible', 'small', 'medium', 'large']);
  });
});

describe('Holm', () => {
  it('tests the smallest p against alpha / m, the next against alpha / (m - 1), and stops at the first that fails', () => {
    expect(holm([0.001, 0.04, 0.03, 0.02], 0.05)).toEqual([true, false, false, false]);
    expect(holm([0.01, 0.012, 0.02], 0.05)).toEqual([true, true, true]);
    expect(holm([], 0.05)).toEqual([]);
  });
});

/** A run's latency figures: per operation, `n` request times drawn from a log-normal-ish distribution scaled by `scale[op]`. */
function runOf(
  seed: number,
  ops: number,
  n: number,
  scale: Record<number, number> = {},
): { latency: LatencyStat[]; matchScores: [] } {
  const rng = xoroshiro128plus(seed);
  // In (0, 1]: the logarithm below needs no zero.
  const uniform = () => 1 - uniformFloat64(rng);
  const latency = Array.from({ length: ops }, (_, i) => {
    const durations = Array.from({ length: n }, () =>
      Math.round((scale[i] ?? 1) * (20 + 15 * -Math.log(uniform()))),
    ).sort((a, b) => a - b);
    return {
      service: 'organization',
      operation: `op${String(i).padStart(2, '0')}`,
      n,
      p50: 0,
      p95: 0,
      max: 0,
      durations,
    };
  });
  return { latency, matchScores: [] };
}

describe("compare's latency shifts", () => {
  it('are called between two runs of one unchanged deployment only as often as the family-wise error rate allows (49 operations, 100 pairs of runs)', () => {
    const pairs = new Set<number>();
    for (let s = 1; s <= 100; s++)
      for (const l of latencyShifts(runOf(s, 49, 40), runOf(1000 + s, 49, 40))) if (l.shift !== 'steady') pairs.add(s);
    // LATENCY_ALPHA 0.01 over each pair's 49 tests: about 1 pair in 100 calls anything.
    expect(pairs.size).toBeLessThanOrEqual(3);
  });

  it('are not called for one slow request among few (a p95 from 567 to 109 ms, the rest alike)', () => {
    const stat = (durations: number[]): LatencyStat => ({
      service: 'person',
      operation: 'searchNotifications',
      n: durations.length,
      p50: 0,
      p95: 0,
      max: 0,
      durations,
    });
    const before = stat([88, 90, 95, 97, 99, 101, 104, 106, 109, 567]);
    const after = stat([87, 91, 94, 96, 100, 102, 103, 105, 107, 109]);
    const [row] = latencyShifts({ latency: [before], matchScores: [] }, { latency: [after], matchScores: [] });
    expect(row!.shift).toBe('steady');
  });

  it('find one operation twice as slow, and only it', () => {
    const shifted = latencyShifts(runOf(7, 49, 40), runOf(8, 49, 40, { 12: 2 })).filter((l) => l.shift !== 'steady');
    expect(shifted.map((l) => [l.operation, l.shift])).toEqual([['op12', 'slower']]);
    expect(shifted[0]!.test!.delta).toBeGreaterThan(0.33);
  });

  it('leave untested an operation with too few requests, or without per-request times, and say new or gone', () => {
    const a = runOf(1, 3, 40);
    const b = runOf(2, 3, 40);
    a.latency[0]!.durations = a.latency[0]!.durations!.slice(0, LATENCY_MIN_REQUESTS - 1);
    delete b.latency[1]!.durations;
    b.latency[2]!.operation = 'other';
    expect(latencyShifts(a, b).map((l) => [l.operation, l.shift])).toEqual([
      ['op00', 'untested'],
      ['op01', 'untested'],
      ['op02', 'gone'],
      ['other', 'new'],
    ]);
  });
});
