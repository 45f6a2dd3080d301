/**
 * End to end: a small match-quality run against the embedded reference (posts, search sample,
 * read-back, clean-up, report files), and the comparison self-test: raising the reference's match
 * threshold between two runs on the same data is reported as a recall regression with
 * non-overlapping intervals, and the CLI exits 1 for it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext, newRunId } from '../harness/run.js';
import { type BenchmarkResult, runBenchmark } from '../linkage/benchmark.js';
import { compare } from '../linkage/compare.js';
import { comparisonMarkdown, writeReport } from '../linkage/report.js';
import { matchVerdictText } from '../report/match-verdict.js';
import { toResultsFile } from '../linkage/results.js';
import { referenceTarget } from '../run/deployments.js';
import { type RunningReference, startReference } from '../reference/server.js';
import { REFERENCE_SERVICES } from '../reference/services.js';
import type { ServiceName } from '../specs/common/model.js';
import { chromiumAvailable, openInChromium } from './support/browser.js';
import { scriptArgs } from './support/command.js';

let secondFolder: string;

const dir = mkdtempSync(join(tmpdir(), 'mq-'));
const profile = resolveProfile(loadProfile(), true);
const service: ServiceName = REFERENCE_SERVICES.person ? 'person' : 'organization';
const started: RunningReference[] = [];
afterAll(async () => Promise.all(started.map((r) => r.stop())));

async function benchmark(
  matchThreshold?: number,
  groupedBySource?: 'always' | 'on-request',
): Promise<{ result: BenchmarkResult; reference: RunningReference }> {
  const reference = await startReference({ matchThreshold, groupedBySource });
  started.push(reference);
  const run = new RunContext(newRunId(), dir);
  const folder = join(run.folder, 'match-quality', service);
  const result = await runBenchmark({
    service,
    preset: 'realistic',
    size: 300,
    seed: 99,
    searchSample: 60,
    maxSearchResults: 10,
    resamples: 300,
    target: referenceTarget(reference, service, profile),
    profile,
    run,
    maxInFlight: 8,
    timeoutMs: 30000,
    folder,
  });
  return { result, reference };
}

describe(`match-quality benchmark against the embedded reference (${service})`, () => {
  let baseline: BenchmarkResult;

  it('posts every record, reads every link ID back, searches the sample, cleans up and writes the report', async () => {
    const { result, reference } = await benchmark();
    baseline = result;
    const n = result.dataset.records.length;
    expect(result.observation.failures).toMatchObject({ post: 0, read: 0, search: 0 });
    expect(result.observation.labels.size).toBe(n);
    expect(result.cleanup).toMatchObject({ deleted: n, failures: 0 });
    expect(reference.stores.get(service)!.records.size).toBe(0);
    // Posts, searches, deletes, and fewer reads than records: no read before the search (every
    // result named its sources), none for a record named among the sources of an identity already read.
    expect(reference.requestsReceived()[service]).toBeLessThan(n + 60 + n + n);
    expect(result.observation.search.length).toBeGreaterThan(0);
    const a = result.analysis;
    expect(a.sampleSizes.records).toBe(n);
    expect(a.search.queries).toBe(60);
    for (const m of Object.values(a.metrics))
      if (Number.isFinite(m.value)) {
        expect(m.low).toBeLessThanOrEqual(m.value + 1e-9);
        expect(m.high).toBeGreaterThanOrEqual(m.value - 1e-9);
      }
    expect(a.metrics['pairwise.recall']!.value).toBeGreaterThan(0.5);
    // Corruption log: one line per record, in the report folder (never sent).
    const folder = join(dir, result.runId, 'match-quality', service);
    expect(readFileSync(join(folder, 'corruption-log.jsonl'), 'utf8').trim().split('\n')).toHaveLength(n);
    await writeReport(folder, toResultsFile(result));
    for (const f of ['results.json', 'report.md', 'report.html']) expect(existsSync(join(folder, f))).toBe(true);
    const html = readFileSync(join(folder, 'report.html'), 'utf8');
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(6);
  });

  it('a raised match threshold is reported as a recall regression with non-overlapping intervals', async () => {
    const { result } = await benchmark(0.999);
    const cmp = compare(result.dataset, toResultsFile(baseline), toResultsFile(result), 300);
    const recall = cmp.rows.find((r) => r.metric === 'pairwise.recall')!;
    expect(cmp.regressions).toContain('pairwise.recall');
    expect(recall.b.high).toBeLessThan(recall.a.low);
    expect(cmp.flips.truePairsNewlyUnlinked).toBeGreaterThan(0);
    // The same data against the same matcher is no regression, and no improvement either.
    const same = compare(baseline.dataset, toResultsFile(baseline), toResultsFile(baseline), 300);
    expect(same.regressions).toEqual([]);
    expect(matchVerdictText(same)).toBe('no regression, no significant improvement');
    // The other way round the default threshold is better, and is said to be, not only "no regression".
    const better = compare(baseline.dataset, toResultsFile(result), toResultsFile(baseline), 300);
    expect(better.regressions).toEqual([]);
    expect(matchVerdictText(better)).toMatch(/^no regression; better in .*pairwise\.recall/);
    expect(comparisonMarkdown(better)).toMatch(/^Verdict: \*\*no regression; better in .*pairwise\.recall.*\*\*/m);
  });

  it('replies that name no sources give the same clustering and search pairs, read record by record', async () => {
    // Against a reference that leaves identityGroupedBySource out unless asked, every record is read
    // on its own and search results map by link ID (read before the sample is posted); with the
    // sources named, co-members of an identity already read and the link IDs before the search are
    // not requested. Both must see the same data.
    const { result: bare, reference } = await benchmark(undefined, 'on-request');
    const partition = (r: BenchmarkResult) => {
      const first = new Map<string, number>();
      return r.dataset.records.map((rec, i) => {
        const label = r.observation.labels.get(rec.id)!;
        if (!first.has(label)) first.set(label, i);
        return first.get(label)!;
      });
    };
    const pairs = (r: BenchmarkResult) =>
      r.observation.search.map((p) => `${p.query} ${p.candidate} ${p.score}`).sort();
    expect(bare.observation.failures).toMatchObject({ post: 0, read: 0, search: 0 });
    expect(bare.observation.searchResults.unmapped).toBe(0);
    expect(partition(bare)).toEqual(partition(baseline));
    expect(pairs(bare)).toEqual(pairs(baseline));
    expect(bare.analysis.metrics).toEqual(baseline.analysis.metrics);
    // The bare run read every posted record before the search and every record after it.
    const n = bare.dataset.records.length;
    const posted = n - bare.dataset.searchSample.length;
    const received = reference.requestsReceived()[service];
    expect(received).toBe(n + 60 + posted + n + n);
  });

  it('the CLI exits 1 on a regression against a baseline and 2 on bad arguments', () => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      CONFORMANCE_REPORT_DIR: dir,
      CONFORMANCE_SEED: '7',
    };
    for (const k of Object.keys(env)) if (/_BASE_URL$/.test(k)) delete env[k];
    const folderOf = (stdout: string) =>
      join(dir, /^Match-quality run (\S+):/m.exec(stdout)![1]!, 'match-quality', service);
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [...scriptArgs('linkage/cli.ts'), '--quiet', '--resamples', '200', ...args], {
        env,
        encoding: 'utf8',
      });
    const first = cli('--service', service, '--size', '200');
    expect(first.status, first.stderr).toBe(0);
    const runFolder = readdirSync(dir)
      .map((d) => join(dir, d, 'match-quality', service))
      .find(
        (f) =>
          existsSync(join(f, 'results.json')) &&
          JSON.parse(readFileSync(join(f, 'results.json'), 'utf8')).options.size === 200,
      )!;
    expect(first.stdout).toMatch(/^ {2}removed the \d+ records it posted \(hard delete/m);
    const second = cli('--compare', runFolder, '--reference-threshold', '0.999');
    expect(second.status, second.stdout + second.stderr).toBe(1);
    expect(second.stdout).toMatch(/REGRESSION in .*pairwise\.recall/);
    expect(cli('--preset', 'nonsense').status).toBe(2);
    secondFolder = folderOf(second.stdout);
    // Two CLI runs of 200 entities each, one after another: minutes on two busy cores.
  }, 600000);

  it.skipIf(!chromiumAvailable())(
    "the report's tables of changed pairs fit the page (no sideways scrolling)",
    async () => {
      const opened = await openInChromium(join(secondFolder, 'report.html'));
      try {
        const { page } = opened;
        expect(await page.locator('h4').count(), 'a table of changed pairs').toBeGreaterThan(0);
        const widths = await page.evaluate(() => {
          type Root = { documentElement: { scrollWidth: number; clientWidth: number } };
          const root = (globalThis as unknown as { document: Root }).document.documentElement;
          return { page: root.scrollWidth, view: root.clientWidth };
        });
        expect(widths.page, 'scroll width within the window').toBeLessThanOrEqual(widths.view);
        // Only the identities break anywhere: a record ID column keeps its words whole (it was 14 px wide, one letter a line).
        const recordColumn = await page.locator('table.pairs th').first().boundingBox();
        expect(recordColumn!.width, 'the record column').toBeGreaterThan(50);
      } finally {
        await opened.close();
      }
    },
  );
});
