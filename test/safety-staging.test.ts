/**
 * Never harm other people's data, end to end against a separately started reference that holds
 * foreign data (reference/faults/foreign-data.ts), the suite pointed at it as at a staging
 * deployment (ORG_BASE_URL / ORG_TOKEN / ORG_SOURCES). That a whole run leaves foreign data exactly
 * as it was and writes none of it, nor any secret, anywhere: test/safety-markers.test.ts. Here:
 * - a run killed hard leaves a ledger from which `npm run cleanup -- --run <id>` removes every
 *   record of the test sources;
 * - an unreachable deployment, or rejected credentials, stop the run in preflight (exit 3, one
 *   message naming the service) within seconds.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foreignDigest } from '../reference/faults/foreign-data.js';
import { type RunningReference, startReference } from '../reference/server.js';
import { scriptArgs } from './support/command.js';
import { closedPort, startFaultyServer } from './support/faulty-server.js';

let ref: RunningReference;
const store = () => ref.stores.get('organization')!;
const targetEnv = () => ({ ORG_BASE_URL: ref.url, ORG_TOKEN: ref.token, ORG_SOURCES: 'cf_test_a,cf_test_b' });

beforeAll(async () => {
  ref = await startReference({ foreignData: true, faults: [] });
});
afterAll(() => ref.stop());

/** Runs a CLI script with tsx; resolves with exit code, output and duration. */
function cli(
  args: string[],
  env: Record<string, string>,
  opts: { killWhen?: (out: string) => boolean; timeoutMs?: number } = {},
) {
  const clean: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(clean)) if (/^(ORG|PERSON|PROVIDER|CONFORMANCE|REFERENCE)_/.test(k)) delete clean[k];
  const started = Date.now();
  return new Promise<{ code: number | null; signal: string | null; out: string; ms: number }>((resolve) => {
    const child = spawn(process.execPath, [...scriptArgs(args[0]!), ...args.slice(1)], {
      env: { ...clean, FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), opts.timeoutMs ?? 120000);
    const poll = opts.killWhen
      ? setInterval(() => {
          if (opts.killWhen!(out)) {
            clearInterval(poll);
            process.kill(-child.pid!, 'SIGKILL');
          }
        }, 50)
      : undefined;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      resolve({ code, signal, out, ms: Date.now() - started });
    });
  });
}

describe('against a staging-like deployment with foreign data', () => {
  it('a run killed hard leaves a ledger from which npm run cleanup removes every record it created', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'cf-kill-'));
    const runId = `killed-${Date.now().toString(36)}`;
    const env = { ...targetEnv(), CONFORMANCE_REPORT_DIR: reportDir, CONFORMANCE_RUN_ID: runId, CONFORMANCE_SEED: '7' };
    const ledger = join(reportDir, runId, 'ledger.jsonl');
    const ledgerLines = () =>
      existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter(Boolean).length : 0;
    const ours = () => [...store().records.values()].filter((r) => r.source.id.startsWith(`cf-${runId}-`));
    // Killed once records are stored, not merely listed: the ledger is written before each post
    // leaves, and posts that go out together can fill it before the deployment holds any of them.
    const killed = await cli(['run/cli/conformance.mjs', 'scenarios/organization'], env, {
      killWhen: () => ledgerLines() >= 15 && ours().length > 0,
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(ours().length, 'the killed run left records behind').toBeGreaterThan(0);
    const before = foreignDigest(store());
    const cleaned = await cli(['run/cli/cleanup.ts', '--run', runId], env);
    expect(cleaned.code, cleaned.out).toBe(0);
    expect(ours(), 'records of the killed run after cleanup').toEqual([]);
    expect(
      [...store().relationships.values()].filter((r) => !r.id.startsWith('RELforeign')),
      'relationships of the killed run',
    ).toEqual([]);
    expect(foreignDigest(store())).toBe(before);
  });
});

describe('preflight', () => {
  it('an unreachable deployment stops the run with one message naming the service, exit 3, within seconds', async () => {
    const r = await cli(['run/cli/conformance.mjs', 'scenarios/organization'], {
      ORG_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      ORG_TOKEN: 'aaaa.bbbb.cccc',
      ORG_SOURCES: 'cf_test_a',
      CONFORMANCE_REPORT_DIR: mkdtempSync(join(tmpdir(), 'cf-pf-')),
    });
    expect(r.code, r.out).toBe(3);
    expect(r.out).toMatch(
      /preflight: the organization service at http:\/\/127\.0\.0\.1:\d+\S+ is unreachable \(ECONNREFUSED/,
    );
    expect(r.ms).toBeLessThan(10000);
  });

  it('rejected credentials stop the run in preflight, exit 3', async () => {
    const r = await cli(['run/cli/conformance.mjs', 'scenarios/organization'], {
      ...targetEnv(),
      ORG_TOKEN: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad-signature',
      CONFORMANCE_REPORT_DIR: mkdtempSync(join(tmpdir(), 'cf-pf-')),
    });
    expect(r.code, r.out).toBe(3);
    expect(r.out).toMatch(/organization service .* rejecting the credentials \(HTTP 401\)/);
  });

  it('a deployment that never answers stops the run within the timeout plus a small constant', async () => {
    const hang = await startFaultyServer([{ kind: 'hang' }]);
    try {
      const r = await cli(['run/cli/conformance.mjs', 'scenarios/organization'], {
        ORG_BASE_URL: hang.url,
        ORG_TOKEN: 'aaaa.bbbb.cccc',
        ORG_SOURCES: 'cf_test_a',
        CONFORMANCE_TIMEOUT_MS: '1500',
        CONFORMANCE_REPORT_DIR: mkdtempSync(join(tmpdir(), 'cf-pf-')),
      });
      expect(r.code, r.out).toBe(3);
      expect(r.out).toMatch(/no reply within 1500 ms/);
      expect(r.ms).toBeLessThan(1500 + 6000);
    } finally {
      await hang.close();
    }
  });
});
