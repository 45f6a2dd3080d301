/**
 * linkage/cleanup.ts: the match-quality run removes its records from the ledger with at most
 * `maxInFlight` removals under way (not every removal prepared at once and queued in the client),
 * and still removes every one of them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { postContent } from '../generators/common.js';
import { type CallOptions, ServiceClient } from '../harness/client.js';
import type { Reply } from '../harness/reply.js';
import type { OperationName } from '../specs/common/operation-names.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext, newRunId } from '../harness/run.js';
import { removeRunRecords } from '../linkage/cleanup.js';
import { type RunningReference, startReference } from '../reference/server.js';
import { referenceTarget } from '../run/deployments.js';

const profile = resolveProfile(loadProfile(), true);
let reference: RunningReference;
afterAll(async () => reference?.stop());

it('removes every record of the run with at most maxInFlight removals under way', async () => {
  reference = await startReference();
  const target = referenceTarget(reference, 'organization', profile);
  const run = new RunContext(newRunId(), mkdtempSync(join(tmpdir(), 'mq-cleanup-')));
  const client = new ServiceClient(target, profile, run, { timeoutMs: 30000, maxInFlight: 8 });
  for (let i = 0; i < 30; i++) {
    const source = { name: target.sources[0]!, id: run.newNativeId() };
    const identity = { organizationNames: [{ legalBusinessName: `Cleanup Test ${i} LLC` }] };
    expect((await client.call('postIdentity', postContent(identity, source, profile.sourcePlacement))).success).toBe(
      true,
    );
  }
  await client.close();
  expect(reference.stores.get('organization')!.records.size).toBe(30);

  // Calls under way at once, counted at the client (a call waiting for a place in the transport counts).
  const call = ServiceClient.prototype.call;
  let underWay = 0;
  let most = 0;
  ServiceClient.prototype.call = async function <O extends OperationName>(
    this: ServiceClient,
    op: O,
    content: unknown,
    options?: CallOptions,
  ) {
    underWay++;
    most = Math.max(most, underWay);
    try {
      return await call.call<ServiceClient, [O, unknown, CallOptions?], Promise<Reply<O>>>(this, op, content, options);
    } finally {
      underWay--;
    }
  };
  try {
    const result = await removeRunRecords(run, { organization: target }, profile, { timeoutMs: 30000, maxInFlight: 3 });
    expect(result.sources).toEqual({ attempted: 30, deleted: 30, alreadyGone: 0 });
    expect(result.failures).toEqual([]);
  } finally {
    ServiceClient.prototype.call = call;
  }
  expect(reference.stores.get('organization')!.records.size).toBe(0);
  expect(most).toBeGreaterThan(1);
  expect(most).toBeLessThanOrEqual(3);
});
