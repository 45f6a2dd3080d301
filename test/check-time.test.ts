/**
 * A check's time to send (harness/check.ts Check.sendBy, set by harness/register.ts sendBy): past
 * it a check sends nothing and ends "could not judge" (INCOMPLETE), never stopped mid-request by
 * its time limit (an error that gates); retries stop there too; and a walk check whose deployment
 * answers too slowly for its budget runs shorter walks, judged (scenarios/shared/walk/walk.ts
 * WALK_STEPS_SHARE), instead of running out of time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Check } from '../harness/check.js';
import type { ServiceClient } from '../harness/client.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { sendBy } from '../harness/register.js';
import { RunContext } from '../harness/run.js';
import { TimeRanOut } from '../harness/verdict.js';
import { ATTEMPT_GRACE_MS } from '../harness/transport.js';
import { seededFaker } from '../generators/seed.js';
import { type FaultyServer, startFaultyServer } from './support/faulty-server.js';
import { localClient } from './support/local-client.js';
import { runWalkCheck } from './support/walk-runner.js';

const profile = resolveProfile(loadProfile(undefined), false);
const run = new RunContext(`ct-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-check-time-')));
const closing: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c.close();
});

async function against(server: FaultyServer): Promise<{ t: Check; client: ServiceClient }> {
  closing.push(server);
  const client = localClient(server.url, profile, run, { timeoutMs: 2000, maxInFlight: 2, retryBudgetMs: 30000 });
  closing.push(client);
  return { t: new Check('organization', ['ORG-ENV-REPLY'], seededFaker(1), client, profile, run), client };
}

describe("a check's time to send", () => {
  it('is its time limit less 10 s, at least half the limit; none without a limit', () => {
    expect(sendBy(1000, 150000)).toBe(1000 + 140000);
    expect(sendBy(1000, 16000)).toBe(1000 + 8000);
    expect(sendBy(1000, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('ends an attempt under way at most ATTEMPT_GRACE_MS after it, whatever the request timeout', async () => {
    // A deployment that never answers; the request timeout (2 s) would end the attempt later than the check's time allows.
    const server = await startFaultyServer([{ kind: 'hang' }]);
    const { t } = await against(server);
    t.sendBy = Date.now() - ATTEMPT_GRACE_MS + 300;
    const reply = await t.client.call('identityIdQuery', { linkId: 'ORG-X' }, { until: t.sendBy });
    expect(reply.exchange.error).toMatch(/no reply within \d+ ms, when the check's time ran out/);
    expect(reply.exchange.durationMs).toBeLessThan(2000);
  });

  it('once spent, a request is not sent and the check could not judge', async () => {
    const server = await startFaultyServer([{ kind: 'ok' }]);
    const { t } = await against(server);
    t.sendBy = Date.now() - 1;
    await expect(t.raw('identityIdQuery', { linkId: 'ORG-X' })).rejects.toBeInstanceOf(TimeRanOut);
    expect(server.requests).toHaveLength(0);
    expect(t.exchanges).toHaveLength(0);
  });

  it('ends the retries of a request under way, whatever is left of the retry budget', async () => {
    // Every attempt fails transiently; the retry budget (30 s) would keep retrying long after.
    const server = await startFaultyServer([{ kind: 'status', status: 503 }]);
    const { t } = await against(server);
    t.sendBy = Date.now() + 1500;
    const reply = await t.client.call('identityIdQuery', { linkId: 'ORG-X' }, { until: t.sendBy });
    expect(reply.status).toBe(503);
    expect(reply.exchange.durationMs).toBeLessThan(10000);
    expect(server.requests.length).toBeGreaterThan(1);
  });
});

describe('walk checks short of time', () => {
  it('run shorter walks, judged, and say so, where the time to send would not hold the plan', async () => {
    // 30 ms a request: the planned walks of the embedded scope take far longer than 10 s; steps start within 60 % of it.
    const result = await runWalkCheck('organization', 7, [], {
      tours: false,
      variants: ['latency=30'],
      sendWithinMs: 10_000,
    });
    expect(result.verdict, result.message).toBe('pass');
    expect(result.note).toMatch(
      /the check's time was short for this deployment .*: \d+ situations the walks aimed at were not reached/,
    );
    expect([...result.situations.notReached.values()]).toContain("the check's time ran out before the walk reached it");
    expect(result.situations.judged.size).toBeGreaterThan(0);
  });
});
