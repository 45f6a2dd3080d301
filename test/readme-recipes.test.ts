/**
 * The README's recipes run as written, against the embedded reference, each command of the block
 * in turn (report and output folders moved to a scratch folder; the conformance run with fewer
 * walk steps and generated bad requests, which changes no check):
 * - "Accept a vendor release": the certified run (a default run: its console summary has the shape
 *   of the README's example block pass-summary) and its bundle verifies (PASS, CERTIFIED); the truth-set
 *   runs before and after compare, and npm run compare lists the (here: no) changed decisions;
 * - "Check a configuration change": the match threshold 0.90 -> 0.80 newly merges pairs, and the
 *   pairs listed by the run's comparison and by npm run compare are exactly those an enumeration of
 *   every record pair of the two runs' clusterings finds here.
 * The first (a whole certified run and two truth-set runs) is in `npm run test:full` only; `npm test`
 * checks the bundle and its verifier on a smaller run (test/evidence-bundle.test.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseShell } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { type CommandRun, runCommand } from './support/command.js';
import { consoleSummaryOf, readmeExample, summaryShape } from './support/readme.js';
import { FULL_TIER } from './support/tier.js';

const SCRIPTS = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** Runs every command of a README block; paths under reports/, evidence/ and changed-pairs go to a scratch folder. */
async function runRecipe(block: string, extraEnv: (script: string) => Record<string, string> = () => ({})) {
  const scratch = mkdtempSync(join(tmpdir(), 'cf-recipe-'));
  const reportDir = join(scratch, 'reports');
  const moved = (arg: string) => (/^(reports|evidence|changed-pairs)(\/|$)/.test(arg) ? join(scratch, arg) : arg);
  const runs: Array<{ line: string; script: string; run: CommandRun }> = [];
  for (const line of block.split('\n').filter((l) => l.trim() && !l.startsWith('#'))) {
    const words = parseShell(line).map(String);
    const env: Record<string, string> = {};
    while (/^[A-Z_]+=/.test(words[0]!)) {
      const [name, ...value] = words.shift()!.split('=');
      env[name!] = value.join('=');
    }
    expect(words.slice(0, 2), line).toEqual(['npm', 'run']);
    const script = words[2]!;
    const args = words.slice(words[3] === '--' ? 4 : 3).map(moved);
    const file = SCRIPTS[script]!.split(' ').at(-1)!;
    const run = await runCommand(
      file,
      args,
      { CONFORMANCE_REPORT_DIR: reportDir, ...env, ...extraEnv(script) },
      400000,
    );
    runs.push({ line, script, run });
  }
  return { scratch, reportDir, runs };
}

const c2 = (n: number) => (n * (n - 1)) / 2;

