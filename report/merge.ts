/**
 * Joins the run folders of a sharded run (`npm run conformance -- --shard=i/n` on n machines) into one run folder with
 * one report: the shards' vitest blob reports are replayed with `vitest --merge-reports` through the conformance
 * reporter (results.json), their Allure results and exchanges are copied, and every report is written as for a single
 * run. A shard without a blob report contributes its results.json instead.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { type CleanupResult, addCleanup } from '../harness/cleanup.js';
import { HANDOFF } from '../harness/handoff.js';
import { ledgerPath, shardLedgersDir } from '../harness/run.js';
import type { CheckResult, RunSelection } from './results.js';
import { type RunDescription, type Summary, readResults, readSelection } from './summary.js';
import { writeRunReports } from './write.js';
import { combineFigures } from '../harness/pacing.js';

export interface MergeOptions {
  /** Report directory the merged run folder is created in. */
  reportDir: string;
  /** Run id of the merged run (default: the shards' id without the shard suffix, plus "-merged"). */
  runId?: string;
}

const readJson = <T>(file: string): T | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;

/** Replays the blob reports in `blobDir` through the conformance reporter into `folder`/results.json. */
function replayBlobs(blobDir: string, folder: string, runId: string): boolean {
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const r = spawnSync(process.execPath, [vitest, '--merge-reports', blobDir, '--config', 'vitest.config.ts'], {
    env: {
      ...process.env,
      ...HANDOFF.merge.entry(true),
      ...HANDOFF.runFolder.entry(folder),
      ...HANDOFF.runId.entry(runId),
      FORCE_COLOR: '0',
    },
    encoding: 'utf8',
  });
  return existsSync(join(folder, 'results.json')) && r.status !== null;
}

const isRunFolder = (f: string) => existsSync(join(f, 'run.json'));

/**
 * The shards' run folders among `paths`: each path is a run folder, or a folder holding run folders directly under
 * it, as a CI artifact download leaves them (download-artifact v4 with `pattern:` puts each artifact in a folder of
 * its own; upload-artifact v4 makes a wildcard's search path the artifact's root, so the run folder sits one level
 * down). Each run folder once, in the order given.
 * @throws Error naming a path that is neither
 */
export function shardRunFolders(paths: string[]): string[] {
  const found = paths.flatMap((p) => {
    if (isRunFolder(p)) return [p];
    const inside = existsSync(p)
      ? readdirSync(p, { withFileTypes: true })
          .filter((d) => d.isDirectory() && isRunFolder(join(p, d.name)))
          .map((d) => join(p, d.name))
          .sort()
      : [];
    if (!inside.length)
      throw new Error(
        `${p} is not a finished run folder and holds none (run.json and summary.json expected in it, or in a ` +
          'folder directly under it)',
      );
    return inside;
  });
  return [...new Map(found.map((f) => [resolve(f), f])).values()];
}

/**
 * @param paths the shards' run folders (each with run.json and summary.json), or folders holding them directly under
 *   them (shardRunFolders)
 * @returns the merged summary and its folder
 * @throws Error when a folder is not a finished run folder and holds none
 */
