/**
 * The parts of an interrupt, each alone (the whole: test/interrupt-teardown.test.ts):
 * - the stop pipe (run/interrupt.ts): a signal name written by the command is the stop request,
 *   and the command ending (the pipe closing) is one too, as SIGTERM;
 * - the transport (harness/transport.ts): once the run's signal is aborted nothing is sent, and a
 *   request waiting for its reply ends at once, its exchange saying "interrupted";
 * - a check ended by the interrupt is no finding (harness/register.ts interruptedBy): skipped,
 *   unless it failed on replies it got in full;
 * - the outcome (report/outcome.ts, report/headline.ts): 130 for SIGINT, 143 for SIGTERM, the
 *   headline INTERRUPTED; records left behind still win (exit code 4).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../harness/client.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { interruptedBy } from '../harness/register.js';
import { RunContext } from '../harness/run.js';
import { INTERRUPTED } from '../harness/outgoing.js';
import { ConformanceFailure, CouldNotJudge } from '../harness/verdict.js';
import { StopCheck } from '../harness/check.js';
import { headline } from '../report/headline.js';
import { exitCodeOf } from '../report/outcome.js';
import type { Summary } from '../report/summary.js';
import { stopPipe } from '../run/interrupt.js';
import { type FaultyServer, startFaultyServer } from './support/faulty-server.js';
import { localClient } from './support/local-client.js';

/** Starts a process that listens on the stop pipe and prints the request it gets; resolves with it, after `act` on the pipe. */
function stopRequestOf(act: (pipe: NodeJS.WritableStream & { end(): void }) => void): Promise<string> {
  const script = `import { onStopRequest } from './run/interrupt.ts';
onStopRequest((r) => { console.log(JSON.stringify(r)); process.exit(0); });
console.log('listening');
setTimeout(() => process.exit(3), 20000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: join(import.meta.dirname, '..'),
    // The stop pipe as the command sets it up (fd 3).
    env: { ...process.env, ...stopPipe().env },
    stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
  });
  let out = '';
  let acted = false;
  return new Promise((resolve) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('listening\n') && !acted) {
        acted = true;
        act(child.stdio[3] as NodeJS.WritableStream & { end(): void });
      }
    });
    child.on('exit', () => resolve(out.split('\n').find((l) => l.startsWith('{')) ?? out));
  });
}

describe('the stop pipe', () => {
  it('a signal name written by the command is the stop request, with its reason', async () => {
    const got = await stopRequestOf((pipe) => pipe.write('SIGINT SIGINT to npm run conformance\n'));
    expect(JSON.parse(got)).toEqual({ signal: 'SIGINT', reason: 'SIGINT to npm run conformance' });
  }, 30000);

  it('the command ending (the pipe closes without a word) stops the run as SIGTERM', async () => {
    const got = await stopRequestOf((pipe) => pipe.end());
    expect(JSON.parse(got)).toMatchObject({ signal: 'SIGTERM', reason: expect.stringMatching(/ended/) });
  }, 30000);
});

describe('the transport once the run is interrupted', () => {
  const profile = resolveProfile(loadProfile(undefined), false);
  const run = new RunContext(`int-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-int-unit-')));
  let server: FaultyServer | undefined;
  let client: ServiceClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  it('sends nothing when the signal is already aborted', async () => {
    server = await startFaultyServer([{ kind: 'ok' }]);
    client = localClient(server.url, profile, run, { timeoutMs: 5000, maxInFlight: 2 });
    const stop = new AbortController();
    stop.abort();
    const r = await client.call('identityIdQuery', { linkId: 'X' }, { signal: stop.signal });
    expect(r.exchange.error).toMatch(new RegExp(`^${INTERRUPTED}: the run was stopped; not sent`));
    expect(server.requests).toEqual([]);
  });

  it('ends a request waiting for its reply as soon as the signal aborts, not at the timeout', async () => {
    server = await startFaultyServer([{ kind: 'hang' }]);
    client = localClient(server.url, profile, run, { timeoutMs: 60000, maxInFlight: 2 });
    const stop = new AbortController();
    const pending = client.call('identityIdQuery', { linkId: 'X' }, { signal: stop.signal });
    while (!server.requests.length) await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    const r = await pending;
    expect(r.exchange.error).toMatch(new RegExp(`^${INTERRUPTED}: `));
    expect(r.exchange.durationMs, 'ended long before the 60 s timeout').toBeLessThan(30000);
  });
});

describe('a check the interrupt ended', () => {
  const aborted = AbortSignal.abort();
  const live = new AbortController().signal;
  const cut = { exchanges: [{ error: `${INTERRUPTED}: the run was stopped; not sent` }] } as never;
  const whole = { exchanges: [{ status: 200 }] } as never;

  it('is skipped, not failed or errored, when the run was interrupted', () => {
    expect(interruptedBy(new CouldNotJudge('no reply'), aborted, whole)).toBe(true);
    expect(interruptedBy(new Error('AbortError'), aborted, undefined)).toBe(true);
    expect(interruptedBy(new ConformanceFailure(['ORG-X'], 'judged on a cut reply'), aborted, cut)).toBe(true);
  });

  it('keeps its finding when it failed on replies it got in full, and everything when the run was not interrupted', () => {
    expect(interruptedBy(new ConformanceFailure(['ORG-X'], 'a real failure'), aborted, whole)).toBe(false);
    expect(interruptedBy(new StopCheck('omit', 'not configured'), aborted, whole)).toBe(false);
    expect(interruptedBy(new CouldNotJudge('no reply'), live, cut)).toBe(false);
  });
});

describe('the outcome of an interrupted run', () => {
  const base = {
    checks: [{ verdict: 'pass', service: 'organization', note: undefined }],
    cleanup: {
      sources: { attempted: 3, deleted: 3, alreadyGone: 0 },
      relationships: { attempted: 0, deleted: 0, alreadyGone: 0 },
      failures: [],
    },
    gate: {
      verdict: 'pass',
      gating: [],
      expected: [],
      pending: [],
      expectOnly: [],
      incomplete: [],
      unexpectedPasses: [],
      graduated: [],
    },
    totals: { checks: 1, pass: 1, fail: 0, error: 0, skip: 0, omit: 0 },
    overall: 'pass',
    scope: { suiteFiles: 1, selectedFiles: [], notRunChecks: 4 },
  } as unknown as Summary;
  const interrupted = (signal: 'SIGINT' | 'SIGTERM'): Summary => ({
    ...base,
    interrupted: { signal, reason: `${signal} to npm`, at: '' },
  });

  it('exits 130 after SIGINT and 143 after SIGTERM, whatever the gate says, and says INTERRUPTED first', () => {
    expect(exitCodeOf(interrupted('SIGINT'))).toBe(130);
    expect(exitCodeOf(interrupted('SIGTERM'))).toBe(143);
    expect(exitCodeOf(base)).toBe(0);
    expect(headline(interrupted('SIGTERM'))).toBe(
      'INTERRUPTED by SIGTERM (exit code 143) after 1 of 5 checks ended; 4 not run',
    );
  });

  it('records left on the deployment still win (exit code 4)', () => {
    const left = {
      ...interrupted('SIGTERM'),
      cleanup: { ...base.cleanup!, failures: [{ service: 'organization', what: 'x', reason: 'y' }] },
    };
    expect(exitCodeOf(left as Summary)).toBe(4);
  });
});
