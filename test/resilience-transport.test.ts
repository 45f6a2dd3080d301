/**
 * Resilience against a deployment that misbehaves at the transport level (test/support/
 * faulty-server.ts): timeouts bound every request, retries only where safe and visible in the
 * exchange, 429 + Retry-After honoured, client-side rate limit, and a reply that is not JSON or
 * not an envelope is a reported conformance failure with the raw body, never a crash.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceClient } from '../harness/client.js';
import { localClient } from './support/local-client.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Check } from '../harness/check.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { RETRY_BASE_MS } from '../harness/retry-policy.js';
import { ConformanceFailure, CouldNotJudge } from '../harness/verdict.js';
import { seededFaker } from '../generators/seed.js';
import { type Behaviour, type FaultyServer, closedPort, startFaultyServer } from './support/faulty-server.js';

const profile = resolveProfile(loadProfile(undefined), false);
const run = new RunContext(`rt-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-resilience-')));
let server: FaultyServer | undefined;
const clients: ServiceClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
});

async function clientFor(
  script: Behaviour[] | { url: string },
  options: { timeoutMs?: number; retries?: number; ratePerSecond?: number } = {},
) {
  const url = Array.isArray(script) ? (server = await startFaultyServer(script)).url : script.url;
  const c = localClient(url, profile, run, {
    timeoutMs: options.timeoutMs ?? 2000,
    maxInFlight: 4,
    retries: options.retries ?? 2,
    ...(options.ratePerSecond ? { ratePerSecond: options.ratePerSecond } : {}),
  });
  clients.push(c);
  return c;
}

const own = () => ({ name: 'cf_test_a', id: run.newNativeId() });

describe('timeouts', () => {
  it('a reply that never arrives ends at CONFORMANCE_TIMEOUT_MS with a transport error, not a hang', async () => {
    const c = await clientFor([{ kind: 'hang' }], { timeoutMs: 500 });
    const t0 = Date.now();
    const r = await c.call('identityIdQuery', { linkId: 'X' });
    const took = Date.now() - t0;
    expect(r.exchange.error).toMatch(/no reply within 500 ms/);
    expect(r.exchange.retries ?? [], 'a timeout is not retried (the run stays bounded)').toEqual([]);
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(1500);
  });

  it("the run's stop ends a request waiting for its reply at once, said as an interrupt, and frees its connection", async () => {
    const c = await clientFor([{ kind: 'hang' }], { timeoutMs: 5000 });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const t0 = Date.now();
    const r = await c.call('identityIdQuery', { linkId: 'X' }, { signal: stop.signal });
    expect(r.exchange.error).toMatch(/^interrupted: the run was stopped/);
    // The request itself is cut off too: closing the client waits for requests under way.
    clients.splice(clients.indexOf(c), 1);
    await c.close();
    expect(Date.now() - t0).toBeLessThan(2500);
  });

  it('a slow reply within the timeout is accepted', async () => {
    const c = await clientFor([{ kind: 'slow', ms: 300 }], { timeoutMs: 2000 });
    const r = await c.call('identityIdQuery', { linkId: 'X' });
    expect(r.exchange.error).toBeUndefined();
    expect(r.success).toBe(true);
  });
});

describe('retries', () => {
  it.each([
    ['HTTP 503', { kind: 'status', status: 503 } as Behaviour],
    ['HTTP 502 on a read', { kind: 'status', status: 502 } as Behaviour],
    ['HTTP 504 on a read', { kind: 'status', status: 504 } as Behaviour],
    ['retryableError=true', { kind: 'retryable' } as Behaviour],
    ['a connection reset on a read', { kind: 'reset' } as Behaviour],
  ])('%s is retried with backoff and each retry is in the exchange', async (_name, first) => {
    const c = await clientFor([first, first, { kind: 'ok' }]);
    const r = await c.call('nativeIdQuery', { source: own() });
    expect(r.success).toBe(true);
    expect(server!.requests).toHaveLength(3);
    expect(r.exchange.retries).toHaveLength(2);
    // Exponential backoff with jitter (factor 2, each wait randomised between 1x and 2x its step):
    // the first wait is at least the base, the second at least twice the base.
    expect(r.exchange.retries![0]!.waitedMs).toBeGreaterThanOrEqual(RETRY_BASE_MS - 10);
    expect(r.exchange.retries![1]!.waitedMs).toBeGreaterThanOrEqual(2 * RETRY_BASE_MS - 10);
  });

  it('gives up after the cap and returns the last failure', async () => {
    const c = await clientFor([{ kind: 'status', status: 503 }], { retries: 2 });
    const r = await c.call('identityIdQuery', { linkId: 'X' });
    expect(r.status).toBe(503);
    expect(server!.requests).toHaveLength(3);
    expect(r.exchange.retries).toHaveLength(2);
  });

  it.each([500, 400, 404])('HTTP %i is not retried', async (status) => {
    const c = await clientFor([{ kind: 'status', status }, { kind: 'ok' }]);
    const r = await c.call('identityIdQuery', { linkId: 'X' });
    expect(r.status).toBe(status);
    expect(server!.requests).toHaveLength(1);
  });

  it('a merge whose outcome is unknown (HTTP 502, reset) is never re-sent', async () => {
    for (const first of [{ kind: 'status', status: 502 }, { kind: 'reset' }] as Behaviour[]) {
      const c = await clientFor([first, { kind: 'ok' }]);
      const r = await c.call('mergeIdentities', { toSurviveSource: own(), toRetireSource: own() });
      expect(server!.requests, `${first.kind}`).toHaveLength(1);
      expect(r.exchange.retries ?? []).toEqual([]);
      await server!.close();
      server = undefined;
    }
  });

  it('a merge refused before processing (HTTP 503, retryableError) is re-sent', async () => {
    const c = await clientFor([{ kind: 'retryable' }, { kind: 'ok' }]);
    const r = await c.call('mergeIdentities', { toSurviveSource: own(), toRetireSource: own() });
    expect(r.success).toBe(true);
    expect(server!.requests).toHaveLength(2);
  });

  it('postIdentity is retried after HTTP 502 (re-posting the same source is an update)', async () => {
    const c = await clientFor([{ kind: 'status', status: 502 }, { kind: 'ok' }]);
    const r = await c.call('postIdentity', { identity: { sources: [own()] } });
    expect(r.success).toBe(true);
    expect(server!.requests).toHaveLength(2);
    expect(server!.requests[0]!.body).toBe(server!.requests[1]!.body);
  });

  it('an unreachable host is retried, then reported as a transport error', async () => {
    const c = await clientFor({ url: `http://127.0.0.1:${await closedPort()}` });
    const r = await c.call('identityIdQuery', { linkId: 'X' });
    expect(r.exchange.error).toMatch(/ECONNREFUSED/);
    expect(r.exchange.retries).toHaveLength(2);
  });

  it('HTTP 429 with Retry-After waits the given time before the retry', async () => {
    const c = await clientFor([
      { kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: '{}' },
      { kind: 'ok' },
    ]);
    const r = await c.call('identityIdQuery', { linkId: 'X' });
    expect(r.success).toBe(true);
    expect(server!.requests[1]!.at - server!.requests[0]!.at).toBeGreaterThanOrEqual(950);
    // At least Retry-After, plus at most the first backoff step (randomised up to twice RETRY_BASE_MS).
    // The pause starts when the throttled reply is handled, a few ms before the attempt counts as ended.
    expect(r.exchange.retries![0]!.waitedMs).toBeGreaterThanOrEqual(980);
    expect(r.exchange.retries![0]!.waitedMs).toBeLessThan(1000 + 2 * RETRY_BASE_MS + 300);
  });
});

describe('rate limit', () => {
  it('CONFORMANCE_RATE_LIMIT spaces requests per service', async () => {
    const c = await clientFor([{ kind: 'ok' }], { ratePerSecond: 10 });
    await Promise.all(Array.from({ length: 6 }, () => c.call('identityIdQuery', { linkId: 'X' })));
    const at = server!.requests.map((r) => r.at);
    expect(at[5]! - at[0]!).toBeGreaterThanOrEqual(450);
  });
});

describe('replies that are not JSON envelopes', () => {
  const check = (c: ServiceClient) => new Check('organization', ['ORG-ENV-REPLY'], seededFaker(1), c, profile, run);
  it.each([
    ['a non-JSON body', { kind: 'non-json' } as Behaviour, /not a JSON object: <html>/],
    ['a truncated JSON body', { kind: 'truncated' } as Behaviour, /not a JSON object: \{"auditId"/],
    ['JSON that is not an envelope', { kind: 'not-envelope' } as Behaviour, /not a JSON object/],
    [
      'an HTML 500 page',
      { kind: 'status', status: 500 } as Behaviour,
      /HTTP 500 with a body that is not a JSON object: <html>/,
    ],
  ])('%s is a conformance failure citing ENV-REPLY with the raw body, not a crash', async (_name, b, message) => {
    const c = await clientFor([b]);
    const t = check(c);
    const e = await t.call('identityIdQuery', { linkId: 'X' }).catch((x) => x);
    expect(e).toBeInstanceOf(ConformanceFailure);
    expect((e as ConformanceFailure).requirements).toEqual(['ORG-ENV-REPLY']);
    expect((e as Error).message).toMatch(message);
    expect(t.exchanges).toHaveLength(1);
    expect(t.exchanges[0]!.reply?.text ?? JSON.stringify(t.exchanges[0]!.reply?.body)).toBeTruthy();
  });

  it('a transport failure is "could not judge" with the exchange recorded', async () => {
    const c = await clientFor([{ kind: 'hang' }], { timeoutMs: 300 });
    const t = check(c);
    const e = await t.call('identityIdQuery', { linkId: 'X' }).catch((x) => x);
    expect(e).toBeInstanceOf(CouldNotJudge);
    expect(t.exchanges[0]!.error).toMatch(/no reply within/);
  });
});
