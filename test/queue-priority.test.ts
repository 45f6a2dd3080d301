/**
 * The queue for a place in flight (harness/transport.ts): a request of a chain check (a walk, a
 * tour, the one-threshold check: harness/register.ts CheckOptions.chain) goes before the requests
 * of other checks that wait, so a chain of dependent requests is not held up behind bursts; a
 * request of the run's longest chains (the generated walks: CheckOptions.chain 'longest') goes
 * before both; among requests of one priority the first to come goes first.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { type FaultyServer, startFaultyServer } from './support/faulty-server.js';
import { localClient } from './support/local-client.js';

const profile = resolveProfile(loadProfile(undefined), false);
const run = new RunContext(`qp-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-queue-')));
const closing: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c.close();
});

describe('the queue for a place in flight', () => {
  it('lets a chain check request go before the waiting requests of other checks, and keeps arrival order otherwise', async () => {
    const server: FaultyServer = await startFaultyServer([{ kind: 'slow', ms: 50 }]);
    closing.push(server);
    const client = localClient(server.url, profile, run, { timeoutMs: 5000, maxInFlight: 1, retryBudgetMs: 0 });
    closing.push(client);
    const read = (linkId: string, priority?: number) =>
      client.call('identityIdQuery', { linkId }, priority !== undefined ? { priority } : {});
    // One place: the first request takes it, the others wait in the queue.
    const sent = [
      read('ORG-1'),
      read('ORG-2'),
      read('ORG-3'),
      read('ORG-CHAIN', 1),
      read('ORG-4'),
      read('ORG-WALK', 2),
    ];
    await Promise.all(sent);
    const order = server.requests.map((r) => JSON.parse(r.body).content.linkId);
    expect(order).toEqual(['ORG-1', 'ORG-WALK', 'ORG-CHAIN', 'ORG-2', 'ORG-3', 'ORG-4']);
  });
});
