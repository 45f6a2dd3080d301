/**
 * Ctrl-C as a user at a terminal meets it, with the run's output piped through `tee` (as CI logs and users often run
 * it): `npm run conformance 2>&1 | tee <file>` in a pseudo-terminal (util-linux `script`), and Ctrl-C typed into it,
 * so the terminal's line discipline sends SIGINT to the whole foreground job, `tee` included.
 *
 * - Mid-run: `tee` dies with the Ctrl-C, yet the terminal shows that the run is stopping and what it does, what the
 *   teardown removed and where the report is (run/cli/conformance.mjs writes its stderr to the terminal too from the
 *   interrupt on); the exit code is 130.
 * - Before the first check: one coherent line ("before any check ended; nothing was created ...; no report written"),
 *   never both "no report written" and "its report, marked INTERRUPTED, holds ...", and no half run folder left.
 *
 * Before: behind `| tee` the terminal showed only `^C`; an interrupt before the first check left a run folder and
 * printed both lines. Timings are printed, never asserted tightly (the machine is shared).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv } from './support/command.js';

const ROOT = join(import.meta.dirname, '..');
const hasScript = spawnSync('script', ['--version']).status === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `npm run conformance 2>&1 | tee` in a pseudo-terminal, types Ctrl-C once `ready(runFolder)` holds, and resolves
 * with what the terminal showed, what tee kept, npm's exit code and the time from Ctrl-C to the end.
 */
async function ctrlC(ready: (folder: string) => boolean) {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-ctrlc-'));
  const runId = `ctrlc-${Date.now().toString(36)}`;
  const teed = join(reportDir, 'tee.txt');
  const job = `npm run conformance 2>&1 | tee ${teed}; echo "npm exit \${PIPESTATUS[0]}"`;
  const term = spawn('script', ['-qefc', job, '/dev/null'], {
    cwd: ROOT,
    env: cleanEnv({ CONFORMANCE_REPORT_DIR: reportDir, CONFORMANCE_RUN_ID: runId, SHELL: '/bin/bash' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  term.stdout.on('data', (d) => (screen += d));
  term.stderr.on('data', (d) => (screen += d));
  const ended = new Promise<void>((r) => term.on('exit', () => r()));
  const folder = join(reportDir, runId);
  const start = Date.now();
  while (!ready(folder) && Date.now() - start < 120000) await sleep(25);
  const typedAt = Date.now();
  term.stdin.write('\x03');
  await Promise.race([ended, sleep(90000)]);
  const endedMs = Date.now() - typedAt;
  console.log(
    `Ctrl-C ${((typedAt - start) / 1000).toFixed(1)} s after start; ended ${(endedMs / 1000).toFixed(1)} s after it`,
  );
  screen = screen.replace(/\r/g, '');
  return { screen, teed: existsSync(teed) ? readFileSync(teed, 'utf8') : '', folder, runId, endedMs };
}

const ledgerLines = (folder: string) => {
  const f = join(folder, 'ledger.jsonl');
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0;
};

describe.skipIf(!hasScript)('Ctrl-C at a terminal, the output piped through tee', () => {
  it('mid-run: the terminal shows that the run stops, what it removed and where its report is; exit 130', async () => {
    const r = await ctrlC((folder) => ledgerLines(folder) >= 30);
    expect(r.screen).toContain('^C');
    expect(r.screen).toMatch(
      /conformance: SIGINT \(SIGINT to npm run conformance\): stopping the run: no further request is sent/,
    );
    expect(r.screen).toMatch(
      new RegExp(
        `conformance: run ${r.runId} interrupted \\(SIGINT to npm run conformance\\); the teardown removed \\d+/\\d+ sources`,
      ),
    );
    expect(r.screen).toContain(`conformance: its report, marked INTERRUPTED: ${join(r.folder, 'report.html')}`);
    expect(r.screen).toContain('npm exit 130');
    // tee itself died with the Ctrl-C: what the user read came past it.
    expect(r.teed).not.toContain('its report, marked INTERRUPTED:');
    expect(existsSync(join(r.folder, 'report.html'))).toBe(true);
    expect(r.endedMs).toBeLessThan(40000);
  }, 180000);

  it('before the first check: one line, no report and no run folder left; exit 130', async () => {
    // The run's folder exists (its global setup ran) and it has created nothing yet.
    const r = await ctrlC((folder) => existsSync(join(folder, 'run.json')) && ledgerLines(folder) === 0);
    const said = r.screen.split('\n').filter((l) => l.startsWith('conformance: ') && /interrupted|report/.test(l));
    expect(said.filter((l) => !l.startsWith('conformance: SIGINT'))).toEqual([
      `conformance: run ${r.runId} interrupted (SIGINT to npm run conformance) before any check ended; nothing was ` +
        'created on the deployment; no report written',
    ]);
    expect(r.screen).not.toContain('holds the checks that ended before');
    expect(r.screen).toContain('npm exit 130');
    expect(existsSync(r.folder), 'the run folder').toBe(false);
    expect(r.endedMs).toBeLessThan(40000);
  }, 180000);
});
