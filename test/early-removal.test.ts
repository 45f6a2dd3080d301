/**
 * Records of a scenario file whose checks have all ended are removed while the run goes on
 * (run/vitest/early-removal.ts): only that file's, only once no notification file of their service is
 * still to end, each removal written to the ledger so the teardown (harness/cleanup.ts) counts it
 * and sends nothing for it again. Against the reference in this process, so its store shows what
 * is still there.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContent } from '../generators/common.js';
import { organizationIdentity } from '../generators/organization.js';
import { seededFaker } from '../generators/seed.js';
import { cleanupRun, removedOutcomes } from '../harness/cleanup.js';
import type { LedgerEntry } from '../harness/run.js';
import { ServiceClient } from '../harness/client.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { sharedCounters } from '../harness/shared-limit.js';
import { type RunningReference, startReference } from '../reference/server.js';
import { referenceTarget } from '../run/deployments.js';
import { EarlyRemoval } from '../run/vitest/early-removal.js';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({ faults: [] });
});
afterAll(() => ref?.stop());

const MERGE = 'scenarios/organization/merge-link.test.ts';
const SEARCH = 'scenarios/organization/search.test.ts';
const FEED = 'scenarios/organization/notifications.test.ts';

describe('early removal', () => {
  it("removes an ended file's records once no notification file of the service is left, and the teardown counts them without asking again", async () => {
    const profile = resolveProfile(loadProfile(undefined), true);
    const run = new RunContext(`early-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-early-')));
    const target = referenceTarget(ref, 'organization', profile);
    const client = new ServiceClient(target, profile, run, { timeoutMs: 5000, maxInFlight: 4 });
    const faker = seededFaker(11);
    const post = async (file?: string) => {
      const source = { name: target.sources[0]!, id: run.newNativeId() };
      const reply = await client.call(
        'postIdentity',
        postContent(organizationIdentity(faker, source), source, profile.sourcePlacement),
        file ? { file } : {},
      );
      expect(reply.success, JSON.stringify(reply.body)).toBe(true);
      return source.id;
    };
    const merge = [await post(MERGE), await post(MERGE)];
    const search = [await post(SEARCH)];
    const unattributed = [await post()];
    await client.close();
    const stored = () => new Set([...ref.stores.get('organization')!.records.values()].map((r) => r.source.id));
    const held = (ids: string[]) => ids.filter((id) => stored().has(id));

    const removal = new EarlyRemoval(run, { organization: target }, profile, {
      timeoutMs: 5000,
      maxInFlight: 8,
      retryBudgetMs: 0,
      counters: sharedCounters(3),
    });
    removal.selected([MERGE, SEARCH, FEED]);
    removal.fileEnded(MERGE, true);
    await new Promise((r) => setTimeout(r, 300));
    expect(held(merge), 'a notification file of the service has yet to end: nothing goes').toEqual(merge);

    removal.fileEnded(FEED, true);
    await removal.finish();
    expect(held(merge), "the ended file's records").toEqual([]);
    expect(held(search), 'records of a file still running').toEqual(search);
    expect(held(unattributed), 'records no check file is named for').toEqual(unattributed);
    const marks = run.entries().filter((e) => e.kind === 'removed');
    expect(marks.map((e) => e.source?.id).sort()).toEqual([...merge].sort());
    expect(marks.every((e) => e.outcome === 'deleted')).toBe(true);

    removal.fileEnded(SEARCH, true); // after finish: left to the teardown
    const result = await cleanupRun(run, { organization: target }, profile, { timeoutMs: 5000, maxInFlight: 8 });
    expect(held([...merge, ...search, ...unattributed]), 'after the teardown').toEqual([]);
    expect(result.sources).toEqual({
      attempted: 4,
      deleted: 4,
      alreadyGone: 0,
      earlier: { deleted: merge.length, alreadyGone: 0 },
    });
    expect(result.failures).toEqual([]);
  });

  it('keeps the records of a file with a failed check (one that timed out may still be running), while its end still counts for the notification rule', async () => {
    const profile = resolveProfile(loadProfile(undefined), true);
    const run = new RunContext(`early-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-early-')));
    const target = referenceTarget(ref, 'organization', profile);
    const client = new ServiceClient(target, profile, run, { timeoutMs: 5000, maxInFlight: 4 });
    const post = async (file: string, seed: number) => {
      const source = { name: target.sources[0]!, id: run.newNativeId() };
      expect(
        (
          await client.call(
            'postIdentity',
            postContent(organizationIdentity(seededFaker(seed), source), source, profile.sourcePlacement),
            {
              file,
            },
          )
        ).success,
      ).toBe(true);
      return source.id;
    };
    const failed = await post(MERGE, 21);
    const passed = await post(SEARCH, 22);
    await client.close();
    const removal = new EarlyRemoval(run, { organization: target }, profile, {
      timeoutMs: 5000,
      maxInFlight: 8,
      retryBudgetMs: 0,
      counters: sharedCounters(3),
    });
    removal.selected([MERGE, SEARCH, FEED]);
    removal.fileEnded(MERGE, false);
    removal.fileEnded(FEED, false);
    removal.fileEnded(SEARCH, true);
    await removal.finish();
    const stored = new Set([...ref.stores.get('organization')!.records.values()].map((r) => r.source.id));
    expect(stored.has(failed), 'record of the file with a failed check').toBe(true);
    expect(stored.has(passed), 'record of a passing file, once the (failed) notification file ended').toBe(false);
    await cleanupRun(run, { organization: target }, profile, { timeoutMs: 5000, maxInFlight: 8 });
  });

  it("a check's own accepted hard delete is marked removed: the teardown sends nothing for it, and the record it did not delete is removed", async () => {
    const profile = resolveProfile(loadProfile(undefined), true);
    const run = new RunContext(`early-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-early-')));
    const target = referenceTarget(ref, 'organization', profile);
    const client = new ServiceClient(target, profile, run, { timeoutMs: 5000, maxInFlight: 4 });
    const post = async (seed: number) => {
      const source = { name: target.sources[0]!, id: run.newNativeId() };
      const reply = await client.call(
        'postIdentity',
        postContent(organizationIdentity(seededFaker(seed), source), source, profile.sourcePlacement),
      );
      expect(reply.success).toBe(true);
      return source;
    };
    const [deleted, kept] = [await post(31), await post(32)];
    expect((await client.call('deleteSourceIdentity', { source: deleted })).success).toBe(true);
    // A hard delete the deployment refuses (a second one of the same source) marks nothing more.
    expect((await client.call('deleteSourceIdentity', { source: deleted })).success).toBe(false);
    await client.close();
    const marks = run.entries().filter((e) => e.kind === 'removed');
    expect(marks.map((e) => e.source?.id)).toEqual([deleted.id]);
    const result = await cleanupRun(run, { organization: target }, profile, { timeoutMs: 5000, maxInFlight: 8 });
    const stored = new Set([...ref.stores.get('organization')!.records.values()].map((r) => r.source.id));
    expect(stored.has(kept.id), 'the record the check did not delete').toBe(false);
    // Sent again, the removal of the deleted one would be refused and found gone (alreadyGone: 1).
    expect(result.sources, 'the deleted one counted, its removal not sent again').toEqual({
      attempted: 2,
      deleted: 2,
      alreadyGone: 0,
      earlier: { deleted: 1, alreadyGone: 0 },
    });
  });

  it('counts a removal only when no entry creating the same record comes after it', () => {
    const source = { name: 'cf_test_a', id: 'cf-x-1' };
    const created: LedgerEntry = { kind: 'source', service: 'organization', source, at: '' };
    const removed: LedgerEntry = { kind: 'removed', service: 'organization', source, outcome: 'deleted', at: '' };
    expect([...removedOutcomes([created, removed]).keys()]).toHaveLength(1);
    expect([...removedOutcomes([created, removed, created]).keys()], 'posted again after its removal').toHaveLength(0);
  });

  it('removes the records of a file at once when the run holds no notification file of their service', async () => {
    const profile = resolveProfile(loadProfile(undefined), true);
    const run = new RunContext(`early-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-early-')));
    const target = referenceTarget(ref, 'organization', profile);
    const client = new ServiceClient(target, profile, run, { timeoutMs: 5000, maxInFlight: 4 });
    const source = { name: target.sources[0]!, id: run.newNativeId() };
    expect(
      (
        await client.call(
          'postIdentity',
          postContent(organizationIdentity(seededFaker(12), source), source, profile.sourcePlacement),
          {
            file: MERGE,
          },
        )
      ).success,
    ).toBe(true);
    await client.close();
    const removal = new EarlyRemoval(run, { organization: target }, profile, {
      timeoutMs: 5000,
      maxInFlight: 8,
      retryBudgetMs: 0,
      counters: sharedCounters(3),
    });
    removal.selected([MERGE, 'scenarios/person/notifications.test.ts']);
    removal.fileEnded(MERGE, true);
    await removal.finish();
    expect([...ref.stores.get('organization')!.records.values()].some((r) => r.source.id === source.id)).toBe(false);
  });
});
