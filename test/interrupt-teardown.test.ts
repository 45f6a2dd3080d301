/**
 * Interrupting a run still tears down: `npm run conformance` against a separately started
 * reference (ORG_BASE_URL / ORG_TOKEN / ORG_SOURCES, as against staging) gets SIGINT, or SIGTERM,
 * while its checks run; afterwards the reference holds no record and no relationship of the run
 * (the CLI runs the ledger teardown after vitest exits on the signal), and the CLI says so.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';

const TEST_SOURCES = ['cf_test_a', 'cf_test_b'];
let ref: RunningReference;
const store = () => ref.stores.get('organization')!;

beforeAll(async () => {
  ref = await startReference({ faults: [] });
});
afterAll(() => ref.stop());

/** Starts the conformance CLI, sends `signal` once its ledger holds `lines` entries, resolves on exit. */
function interruptedRun(signal: NodeJS.Signals, lines: number) {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-int-'));
  const runId = `int-${signal.toLowerCase()}-${Date.now().toString(36)}`;
  const ledger = join(reportDir, runId, 'ledger.jsonl');
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (/^(ORG|PERSON|PROVIDER|CONFORMANCE|REFERENCE)_/.test(k)) delete env[k];
  Object.assign(env, {
    FORCE_COLOR: '0',
    ORG_BASE_URL: ref.url,
    ORG_TOKEN: ref.token,
    ORG_SOURCES: TEST_SOURCES.join(','),
    CONFORMANCE_REPORT_DIR: reportDir,
    CONFORMANCE_RUN_ID: runId,
  });
  return new Promise<{ code: number | null; out: string; sentAtLines: number; reportDir: string }>((resolve) => {
    const child = spawn(process.execPath, ['run/cli/conformance.mjs', 'scenarios/organization'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let sentAtLines = 0;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const hardStop = setTimeout(() => child.kill('SIGKILL'), 150000);
    const poll = setInterval(() => {
      const n = existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter(Boolean).length : 0;
      if (n >= lines) {
        clearInterval(poll);
        sentAtLines = n;
        child.kill(signal);
      }
    }, 25);
    child.on('exit', (code) => {
      clearTimeout(hardStop);
      clearInterval(poll);
      resolve({ code, out, sentAtLines, reportDir });
    });
  });
}

describe('an interrupted run still tears down', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while checks run: the reference holds zero records of the test sources afterwards`, async () => {
      const run = await interruptedRun(signal, 20);
      try {
        expect(run.sentAtLines, `the run created records before the ${signal}:\n${run.out.slice(-1500)}`).toBeGreaterThanOrEqual(20);
        expect(run.out, 'the CLI reports the interruption and its teardown').toMatch(
          new RegExp(`interrupted \\(${signal}\\); cleanup from the ledger: sources \\d+ deleted`),
        );
        expect(run.code, 'a non-zero exit code').not.toBe(0);
        const left = [...store().records.values()].filter((r) => TEST_SOURCES.includes(r.source.name));
        expect(
          left.map((r) => `${r.source.name}/${r.source.id}`),
          'records of the test sources after the interrupted run',
        ).toEqual([]);
        expect([...store().relationships.values()], 'relationships after the interrupted run').toEqual([]);
      } finally {
        rmSync(run.reportDir, { recursive: true, force: true });
      }
    }, 180000);
  }
});
