/**
 * report/pair-decisions.ts: the pairs listed as newly merged and newly split are exactly those an
 * enumeration of every record pair finds (true pairs and non-pairs apart, a record not read back
 * linked to nothing), the counts stay exact when the listing stops at its limit, and the CSV has
 * one row per listed pair with both records.
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedPairs, decisionsCsv, decisionsMarkdown } from '../report/pair-decisions.js';

type Kind = 'mergedTrue' | 'mergedNon' | 'splitTrue' | 'splitNon';

function enumerated(truth: number[], a: Array<string | null>, b: Array<string | null>): Record<Kind, string[]> {
  const out: Record<Kind, string[]> = { mergedTrue: [], mergedNon: [], splitTrue: [], splitNon: [] };
  for (let i = 0; i < truth.length; i++)
    for (let j = i + 1; j < truth.length; j++) {
      const before = Boolean(a[i]) && a[i] === a[j];
      const after = Boolean(b[i]) && b[i] === b[j];
      const same = truth[i] === truth[j];
      if (after && !before) out[same ? 'mergedTrue' : 'mergedNon'].push(`${i}-${j}`);
      if (before && !after) out[same ? 'splitTrue' : 'splitNon'].push(`${i}-${j}`);
    }
  return out;
}

const keys = (pairs: Array<{ a: number; b: number }>) => pairs.map((p) => `${p.a}-${p.b}`).sort();
const labels = (n: number) =>
  fc.array(fc.option(fc.constantFrom('L1', 'L2', 'L3', 'L4', ''), { nil: null }), { minLength: n, maxLength: n });
const cases = fc
  .integer({ min: 0, max: 25 })
  .chain((n) =>
    fc.tuple(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: n, maxLength: n }), labels(n), labels(n)),
  );

describe('changed pairs', () => {
  it('are exactly the record pairs an enumeration finds, kind by kind', () => {
    fc.assert(
      fc.property(cases, ([truth, a, b]) => {
        const d = changedPairs(truth, a, b);
        const e = enumerated(truth, a, b);
        expect(keys(d.merged.truePairs)).toEqual(e.mergedTrue.sort());
        expect(keys(d.merged.nonPairs)).toEqual(e.mergedNon.sort());
        expect(keys(d.split.truePairs)).toEqual(e.splitTrue.sort());
        expect(keys(d.split.nonPairs)).toEqual(e.splitNon.sort());
        expect(d.flips).toMatchObject({
          truePairsNewlyLinked: e.mergedTrue.length,
          nonPairsNewlyLinked: e.mergedNon.length,
          truePairsNewlyUnlinked: e.splitTrue.length,
          nonPairsNewlyUnlinked: e.splitNon.length,
        });
      }),
    );
  });

  it('list at most `limit` of each kind while the counts stay exact', () => {
    fc.assert(
      fc.property(cases, fc.integer({ min: 0, max: 3 }), ([truth, a, b], limit) => {
        const d = changedPairs(truth, a, b, limit);
        const e = enumerated(truth, a, b);
        expect(d.merged.truePairs.length).toBe(Math.min(limit, e.mergedTrue.length));
        expect(d.split.nonPairs.length).toBe(Math.min(limit, e.splitNon.length));
        for (const p of d.merged.truePairs) expect(e.mergedTrue).toContain(`${p.a}-${p.b}`);
        expect(d.flips.truePairsNewlyLinked).toBe(e.mergedTrue.length);
      }),
    );
  });

  it('as CSV: one row per listed pair, the harmful kinds first, with both records; as Markdown: the counts and the pairs', () => {
    // Records 0-1 entity A, 2 entity B. Before: {0,1} {2}; after: {0} {1,2}: 0-1 split (true pair), 1-2 merged (non-pair).
    const truth = ['A', 'A', 'B'];
    const d = changedPairs(truth, ['x', 'x', 'y'], ['p', 'q', 'q']);
    const records = {
      ids: ['r0', 'r1', 'r2'],
      truth,
      before: ['x', 'x', 'y'],
      after: ['p', 'q', 'q'],
      identity: (i: number) => ({ names: [{ lastName: `N${i}` }] }),
    };
    const rows = parse(decisionsCsv(d, records), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.change, r.ground_truth, r.record_a, r.record_b])).toEqual([
      ['newly merged', 'non-pair', 'r1', 'r2'],
      ['newly split', 'true pair', 'r0', 'r1'],
    ]);
    expect(JSON.parse(rows[0]!.identity_b!)).toEqual({ names: [{ lastName: 'N2' }] });
    const md = decisionsMarkdown(d, records);
    expect(md).toContain('#### Newly merged non-pairs (false links the change made): 1');
    expect(md).toContain('#### Newly split true pairs (links the change lost): 1');
    expect(md).not.toContain('Newly merged true pairs');
  });
});
