/**
 * A cancel while the deployment is gone: the reference, given as the deployment of all three services, stops answering
 * mid-run (its variant `gone`: every request after the cut left without a reply), and the command's process group then
 * gets SIGTERM, as a CI runner cancelling a job sends it. The run writes its report first (marked INTERRUPTED), takes
 * the deployment for gone after one probe per service (run/vitest/teardown.ts, harness/cleanup.ts CleanupBounds)
 * instead of waiting out every removal's timeout, lists every record it leaves by source name and native ID, and exits
 * 4 within seconds, leaving no process behind.
 *
 * Before: the run did not wind down within the 20 s the command gives it, the command's own removals from the ledger
 * took minutes (each request waiting out its timeout), and it ended with "no report: the run was ended before it wrote
 * one". Timings are printed; the bound asserted is generous (the machine is shared).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pidtree from 'pidtree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';
import type { Summary } from '../report/summary.js';
import { serviceNames } from '../specs/services.js';
import { cleanEnv } from './support/command.js';
import { configuredSettings } from './support/configured-run.js';

/** The deployment stops answering once it has taken this many requests (mid-run: a whole run sends thousands). */
const ANSWERED = 400;
const ROOT = join(import.meta.dirname, '..');
let ref: RunningReference;

beforeAll(async () => {
  ref = await startReference({ faults: [], variants: [`gone=${ANSWERED}`] });
});
afterAll(() => ref.stop());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a cancel while the deployment is gone', () => {
  it('writes the report first, recognises the deployment as gone, lists what is left and exits 4 within seconds', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'cf-gone-'));
    const runId = `gone-${Date.now().toString(36)}`;
    const npm = spawn('npm', ['run', 'conformance'], {
      cwd: ROOT,
      env: cleanEnv({ ...configuredSettings(ref), CONFORMANCE_REPORT_DIR: reportDir, CONFORMANCE_RUN_ID: runId }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    npm.stdout.on('data', (d) => (stdout += d));
    npm.stderr.on('data', (d) => (stderr += d));
    const ended = new Promise<number | null>((r) => npm.on('exit', (code) => r(code)));
    const hardStop = setTimeout(() => process.kill(-npm.pid!, 'SIGKILL'), 150000);
    // Until the deployment has stopped answering, and a few seconds more (checks waiting on it).
    const requests = () => serviceNames().reduce((n, s) => n + ref.requestsReceived()[s], 0);
    while (requests() <= ANSWERED && alive(npm.pid!)) await sleep(50);
    await sleep(4000);
    const processes = await pidtree(npm.pid!, { root: true });
    const sentAt = Date.now();
    process.kill(-npm.pid!, 'SIGTERM');
    const code = await ended;
    const exitedMs = Date.now() - sentAt;
    while (processes.some(alive) && Date.now() - sentAt < 60000) await sleep(100);
    clearTimeout(hardStop);
    console.log(`gone, then SIGTERM: exit ${code} ${(exitedMs / 1000).toFixed(1)} s after the signal`);

    const namespace = `cf-${runId}-`;
    const stayed = serviceNames().flatMap((s) =>
      [...ref.stores.get(s)!.records.values()].filter((r) => r.source.id.startsWith(namespace)).map((r) => r.source),
    );
    expect(stayed.length, 'records of the run the gone deployment still holds').toBeGreaterThan(0);
    expect(code, `${stdout.slice(-1500)}\n${stderr.slice(-3000)}`).toBe(4);
    expect(exitedMs, 'from the signal to the exit, ms').toBeLessThan(40000);
    expect(processes.filter(alive), 'processes of the run left').toEqual([]);

    // The report, marked INTERRUPTED, with every record it left.
    const summary = JSON.parse(readFileSync(join(reportDir, runId, 'summary.json'), 'utf8')) as Summary;
    expect(summary.interrupted?.signal).toBe('SIGTERM');
    const listed = summary.cleanup!.failures.map((f) => f.what);
    for (const s of stayed) expect(listed).toContain(`source ${s.name}/${s.id}`);
    expect(summary.cleanup!.failures.every((f) => /gave no reply to a probe within 3 s/.test(f.reason))).toBe(true);
    expect(existsSync(join(reportDir, runId, 'report.html'))).toBe(true);
    expect(readFileSync(join(reportDir, runId, 'report.html'), 'utf8')).toMatch(
      new RegExp(`<h1>Conformance run ${runId}: INTERRUPTED by SIGTERM, and ${listed.length} records left`),
    );
    // The console lists them by source name and native ID, with the command that removes them later.
    expect(stderr).toContain(
      `conformance: the teardown could not remove ${listed.length} record(s) of run ${runId} from the deployment; ` +
        `remove them with npm run cleanup -- --run ${runId}:`,
    );
    expect(stderr).toMatch(
      new RegExp(`\\n {2}\\w+ source cf_test_[ab]/${namespace}\\w+: not removed: the \\w+ service gave no reply`),
    );
    expect(stderr).not.toContain('no report');
  }, 180000);
});
