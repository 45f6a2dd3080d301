/**
 * Adaptive pacing per service (harness/pacing.ts) through the transport, against local servers on
 * 127.0.0.1: a 429 with Retry-After pauses every request of the service (also those of another
 * client sharing the pacing, as the run's threads do), a 429 without it pauses THROTTLE_PAUSE_MS;
 * repeated throttling behind a gateway of N requests/s lowers the in-flight bound and the rate
 * until the gateway stops refusing, and both recover after a quiet spell; retries of a safe
 * request are bounded by time, not by a count; a service that answers nothing opens the circuit.
 * Source: README, settings (CONFORMANCE_RETRY_BUDGET_MS, CONFORMANCE_MAX_IN_FLIGHT, CONFORMANCE_RATE_LIMIT).
 */
import { mkdtempSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceClient } from '../harness/client.js';
import { localClient } from './support/local-client.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_PAUSE_MS,
  QUIET_SPELL_MS,
  RECOVERY_STEP_MS,
  ServicePacing,
  THROTTLE_PAUSE_MS,
  sharedPacing,
} from '../harness/pacing.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { retryAfterMs } from '../harness/retry-policy.js';
import { BREAKER_FAILURES, BREAKER_HALF_OPEN_MS, CIRCUIT_OPEN, OUTAGE_REOPENINGS } from '../harness/transport.js';
import { throttled } from '../reference/variants/transport.js';
import { type Behaviour, type FaultyServer, startFaultyServer } from './support/faulty-server.js';

