/**
 * A reply that is still transient after the retries (HTTP 429/502/503/504, retryableError=true
 * to a valid request, no reply) is "could not judge", never a failure, a rejection or an
 * absence; a deliberately invalid request answered retryableError=true is the deployment's
 * answer (judged by ERR-NOT-RETRYABLE); an enveloped failure is a rejection whatever its status.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceClient } from '../harness/client.js';
import { localClient } from './support/local-client.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Check } from '../harness/check.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { type Reply, isAbsent, isRejection, isTransient } from '../harness/reply.js';
import { RunContext } from '../harness/run.js';
import { CouldNotJudge } from '../harness/verdict.js';
import { seededFaker } from '../generators/seed.js';
import { type Behaviour, type FaultyServer, startFaultyServer } from './support/faulty-server.js';

const run = new RunContext('transient-test', mkdtempSync(join(tmpdir(), 'cf-transient-')));
const profile = resolveProfile(loadProfile(undefined), false);
let server: FaultyServer | undefined;
const clients: ServiceClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
});

async function checkAgainst(script: Behaviour[]) {
  server = await startFaultyServer(script);
  const c = localClient(server.url, profile, run, { timeoutMs: 2000, maxInFlight: 2, retries: 1, retryBudgetMs: 3000 });
  clients.push(c);
  return new Check('organization', ['ORG-ENV-REPLY'], seededFaker(1), c, profile, run);
}

const envelopeBody = (extra: Record<string, unknown>) =>
  JSON.stringify({
    success: false,
    message: 'no',
    errors: ['no'],
    warnings: [],
    retryableError: false,
    content: null,
    ...extra,
  });

describe('transient replies after retries', () => {
  it.each([
    ['HTTP 503', { kind: 'status', status: 503 } as Behaviour],
    ['HTTP 429', { kind: 'status', status: 429, body: envelopeBody({}) } as Behaviour],
    ['retryableError=true', { kind: 'retryable' } as Behaviour],
    ['HTTP 504 on a read', { kind: 'status', status: 504 } as Behaviour],
  ])('%s is "could not judge" for call, ok and raw', async (_name, b) => {
    for (const send of ['call', 'ok', 'raw'] as const) {
      const t = await checkAgainst([b]);
      const e = await t[send]('nativeIdQuery', { source: { name: 'cf_test_a', id: 'x' } }).catch((x) => x);
      expect(e, send).toBeInstanceOf(CouldNotJudge);
      expect((e as Error).message).toMatch(/transient reply is not judged/);
      await server!.close();
      server = undefined;
    }
  });

  it('a transient reply is neither a rejection nor an absence', () => {
    const reply = (status: number | undefined, body?: Record<string, unknown>, error?: string): Reply => ({
      exchange: {
        service: 'organization',
        operation: 'x',
        method: 'POST',
        url: '',
        startedAt: '',
        durationMs: 0,
        request: { headers: {}, body: null },
        ...(error ? { error } : {}),
      },
      status,
      body,
      content: body?.content as Reply['content'],
      success: body?.success as boolean | undefined,
    });
    for (const r of [
      reply(503, { success: false }),
      reply(200, { success: false, retryableError: true }),
      reply(undefined, undefined, 'ECONNRESET: reset'),
      reply(429),
    ]) {
      expect(isTransient(r)).toBe(true);
      expect(isRejection(r)).toBe(false);
      expect(isAbsent(r)).toBe(false);
    }
    // Sent invalid on purpose: the retryable flag is the answer (a rejection), a 503 is still transient.
    expect(isRejection(reply(400, { success: false, retryableError: true }), { sentInvalid: true })).toBe(true);
    expect(isRejection(reply(503, { success: false }), { sentInvalid: true })).toBe(false);
    // Statuses other than 200 are not shown: an enveloped failure is a rejection at 409, 422 or 500.
    for (const status of [409, 422, 500])
      expect(isRejection(reply(status, { success: false, retryableError: false }))).toBe(true);
    // Credentials refused are a rejection but never an absence.
    expect(isAbsent(reply(401, { success: false }))).toBe(false);
  });
});

describe('deliberately invalid requests', () => {
  it('an invalid request answered retryableError=true every time is a rejection, after more retries than a valid one', async () => {
    const t = await checkAgainst([{ kind: 'status', status: 400, body: envelopeBody({ retryableError: true }) }]);
    const r = await t.invalid('demographicsSearch', { identity: {}, maxSearchResults: 0 });
    expect(isRejection(r, { sentInvalid: true })).toBe(true);
    expect(r.body?.retryableError).toBe(true);
    expect(server!.requests.length).toBeGreaterThan(2);
  });

  it('an accepted invalid post is quarantined in the ledger and deleted at once', async () => {
    const t = await checkAgainst([
      { kind: 'ok', content: { linkId: null } },
      { kind: 'ok', content: { linkId: 'ORG-BAD-1' } },
      { kind: 'ok', content: {} },
    ]);
    const source = t.invalidSource();
    await t.invalid('postIdentity', { identity: { sources: [source] } });
    expect(server!.requests.map((r) => r.path.split('/').pop())).toEqual([
      'postIdentity',
      'nativeIdQuery',
      'deleteSourceIdentity',
    ]);
    const quarantined = run.entries().filter((e) => e.kind === 'quarantine' && e.source.id === source.id);
    expect(quarantined.map((e) => (e as { linkId?: string }).linkId)).toEqual([undefined, 'ORG-BAD-1']);
    run.refreshQuarantine();
    expect(run.isQuarantined({ linkId: 'ORG-BAD-1' })).toBe(true);
    expect(run.isQuarantined({ identityGroupedBySource: [{ source }] })).toBe(true);
    expect(run.isQuarantined({ linkId: 'ORG-OTHER' })).toBe(false);
  });
});

describe('reads after writes', () => {
  const checkWith = (consistencyBudgetMs: number) => {
    const p = { ...profile, consistencyBudgetMs, pollIntervalMs: 20 };
    const c = localClient('http://127.0.0.1:9', p, run, { timeoutMs: 100, maxInFlight: 1 }, '');
    clients.push(c);
    return new Check('organization', ['ORG-ENV-REPLY'], seededFaker(1), c, p, run);
  };
  const reads = (catchUpAfter: number) => {
    let n = 0;
    return { read: async () => ++n > catchUpAfter, count: () => n };
  };

  it('settle reads until the expected state shows within the budget, and records the lag', async () => {
    const t = checkWith(1000);
    const r = reads(3);
    expect(await t.settle('caught up', r.read, (v) => v)).toBe(true);
    expect(r.count()).toBe(4);
    expect(t.lags.map((l) => l.what)).toEqual(['caught up']);
  });

  it('settle returns the last read when the budget is spent (the caller judges it)', async () => {
    const t = checkWith(100);
    const r = reads(1000);
    expect(await t.settle('never', r.read, (v) => v)).toBe(false);
    expect(r.count()).toBeGreaterThan(1);
  });

  it('settle judges a read that began once the budget was spent, however long the reads before it took', async () => {
    const t = checkWith(100);
    const began: number[] = [];
    const start = Date.now();
    // The first read alone outlasts the budget (a slow or busy machine) and still shows the old state.
    const slow = async () => {
      began.push(Date.now() - start);
      await new Promise((r) => setTimeout(r, began.length === 1 ? 300 : 1));
      return began.length > 1;
    };
    expect(await t.settle('caught up after a slow read', slow, (v) => v)).toBe(true);
    expect(began.length).toBe(2);
    expect(began[1]).toBeGreaterThanOrEqual(100);
  });

  it('with a budget of 0, settle reads once and waitFor reads nothing', async () => {
    const t = checkWith(0);
    const r = reads(1);
    expect(await t.settle('once', r.read, (v) => v)).toBe(false);
    expect(r.count()).toBe(1);
    await t.waitFor('nothing', r.read, (v) => v);
    expect(r.count()).toBe(1);
  });
});
