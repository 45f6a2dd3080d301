/**
 * npm run compare on match-quality run folders (report/match-quality-compare.ts): the changed
 * pairs of two runs on the same records, the paired verdict of the later run's --compare taken
 * only when it was made against this baseline (a regression there exits 1), and runs on other
 * records or other data named as not comparable instead of compared.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareMatchQuality } from '../report/match-quality-compare.js';
import { type PostedRecord, writePostedRecords } from '../report/pair-decisions.js';
import { runCommand } from './support/command.js';

const interval = (value: number) => ({ value, low: value, high: value });

/** A match-quality run folder of the person service: its results, its records as posted and, optionally, its comparison. */
function runFolder(
  root: string,
  runId: string,
  linkIds: string[],
  options: { comparison?: unknown; identityOf?: (i: number) => unknown } = {},
) {
  const folder = join(root, runId, 'match-quality', 'person');
  mkdirSync(folder, { recursive: true });
  const clusters = ['A', 'A', 'B', 'C'];
  const records: PostedRecord[] = clusters.map((cluster, i) => ({
    id: `r${i}`,
    cluster,
    linkId: linkIds[i]!,
    identity: (options.identityOf?.(i) ?? { names: [{ lastName: `N${i}` }] }) as Record<string, unknown>,
  }));
  writePostedRecords(folder, records);
  writeFileSync(
    join(folder, 'results.json'),
    JSON.stringify({ runId, options: { seed: 1 }, analysis: { metrics: { 'pairwise.f1': interval(0.5) } } }),
  );
  if (options.comparison) writeFileSync(join(folder, 'comparison.json'), JSON.stringify(options.comparison));
  return join(root, runId);
}

describe('npm run compare on match-quality run folders', () => {
  const root = mkdtempSync(join(tmpdir(), 'mq-compare-'));
  // Before: {r0, r1} {r2} {r3}; after: {r0} {r1, r2} {r3}: r0-r1 (true pair) newly split, r1-r2 (non-pair) newly merged.
  const before = runFolder(root, 'before', ['x', 'x', 'y', 'z']);
  const regression = {
    baselineRunId: 'before',
    regressions: ['pairwise.f1'],
    rows: [
      {
        metric: 'pairwise.f1',
        a: interval(1),
        b: interval(0.5),
        diff: { value: -0.5, low: -0.6, high: -0.4 },
        regression: true,
      },
    ],
  };

  it('lists the changed pairs and takes the paired verdict the later run made against this baseline', () => {
    const after = runFolder(root, 'after', ['p', 'q', 'q', 'z'], { comparison: regression });
    const [c] = compareMatchQuality(before, after);
    expect(c!.notComparable).toBeUndefined();
    expect(c!.decisions!.flips).toMatchObject({
      truePairsNewlyUnlinked: 1,
      nonPairsNewlyLinked: 1,
      truePairsNewlyLinked: 0,
      nonPairsNewlyUnlinked: 0,
    });
    expect(c!.paired?.regressions).toEqual(['pairwise.f1']);
    // A comparison made against another baseline is not this one's verdict.
    const other = runFolder(root, 'other', ['p', 'q', 'q', 'z'], {
      comparison: { ...regression, baselineRunId: 'elsewhere' },
    });
    expect(compareMatchQuality(before, other)[0]!.paired).toBeUndefined();
  });

  it('names runs on other data as not comparable', () => {
    const changed = runFolder(root, 'changed', ['x', 'x', 'y', 'z'], {
      identityOf: (i) => ({ names: [{ lastName: `M${i}` }] }),
    });
    expect(compareMatchQuality(before, changed)[0]!.notComparable).toBe(
      'the runs posted the same record IDs with different data',
    );
  });

  it('the command prints the decisions, writes the CSV and exits 1 on the paired regression', async () => {
    const after = runFolder(root, 'after2', ['p', 'q', 'q', 'z'], { comparison: regression });
    const csv = join(root, 'csv');
    const r = await runCommand('run/cli/compare.ts', [before, after, '--csv', csv]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('#### Newly merged non-pairs (false links the change made): 1');
    expect(r.stdout).toContain('#### Newly split true pairs (links the change lost): 1');
    expect(r.stdout).toContain(
      'compare: regressed; match quality: person REGRESSION, 1 pairs newly merged, 1 newly split',
    );
    expect(readFileSync(join(csv, 'person-changed-pairs.csv'), 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('a significant improvement is named as such, not only "no regression"', async () => {
    const row = regression.rows[0]!;
    const improved = {
      ...regression,
      regressions: [],
      rows: [
        { ...row, a: row.b, b: row.a, diff: { value: 0.5, low: 0.4, high: 0.6 }, regression: false, improvement: true },
      ],
    };
    const after = runFolder(root, 'after3', ['x', 'x', 'y', 'z'], { comparison: improved });
    const r = await runCommand('run/cli/compare.ts', [before, after]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('**no regression; better in pairwise.f1**');
    expect(r.stdout).toContain('match quality: person no regression (better in pairwise.f1), 0 pairs newly merged');
  });
});