const profile = resolveProfile(loadProfile(undefined), false);
const run = new RunContext(`ap-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-pacing-')));
const clients: ServiceClient[] = [];
const servers: Array<{ close(): unknown }> = [];

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const s of servers.splice(0)) await s.close();
});

function clientOf(
  url: string,
  options: { maxInFlight?: number; retryBudgetMs?: number; pacing?: SharedArrayBuffer; retries?: number } = {},
) {
  const c = localClient(url, profile, run, {
    timeoutMs: 5000,
    maxInFlight: options.maxInFlight ?? 8,
    retryBudgetMs: options.retryBudgetMs ?? 30000,
    ...options,
  });
  clients.push(c);
  return c;
}

async function faulty(script: Behaviour[]): Promise<FaultyServer> {
  const s = await startFaultyServer(script);
  servers.push(s);
  return s;
}

const read = (c: ServiceClient) => c.call('identityIdQuery', { linkId: 'ORG-X' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A gateway of `perSecond` requests per second (the reference variant `throttled`, Retry-After: 1
 * unless `bare`) in front of a service that answers every request; records when each request
 * arrived and whether it was let through, and the most requests open at once.
 */
async function gateway(perSecond: number, bare = false) {
  const [hook] = throttled(perSecond, bare ? {} : { retryAfterSeconds: 1 });
  const arrivals: Array<{ at: number; passed: boolean }> = [];
  let open = 0;
  let most = 0;
  const server: Server = createServer(async (req, res) => {
    open++;
    most = Math.max(most, open);
    res.on('close', () => open--);
    const refused = await hook!.intercept!({ service: 'organization', operation: 'identityIdQuery', req, res });
    arrivals.push({ at: Date.now(), passed: !refused });
    if (refused) return;
    req.resume();
    // A little service time, so that requests overlap as against a real deployment.
    await sleep(5);
    const text = JSON.stringify({
      success: true,
      message: 'OK',
      errors: [],
      warnings: [],
      retryableError: false,
      content: { linkId: null },
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({ close: () => new Promise((r) => server.close(r)) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, most: () => most };
}

describe('a throttled reply pauses the whole service', () => {
  it('429 with Retry-After holds back the other requests of the service too, for the time asked', async () => {
    const s = await faulty([
      { kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: '{}' },
      { kind: 'ok' },
    ]);
    const c = clientOf(s.url);
    const first = read(c);
    await sleep(150); // the 429 has come back: the service is paused
    const second = await read(c);
    expect((await first).success).toBe(true);
    expect(second.success).toBe(true);
    expect(s.requests).toHaveLength(3);
    // The second request (not itself throttled) went only once the pause was over.
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(s.requests[2]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('the pause holds for another client sharing the pacing (the run shares it between its threads)', async () => {
    const s = await faulty([
      { kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: '{}' },
      { kind: 'ok' },
    ]);
    const shared = sharedPacing(3);
    const a = clientOf(s.url, { pacing: shared });
    const b = clientOf(s.url, { pacing: shared });
    const first = read(a);
    await sleep(150);
    const other = await read(b);
    await first;
    expect(other.success).toBe(true);
    const fromB = s.requests.slice(1).map((r) => r.at - s.requests[0]!.at);
    expect(Math.min(...fromB)).toBeGreaterThanOrEqual(950);
  });

  it(`429 without Retry-After pauses THROTTLE_PAUSE_MS (${THROTTLE_PAUSE_MS} ms)`, async () => {
    const s = await faulty([{ kind: 'status', status: 429, body: '{}' }, { kind: 'ok' }]);
    const c = clientOf(s.url);
    const r = await read(c);
    expect(r.success).toBe(true);
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(THROTTLE_PAUSE_MS - 50);
  });

  it('a 503 with Retry-After is throttling too, and throttled retries are not counted against CONFORMANCE_RETRIES', async () => {
    const s = await faulty([
      { kind: 'status', status: 503, headers: { 'retry-after': '1' }, body: '{}' },
      { kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: '{}' },
      { kind: 'ok' },
    ]);
    const c = clientOf(s.url, { retries: 0 });
    const r = await read(c);
    // Two throttled replies (503 with Retry-After counts as one), each waited out, with no retry left to count.
    expect(r.success).toBe(true);
    expect(s.requests).toHaveLength(3);
    expect(r.exchange.retries?.map((x) => x.status)).toEqual([503, 429]);
  });

  it('a Retry-After above MAX_PAUSE_MS pauses MAX_PAUSE_MS; seconds or an HTTP date are read', () => {
    expect(retryAfterMs('120')).toBe(MAX_PAUSE_MS);
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('behind a gateway of N requests per second', () => {
  it('repeated throttling lowers the in-flight bound and the rate, and every request gets through', async () => {
    const g = await gateway(10);
    const shared = sharedPacing(3);
    const c = clientOf(g.url, { pacing: shared, maxInFlight: 8 });
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: 60 }, () => read(c)));
    const took = Date.now() - started;
    expect(replies.every((r) => r.success === true)).toBe(true);
    const f = new ServicePacing(shared, 0, 8).figures();
    expect(f.throttled).toBeGreaterThan(0);
    expect(f.pausedMs).toBeGreaterThanOrEqual(900);
    expect(f.bound.lowest).toBeLessThan(8);
    expect(f.rate.lowest).toBeLessThanOrEqual(10);
    expect(f.attempts).toBe(g.arrivals.length);
    // After the first second (a burst the client learns from), refusals are rare: the rate was learned.
    const later = g.arrivals.filter((a) => a.at - started > 2500);
    const refusedLater = later.filter((a) => !a.passed).length;
    expect(refusedLater / Math.max(1, later.length)).toBeLessThan(0.2);
    // 60 requests at most 10 a second take at least 5 s.
    expect(took).toBeGreaterThanOrEqual(5000);
  }, 60000);

  it('429 without Retry-After is paced the same way', async () => {
    const g = await gateway(10, true);
    const c = clientOf(g.url);
    const replies = await Promise.all(Array.from({ length: 30 }, () => read(c)));
    expect(replies.every((r) => r.success === true)).toBe(true);
    expect(g.arrivals.filter((a) => !a.passed).length).toBeGreaterThan(0);
  }, 60000);
});

describe('recovery after a quiet spell', () => {
  it('bound and rate rise step by step without throttling, and the run settings apply again after QUIET_SPELL_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.now();
    const p = ServicePacing.local(8);
    for (let i = 0; i < 20; i++) p.ended(t0, { kind: 'answered' });
    p.ended(t0, { kind: 'throttled', pauseMs: 0 });
    expect(p.bound()).toBe(4);
    expect(p.rate()).toBe(15); // 20 accepted in the last second, times 0.75
    // A reply to a request sent before the decrease does not lower it again.
    p.ended(t0, { kind: 'throttled', pauseMs: 0 });
    expect(p.bound()).toBe(4);
    vi.setSystemTime(t0 + 2 * RECOVERY_STEP_MS + 10);
    await p.ready();
    expect(p.bound()).toBe(6);
    expect(p.rate()!).toBeGreaterThan(15);
    vi.setSystemTime(t0 + QUIET_SPELL_MS + 10);
    await p.ready();
    expect(p.bound()).toBe(8);
    expect(p.rate()).toBeUndefined();
    const f = p.figures();
    expect(f.bound).toEqual({ ceiling: 8, lowest: 4, final: 8 });
    expect(f.rate.lowest).toBe(15);
    expect(f.throttled).toBe(2);
  });
});

describe('retries bounded by a time budget', () => {
  it('a read answered 503 again and again is retried until the budget is spent, not after a small count', async () => {
    const s = await faulty([{ kind: 'status', status: 503 }]);
    // The first three backoffs take 1.4 to 2.8 s (RETRY_BASE_MS doubling, randomised up to twice as
    // long): within a 4 s budget a fourth attempt always goes (with 2.5 s it did not in 9 % of runs).
    const c = clientOf(s.url, { retryBudgetMs: 4000 });
    const t0 = Date.now();
    const r = await read(c);
    const took = Date.now() - t0;
    expect(r.status).toBe(503);
    expect(s.requests.length).toBeGreaterThan(3);
    expect(r.exchange.retries).toHaveLength(s.requests.length - 1);
    expect(took).toBeGreaterThanOrEqual(3500);
    expect(took).toBeLessThan(4000 + 1500);
  });

  it('the budget runs from the first attempt: a request that waited long for a place in the in-flight bound is still retried', async () => {
    // One request in flight at a time: the sixth waits about 1.5 s in the queue, longer than the budget, then meets a 503.
    const s = await faulty([
      ...Array(5).fill({ kind: 'slow', ms: 300 }),
      { kind: 'status', status: 503 },
      { kind: 'ok' },
    ]);
    const c = clientOf(s.url, { maxInFlight: 1, retryBudgetMs: 1000 });
    const replies = await Promise.all(Array.from({ length: 6 }, () => read(c)));
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(replies[5]!.exchange.retries?.map((x) => x.status)).toEqual([503]);
  });

  it('a budget of 0 sends once', async () => {
    const s = await faulty([{ kind: 'status', status: 503 }]);
    await read(clientOf(s.url, { retryBudgetMs: 0 }));
    expect(s.requests).toHaveLength(1);
  });

  it('a merge whose outcome is unknown is still never re-sent', async () => {
    const s = await faulty([{ kind: 'reset' }, { kind: 'ok' }]);
    const c = clientOf(s.url);
    await c.call('mergeIdentities', {
      toSurviveSource: { name: 'cf_test_a', id: run.newNativeId() },
      toRetireSource: { name: 'cf_test_a', id: run.newNativeId() },
    });
    expect(s.requests).toHaveLength(1);
  });
});

describe('a service that answers nothing', () => {
  it(`opens the circuit after ${BREAKER_FAILURES} attempts in a row failed: later requests fail at once, unsent`, async () => {
    const s = await faulty([{ kind: 'status', status: 503 }]);
    const c = clientOf(s.url, { retryBudgetMs: 0 });
    for (let i = 0; i < BREAKER_FAILURES; i++) await read(c);
    expect(s.requests).toHaveLength(BREAKER_FAILURES);
    const t0 = Date.now();
    const r = await read(c);
    expect(Date.now() - t0).toBeLessThan(100);
    expect(r.exchange.error).toMatch(new RegExp(`^${CIRCUIT_OPEN}`));
    expect(s.requests).toHaveLength(BREAKER_FAILURES);
  });

  it('a restart passes: requests that meet the open circuit wait for its trial request and are answered once the service is back', async () => {
    // Down (HTTP 503, no Retry-After) for 3 s from the first request, as the reference variant `restarts` is.
    let until = 0;
    const server = createServer((req, res) => {
      until ||= Date.now() + 3000;
      req.resume();
      if (Date.now() < until) return void res.writeHead(503).end('restarting');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ success: true, content: { linkId: 'ORG-X' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    servers.push({ close: () => new Promise((r) => server.close(r)) });
    const c = clientOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { maxInFlight: 4 });
    const replies = await Promise.all(Array.from({ length: 12 }, () => read(c)));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
    const reasons = replies.flatMap((r) => r.exchange.retries ?? []).map((x) => x.reason);
    expect(reasons.some((x) => x.startsWith(CIRCUIT_OPEN))).toBe(true);
  });

  it(`a service that stays down: requests that met the open circuit give up once it opened ${OUTAGE_REOPENINGS} more times, long before the budget`, async () => {
    const s = await faulty([{ kind: 'status', status: 503 }]);
    const c = clientOf(s.url, { maxInFlight: 4, retryBudgetMs: 60000 });
    const t0 = Date.now();
    const replies = await Promise.all(Array.from({ length: 8 }, () => read(c)));
    // Each ends unsent at the open circuit, or (sent as its trial) with the service's 503.
    for (const r of replies) expect(r.exchange.error?.startsWith(CIRCUIT_OPEN) || r.status === 503).toBe(true);
    expect(replies.some((r) => r.exchange.error?.startsWith(CIRCUIT_OPEN))).toBe(true);
    expect(Date.now() - t0).toBeLessThan((OUTAGE_REOPENINGS + 1) * BREAKER_HALF_OPEN_MS + 5000);
  }, 40000);

  it('throttled replies do not open it (the service answers)', async () => {
    const s = await faulty([{ kind: 'status', status: 429, headers: { 'retry-after': '0' }, body: '{}' }]);
    const c = clientOf(s.url, { retryBudgetMs: 0 });
    for (let i = 0; i < BREAKER_FAILURES + 2; i++) await read(c);
    expect(s.requests).toHaveLength(BREAKER_FAILURES + 2);
  });
});
