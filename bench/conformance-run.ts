/**
 * Benchmark: wall time of a full conformance run against the embedded reference, from command to exit, as a user would
 * type it (`npm run conformance`), repeated N times (default 3). Prints each run's wall time and the median. Target
 * (issue 2): under 20 s on a 2-core machine for the organization service. Usage: npm run bench -- [runs] [vitest
 * filters...]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { command, parseArguments, usageError } from '../run/command.js';

const program = command({
  name: 'bench',
  summary:
    'Wall time of npm run conformance against the embedded reference, from command to exit, repeated; prints ' +
    'each run and the median.',
  exitCodes: { 0: 'measured', 2: 'bad arguments' },
  examples: ['npm run bench', 'npm run bench -- 5 scenarios/organization'],
})
  .argument('[runs]', 'how many runs (default 3)')
  .argument('[filters...]', 'vitest filters passed to every run')
  .allowUnknownOption();
parseArguments(program);
const runs = program.args[0] === undefined ? 3 : Number(program.args[0]);
if (!Number.isInteger(runs) || runs < 1)
  usageError(program, `runs: expected a positive integer, got ${JSON.stringify(program.args[0])}`);
const filters = program.args.slice(1);
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-bench-'));
  const runId = `bench-${i}`;
  const started = process.hrtime.bigint();
  const r = spawnSync('npm', ['run', '--silent', 'conformance', '--', ...filters], {
    env: { ...process.env, CONFORMANCE_REPORT_DIR: reportDir, CONFORMANCE_RUN_ID: runId },
    encoding: 'utf8',
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const summary = JSON.parse(readFileSync(join(reportDir, runId, 'summary.json'), 'utf8'));
  times.push(seconds);
  console.log(
    `run ${i + 1}: ${seconds.toFixed(2)} s, exit ${r.status}, ${summary.totals.checks} checks ` +
      `(${summary.totals.pass} pass, ${summary.totals.fail} fail, ${summary.totals.error} error)`,
  );
}
times.sort((a, b) => a - b);
console.log(
  `median wall time over ${runs} runs: ${times[Math.floor(runs / 2)]!.toFixed(2)} s (min ` +
    `${times[0]!.toFixed(2)} s, max ${times[runs - 1]!.toFixed(2)} s)`,
);
