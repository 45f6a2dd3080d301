/**
 * Benchmark of the resilience and detection targets (issue 4), printing figures (no assertions):
 * - time from `npm run conformance` to its clear message against an unreachable deployment (target: under 10 s);
 * - time to finish against a deployment that accepts connections but never answers, with CONFORMANCE_TIMEOUT_MS set
 *   (target: the timeout plus a small constant);
 * - the detection score (faults caught / faults) and the false positives of the clean reference (detection/runner.ts;
 *   skipped with --no-detection).
 * Usage: npx tsx bench/resilience-targets.ts [--timeout-ms 3000] [--no-detection]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { command, integer, parseArguments } from '../run/command.js';
import { FAULT_LIST } from '../reference/faults/catalogue.js';
import { detect } from '../detection/runner.js';
import { linesOf, runNode, cleanEnv } from '../test/support/command.js';
import { closedPort, startFaultyServer } from '../test/support/faulty-server.js';

const program = command({
  name: 'resilience-targets',
  invocation: 'npx tsx bench/resilience-targets.ts',
  summary:
    'Prints the resilience figures: time to a clear message against an unreachable deployment and one that ' +
    'never answers, and the detection score.',
  exitCodes: { 0: 'measured', 2: 'bad arguments' },
  examples: [
    'npx tsx bench/resilience-targets.ts',
    'npx tsx bench/resilience-targets.ts --timeout-ms 1500 --no-detection',
  ],
})
  .option('--timeout-ms <ms>', 'CONFORMANCE_TIMEOUT_MS of the never-answering run', integer(100, 600000), 3000)
  .option('--no-detection', 'skip the detection score');
parseArguments(program);
const opts = program.opts<{ timeoutMs: number; detection: boolean }>();
const { timeoutMs } = opts;

/** Runs the conformance CLI against `baseUrl`; resolves with exit code, wall time and the last lines of its output. */
async function conformanceAgainst(baseUrl: string, extra: Record<string, string> = {}) {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-bench-res-'));
  const env = cleanEnv({
    ORG_BASE_URL: baseUrl,
    ORG_TOKEN: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.bm90LWEtc2VjcmV0',
    ORG_SOURCES: 'cf_test_a,cf_test_b',
    CONFORMANCE_REPORT_DIR: reportDir,
    ...extra,
  });
  const run = await runNode(['run/cli/conformance.mjs', 'scenarios/organization'], env, 300000);
  rmSync(reportDir, { recursive: true, force: true });
  const lines = linesOf(run.stdout + run.stderr).filter((l) => !l.includes('npm warn'));
  return { code: run.code, seconds: run.ms / 1000, message: lines.slice(-3).join(' | ').slice(0, 300) };
}

const unreachable = await conformanceAgainst(`http://127.0.0.1:${await closedPort()}`);
console.log(`unreachable deployment: ${unreachable.seconds.toFixed(2)} s to exit ${unreachable.code} (target < 10 s)`);
console.log(`  message: ${unreachable.message}`);

const silent = await startFaultyServer([{ kind: 'hang' }]);
try {
  const hang = await conformanceAgainst(silent.url, {
    CONFORMANCE_TIMEOUT_MS: String(timeoutMs),
    CONFORMANCE_RETRIES: '0',
  });
  console.log(
    `deployment that never answers (CONFORMANCE_TIMEOUT_MS=${timeoutMs}): ${hang.seconds.toFixed(2)} s to exit ` +
      `${hang.code}, ${(hang.seconds - timeoutMs / 1000).toFixed(2)} s over the timeout`,
  );
  console.log(`  message: ${hang.message}`);
} finally {
  await silent.close();
}

if (opts.detection) {
  const report = await detect({ concurrency: 2 });
  if (report.clean.problem) console.log(`detection: ${report.clean.problem.slice(0, 500)}`);
  const pct = report.faults.length ? ((100 * report.caught) / report.faults.length).toFixed(1) : '0';
  console.log(
    `detection score: ${report.caught}/${report.faults.length} faults caught (${pct}%) of ${FAULT_LIST.length} ` +
      `in the catalogue, in ${(report.ms / 1000).toFixed(1)} s`,
  );
  console.log(
    `false positives on the clean reference: ${report.clean.falsePositives.length} of ${report.clean.checks} checks`,
  );
  const missed = report.faults.filter((o) => !(o.caughtBy.length && o.runFailed)).map((o) => o.fault.name);
  if (missed.length) console.log(`  not caught: ${missed.join(', ')}`);
}