export async function mergeShards(
  paths: string[],
  options: MergeOptions,
): Promise<{ folder: string; summary: Summary }> {
  if (!paths.length) throw new Error('no shard folders given');
  const runs = shardRunFolders(paths).map((f) => {
    const run = readJson<RunDescription>(join(f, 'run.json'));
    const summary = readJson<Summary>(join(f, 'summary.json'));
    if (!run || !summary) throw new Error(`${f} is not a finished run folder (run.json and summary.json expected)`);
    return { folder: f, run, summary };
  });
  const first = runs[0]!.run;
  const runId = options.runId ?? `${first.runId.replace(/-s\d+of\d+$/, '')}-merged`;
  const folder = join(options.reportDir, runId);
  mkdirSync(join(folder, 'blob'), { recursive: true });
  copyShardFiles(runs, folder, options.reportDir, runId);
  const results = mergedResults(runs, folder, runId);
  joinSelections(runs, folder, results);

  const startedAt = runs.map((r) => r.run.startedAt).sort()[0]!;
  const finishedAt = runs
    .map((r) => r.summary.run.finishedAt)
    .sort()
    .at(-1)!;
  const description: RunDescription = {
    ...first,
    runId,
    startedAt,
    shards: runs.map((r) => ({
      runId: r.run.runId,
      shard: r.run.shard,
      startedAt: r.run.startedAt,
      finishedAt: r.summary.run.finishedAt,
    })),
  };
  delete description.shard;
  writeFileSync(join(folder, 'run.json'), JSON.stringify(description, null, 2));
  const cleanup = runs.reduce<CleanupResult | undefined>((acc, r) => addCleanup(acc, r.summary.cleanup), undefined);
  const services = [...new Set(runs.flatMap((r) => Object.keys(r.summary.transport ?? {})))];
  const transport = Object.fromEntries(
    services.flatMap((service) => {
      const combined = combineFigures(runs.flatMap((r) => r.summary.transport?.[service] ?? []));
      return combined ? [[service, combined]] : [];
    }),
  );
  const { summary } = await writeRunReports(folder, options.reportDir, description, results, cleanup, {
    finishedAt: new Date(finishedAt),
    transport,
  });
  return { folder, summary };
}

/** A shard as the merge reads it: its folder, run description and summary. */
type Shard = { folder: string; run: RunDescription; summary: Summary };

/**
 * Copies each shard's exchanges, Allure results and blobs into the merged folder, and its ledger with the merged run,
 * so that npm run cleanup -- --run <merged id> finds what the shards created.
 */
function copyShardFiles(runs: Shard[], folder: string, reportDir: string, runId: string): void {
  for (const { folder: f } of runs) {
    for (const sub of ['exchanges', 'allure-results'])
      if (existsSync(join(f, sub))) cpSync(join(f, sub), join(folder, sub), { recursive: true });
    if (existsSync(join(f, 'blob')))
      for (const b of readdirSync(join(f, 'blob'))) cpSync(join(f, 'blob', b), join(folder, 'blob', b));
  }
  for (const { folder: f, run } of runs) {
    const ledger = join(f, 'ledger.jsonl');
    if (!existsSync(ledger)) continue;
    const kept = ledgerPath(shardLedgersDir(reportDir, runId), run.runId);
    mkdirSync(dirname(kept), { recursive: true });
    cpSync(ledger, kept);
  }
}

/** The shards' results: the blobs replayed where every shard has one, else their results.json joined. */
function mergedResults(runs: Shard[], folder: string, runId: string): CheckResult[] {
  const everyShardHasBlob = runs.every(
    ({ folder: f }) => existsSync(join(f, 'blob')) && readdirSync(join(f, 'blob')).length > 0,
  );
  let results: CheckResult[] | undefined;
  if (everyShardHasBlob && replayBlobs(resolve(folder, 'blob'), resolve(folder), runId)) results = readResults(folder);
  results ??= runs.flatMap(({ folder: f }) => readResults(f) ?? []);
  results = results.map((r) => ({
    ...r,
    exchangesFile: r.exchangesFile ? `exchanges/${basename(r.exchangesFile)}` : undefined,
  }));
  writeFileSync(join(folder, 'results.json'), JSON.stringify(results, null, 2));
  return results;
}

/** The replayed reporter recorded the union of the shards' selections; without blobs, they are joined here. */
function joinSelections(runs: Shard[], folder: string, results: CheckResult[]): void {
  if (!readSelection(folder)) {
    const shards = runs.map(({ folder: f }) => readSelection(f)).filter((x): x is RunSelection => Boolean(x));
    if (shards.length === runs.length) {
      const selected = [...new Set(shards.flatMap((x) => x.selectedFiles))].sort();
      const ran = new Set(results.map((r) => r.title));
      writeFileSync(
        join(folder, 'selection.json'),
        JSON.stringify(
          {
            suiteFiles: shards[0]!.suiteFiles,
            selectedFiles: selected,
            notRun: shards.flatMap((x) => x.notRun).filter((n) => !ran.has(n.title)),
          },
          null,
          2,
        ),
      );
    }
  }
}
