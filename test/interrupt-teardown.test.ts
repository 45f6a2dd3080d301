/**
 * Cancelling a run, as a CI runner or a terminal does, against a deployment (a reference started
 * here, pointed at with ORG_BASE_URL / ORG_TOKEN / ORG_SOURCES as at staging): `npm run
 * conformance` gets SIGTERM, its node process SIGINT, its process group SIGINT (a terminal's
 * Ctrl-C), or npm is killed outright (the command's parent gone), while its checks run. Each time
 * the run stops early (checks left not run), the deployment holds no record of the run afterwards,
 * the run's report is written and marked INTERRUPTED with the signal, the exit code is 143 for
 * SIGTERM and 130 for SIGINT, and no process of the run is left (run/cli/conformance.mjs,
 * run/interrupt.ts, run/vitest/global-setup.ts).
 *
 * Before the fix, SIGINT to npm let the run go on to its end, SIGTERM to npm left the node process
 * running orphaned with the records on the deployment, and nothing was marked interrupted.
 * Timings are printed, never asserted (the machine is shared): the bounds below are generous.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pidtree from 'pidtree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';
import { exitCodeOf } from '../report/outcome.js';
import type { Summary } from '../report/summary.js';
import { cleanEnv } from './support/command.js';
import { sampled } from './support/tier.js';

const TEST_SOURCES = ['cf_test_a', 'cf_test_b'];
const ROOT = join(import.meta.dirname, '..');
let ref: RunningReference;

beforeAll(async () => {
  ref = await startReference({ faults: [] });
});
afterAll(() => ref.stop());

/** How the run is cancelled: whom the signal goes to. */
type Cancel = 'SIGTERM to npm' | 'SIGINT to the node process' | 'SIGINT to the process group' | 'npm killed';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `npm run conformance -- scenarios/organization` against the reference, cancels it as
 * `how` says once its ledger holds `lines` entries, and resolves when npm has ended and every
 * process of the run is gone (or after 60 s).
 */
async function cancelledRun(how: Cancel, lines = 20) {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-int-'));
  const runId = `int-${how.replace(/\W+/g, '-').toLowerCase()}-${Date.now().toString(36)}`.slice(0, 40);
  const ledger = join(reportDir, runId, 'ledger.jsonl');
  const env = cleanEnv({
    ORG_BASE_URL: ref.url,
    ORG_TOKEN: ref.token,
    ORG_SOURCES: TEST_SOURCES.join(','),
    CONFORMANCE_REPORT_DIR: reportDir,
    CONFORMANCE_RUN_ID: runId,
  });
  // Its own process group, as a job a CI runner or a terminal starts.
  const npm = spawn('npm', ['run', 'conformance', '--', 'scenarios/organization'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  npm.stdout.on('data', (d) => (out += d));
  npm.stderr.on('data', (d) => (out += d));
  const ended = new Promise<number | null>((r) => npm.on('exit', (code) => r(code)));
  const hardStop = setTimeout(() => process.kill(-npm.pid!, 'SIGKILL'), 170000);
  let entries = 0;
  while (entries < lines && alive(npm.pid!)) {
    await sleep(25);
    entries = existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter(Boolean).length : 0;
  }
  // Every process of the run, to look for afterwards (the vitest process runs in a group of its own).
  const processes = await pidtree(npm.pid!, { root: true });
  const sentAt = Date.now();
  if (how === 'SIGTERM to npm') npm.kill('SIGTERM');
  else if (how === 'npm killed') npm.kill('SIGKILL');
  else if (how === 'SIGINT to the process group') process.kill(-npm.pid!, 'SIGINT');
  else process.kill((await pidtree(npm.pid!, { advanced: true })).find((p) => p.ppid === npm.pid)!.pid, 'SIGINT');
  const code = await ended;
  const exitedMs = Date.now() - sentAt;
  while (processes.some(alive) && Date.now() - sentAt < 60000) await sleep(100);
  const goneMs = Date.now() - sentAt;
  clearTimeout(hardStop);
  const summaryFile = join(reportDir, runId, 'summary.json');
  const summary = existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary) : undefined;
  const report = join(reportDir, runId, 'report.html');
  return {
    code,
    out,
    entries,
    summary,
    reportHtml: existsSync(report) ? readFileSync(report, 'utf8') : '',
    left: processes.filter(alive),
    exitedMs,
    goneMs,
    namespace: `cf-${runId}-`,
    reportDir,
  };
}

describe('a cancelled run stops, removes what it created and says it was interrupted', () => {
  const all: Array<[Cancel, 'SIGINT' | 'SIGTERM', number | null]> = [
    ['SIGTERM to npm', 'SIGTERM', 143],
    ['SIGINT to the node process', 'SIGINT', 130],
    ['SIGINT to the process group', 'SIGINT', 130],
    // npm dies at once (exit by SIGKILL, no code): the command sees its parent gone and stops the run as for SIGTERM.
    ['npm killed', 'SIGTERM', null],
  ];
  // What a CI runner does (SIGTERM, then a kill) in `npm test`; every way in `npm run test:full`.
  const cases = sampled(all, [all[0]!, all[3]!]);
  it.each(cases)(
    '%s',
    async (how, signal, npmCode) => {
      const run = await cancelledRun(how);
      try {
        console.info(
          `${how}: npm ended ${run.exitedMs} ms after the signal, the last process of the run ${run.goneMs} ms after it`,
        );
        const tail = run.out.slice(-2500);
        expect(run.entries, `the run created records before it was cancelled:\n${tail}`).toBeGreaterThanOrEqual(20);
        expect(run.code, tail).toBe(npmCode);
        expect(run.left, `processes of the run still there 60 s after the signal:\n${tail}`).toEqual([]);
        // Nothing of the run stays on the deployment.
        const mine = [...ref.stores.values()].flatMap((s) =>
          [...s.records.values()].filter(
            (r) => TEST_SOURCES.includes(r.source.name) && r.source.id.startsWith(run.namespace),
          ),
        );
        expect(
          mine.map((r) => `${r.source.name}/${r.source.id}`),
          `records of the run left on the deployment:\n${tail}`,
        ).toEqual([]);
        // The run wound down itself: its report is written and marked INTERRUPTED, with the exit code of the signal.
        expect(run.summary?.interrupted?.signal, tail).toBe(signal);
        expect(exitCodeOf(run.summary!)).toBe(signal === 'SIGTERM' ? 143 : 130);
        expect(run.summary!.cleanup?.failures).toEqual([]);
        expect(
          run.summary!.scope.notRunChecks,
          'checks the interrupt kept from starting: the run stopped early',
        ).toBeGreaterThan(0);
        expect(run.reportHtml).toContain(`INTERRUPTED by ${signal}`);
        expect(run.out).toMatch(
          new RegExp(`Conformance run \\S+ \\(seed \\d+\\): INTERRUPTED by ${signal} \\(exit code 1[34][03]\\)`),
        );
        // The command says at once that it stops, and how (on stderr; on the terminal too behind a pipe).
        expect(run.out).toMatch(/conformance: SIG(INT|TERM) \([^)]+\): stopping the run: no further request is sent/);
      } finally {
        rmSync(run.reportDir, { recursive: true, force: true });
      }
    },
    180000,
  );
});