describe('README recipes', () => {
  it.runIf(FULL_TIER)(
    '"Accept a vendor release": certified, the bundle verifies, the truth-set runs compare',
    async () => {
      // A few planned walks of few steps; fewer generated bad requests (one check either way).
      const fewerSteps: Record<string, string> = {
        CONFORMANCE_WALKS: '12',
        CONFORMANCE_WALK_STEPS: '2',
        CONFORMANCE_BAD_INPUTS: '6',
      };
      const { scratch, runs } = await runRecipe(readmeExample('recipe-accept-release'), (script) =>
        script === 'conformance' ? fewerSteps : {},
      );
      const [conformance, verify, before, after, compare] = runs.map((r) => r.run);
      expect(conformance!.code, conformance!.stderr.slice(-2000)).toBe(0);
      expect(conformance!.stdout).toMatch(
        /certification \(organization, person, provider\): PASSED: (\d+) checks run of the catalogue's \1/,
      );
      // A default run: its summary has the lines, check counts and requirement figures of the README's (test/readme-examples.test.ts).
      expect(summaryShape(consoleSummaryOf(conformance!.stdout))).toEqual(summaryShape(readmeExample('pass-summary')));
      expect(verify!.code, verify!.stdout).toBe(0);
      expect(verify!.stdout).toContain('  product: Acme MPI 4.2');
      expect(verify!.stdout).toMatch(/verdict: PASS, CERTIFIED\n/);
      expect(before!.code, before!.stderr).toBe(0);
      expect(after!.code, after!.stderr).toBe(0);
      expect(after!.stdout).toContain('comparison with acme-4-1: no regression');
      expect(compare!.code, compare!.stderr).toBe(0);
      // Both runs against the same deployment: the same decisions, nothing changed.
      expect(compare!.stdout).toContain('### Matching decisions that changed');
      expect(compare!.stdout).toMatch(/match quality: person no regression, 0 pairs newly merged, 0 newly split/);
      const csv = readFileSync(join(scratch, 'changed-pairs', 'person-changed-pairs.csv'), 'utf8');
      expect(csv.trim().split('\n')).toHaveLength(1);
    },
    600000,
  );

  it('"Check a configuration change": match threshold 0.90 -> 0.80, the changed pairs exactly as an enumeration finds them', async () => {
    const { scratch, reportDir, runs } = await runRecipe(readmeExample('recipe-config-change'));
    for (const r of runs) expect(r.run.code, `${r.line}\n${r.run.stderr.slice(-2000)}`).toBe(0);
    const folder = (run: string) => join(reportDir, run, 'match-quality', 'person');
    const clustering = (run: string) => {
      const results = JSON.parse(readFileSync(join(folder(run), 'results.json'), 'utf8')) as {
        records: string[];
        linkIds: string[];
      };
      const truth = new Map(
        gunzipSync(readFileSync(join(folder(run), 'records.jsonl.gz')))
          .toString()
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { id: string; cluster: string })
          .map((r) => [r.id, r.cluster]),
      );
      return { ids: results.records, linkIds: results.linkIds, truth };
    };
    const a = clustering('before');
    const b = clustering('after');
    expect(b.ids).toEqual(a.ids);
    const expected = { mergedTrue: 0, mergedNon: 0, splitTrue: 0, splitNon: 0 };
    for (let i = 0; i < a.ids.length; i++)
      for (let j = i + 1; j < a.ids.length; j++) {
        const before = a.linkIds[i] === a.linkIds[j];
        const after = b.linkIds[i] === b.linkIds[j];
        const same = a.truth.get(a.ids[i]!) === a.truth.get(a.ids[j]!);
        if (after && !before) same ? expected.mergedTrue++ : expected.mergedNon++;
        if (before && !after) same ? expected.splitTrue++ : expected.splitNon++;
      }
    // A lower threshold links more: it merges pairs (true ones, at least), and the comparison has something to list.
    expect(expected.mergedTrue).toBeGreaterThan(0);
    const comparison = JSON.parse(readFileSync(join(folder('after'), 'comparison.json'), 'utf8'));
    expect(comparison.decisions.flips).toMatchObject({
      truePairsNewlyLinked: expected.mergedTrue,
      nonPairsNewlyLinked: expected.mergedNon,
      truePairsNewlyUnlinked: expected.splitTrue,
      nonPairsNewlyUnlinked: expected.splitNon,
    });
    // The paired intervals stay: every metric with its paired difference.
    const recall = comparison.rows.find((r: { metric: string }) => r.metric === 'pairwise.recall');
    expect(recall.diff.low).toBeLessThanOrEqual(recall.diff.value);
    expect(recall.diff.high).toBeGreaterThanOrEqual(recall.diff.value);
    for (const csvFile of [
      join(folder('after'), 'changed-pairs.csv'),
      join(scratch, 'changed-pairs', 'person-changed-pairs.csv'),
    ]) {
      const rows = parseCsv(readFileSync(csvFile, 'utf8'), { columns: true }) as Array<Record<string, string>>;
      const count = (change: string, truth: string) =>
        rows.filter((x) => x.change === change && x.ground_truth === truth).length;
      expect([
        count('newly merged', 'true pair'),
        count('newly merged', 'non-pair'),
        count('newly split', 'true pair'),
        count('newly split', 'non-pair'),
      ]).toEqual([expected.mergedTrue, expected.mergedNon, expected.splitTrue, expected.splitNon]);
      for (const x of rows)
        expect(x.ground_truth === 'true pair').toBe(a.truth.get(x.record_a!) === a.truth.get(x.record_b!));
    }
    const compare = runs.at(-1)!.run;
    expect(compare.stdout).toContain(`| newly merged | ${expected.mergedTrue} | ${expected.mergedNon} |`);
    // True pairs of the data set (the paired figures rest on them): Σ C(n, 2) over the clusters.
    const sizes = new Map<string, number>();
    for (const c of a.truth.values()) sizes.set(c, (sizes.get(c) ?? 0) + 1);
    const truePairs = [...sizes.values()].reduce((s, n) => s + c2(n), 0);
    expect(runs[0]!.run.stdout).toContain(`person: ${a.ids.length} records, ${truePairs} true pairs`);
  }, 300000);
});
