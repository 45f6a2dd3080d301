/**
 * Runs `npm run conformance` (the whole suite against the embedded reference) a number of times with reference variants
 * switched on, one run after another, and prints per run its wall time, exit code, gate verdict, verdict counts and per
 * service how its requests were paced (attempts, transient failures, throttled, time paused, lowest bound and rate):
 * the figures of issue 25 (a throttling gateway, transient failures). No assertions: a figure to read, not a test.
 * Usage: npx tsx bench/variant-runs.ts --variants throttled [--runs 1]
 *        npx tsx bench/variant-runs.ts --variants transient=0.2 --runs 5
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Summary } from '../report/summary.js';
import { command, integer, parseArguments } from '../run/command.js';
import { runNode, cleanEnv } from '../test/support/command.js';

const program = command({
  name: 'variant-runs',
  invocation: 'npx tsx bench/variant-runs.ts',
  summary:
    'Runs the whole suite against the embedded reference with REFERENCE_VARIANTS, N times in turn, and prints ' +
    'wall time, verdicts and pacing figures.',
  exitCodes: { 0: 'measured', 2: 'bad arguments' },
  examples: [
    'npx tsx bench/variant-runs.ts --variants throttled',
    'npx tsx bench/variant-runs.ts --variants transient=0.2 --runs 5',
  ],
})
  .option('--variants <list>', 'REFERENCE_VARIANTS of every run', '')
  .option('--runs <n>', 'runs, one after another', integer(1, 50), 1);
parseArguments(program);
const opts = program.opts<{ variants: string; runs: number }>();
const { runs } = opts;

/** One conformance run; resolves with its exit code, wall time and summary. */
async function conformance(variants: string): Promise<{ code: number | null; seconds: number; summary?: Summary }> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-bench-variants-'));
  const runId = `bench-${Date.now().toString(36)}`;
  const env = cleanEnv({
    CONFORMANCE_REPORT_DIR: reportDir,
    CONFORMANCE_RUN_ID: runId,
    ...(variants ? { REFERENCE_VARIANTS: variants } : {}),
  });
  const { code, ms } = await runNode(['run/cli/conformance.mjs'], env, 3_600_000);
  let summary: Summary | undefined;
  try {
    summary = JSON.parse(readFileSync(join(reportDir, runId, 'summary.json'), 'utf8')) as Summary;
  } catch {
    summary = undefined;
  }
  rmSync(reportDir, { recursive: true, force: true });
  return { code, seconds: ms / 1000, summary };
}

console.log(`REFERENCE_VARIANTS=${opts.variants || '(none)'}, ${runs} run(s) in turn`);
for (let i = 1; i <= runs; i++) {
  const { code, seconds, summary: s } = await conformance(opts.variants);
  if (!s) {
    console.log(`run ${i}: exit ${code} after ${seconds.toFixed(1)} s, no summary.json`);
    continue;
  }
  const t = s.totals;
  console.log(
    `run ${i}: ${seconds.toFixed(1)} s, exit ${code}, ${s.gate.verdict.toUpperCase()}: ${t.checks} checks, ` +
      `${t.pass} pass, ${t.fail} fail, ${t.error} error, ${t.skip} skip`,
  );
  for (const [service, f] of Object.entries(s.transport ?? {}))
    console.log(
      `  ${service}: ${f.attempts} attempts, ${f.transientFailures} failed transiently (${f.throttled} ` +
        `throttled), paused ${(f.pausedMs / 1000).toFixed(1)} s, in flight lowest ${f.bound.lowest} final ` +
        `${f.bound.final}, rate lowest ${f.rate.lowest ?? '-'} final ${f.rate.final ?? '-'}`,
    );
}
