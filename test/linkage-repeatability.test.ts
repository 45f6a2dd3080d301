/**
 * Repeatability of the match-quality benchmark: the reference receives the posts in the data
 * set's fixed order (linkage/benchmark.ts), and two runs with the same seed against fresh
 * embedded references end with identical clusterings, which `--compare` relies on to pair runs on
 * the same data.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { referenceTarget } from '../run/deployments.js';
import { runBenchmark } from '../linkage/benchmark.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext, newRunId } from '../harness/run.js';
import { type RunningReference, startReference } from '../reference/server.js';
import type { ServiceName } from '../specs/common/model.js';

const dir = mkdtempSync(join(tmpdir(), 'mq-repeat-'));
const profile = resolveProfile(loadProfile(), true);
const started: RunningReference[] = [];
afterAll(async () => Promise.all(started.map((r) => r.stop())));

/** The clustering of one run as a partition: each record's label replaced by the first record index holding it. */
async function clustering(service: ServiceName, postConcurrency?: number): Promise<number[]> {
  const reference = await startReference();
  started.push(reference);
  const run = new RunContext(newRunId(), dir);
  const r = await runBenchmark({
    service,
    preset: 'hard',
    size: 100,
    seed: 4242,
    searchSample: 0,
    maxSearchResults: 10,
    resamples: 10,
    target: referenceTarget(reference, service, profile),
    profile,
    run,
    maxInFlight: 8,
    postConcurrency,
    timeoutMs: 30000,
    folder: join(run.folder, service),
  });
  expect(r.observation.failures).toMatchObject({ post: 0, read: 0 });
  // The matcher saw the records in posting order: its CREATE/MATCH notifications name their native IDs in that order.
  const nativeIdOf = new Map(
    readFileSync(join(run.folder, service, 'corruption-log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { record: string; source: { id: string } })
      .map((l) => [l.record, l.source.id]),
  );
  const processed = reference.stores
    .get(service)!
    .notifications.filter((n) => n.notificationType === 'CREATE' || n.notificationType === 'MATCH')
    .map((n) => n.notificationLowerCaseBody.nativeId);
  expect(processed).toEqual(r.dataset.records.map((rec) => nativeIdOf.get(rec.id)));
  const first = new Map<string, number>();
  return r.dataset.records.map((rec, i) => {
    const label = r.observation.labels.get(rec.id)!;
    if (!first.has(label)) first.set(label, i);
    return first.get(label)!;
  });
}

it.each(['person', 'organization', 'provider'] as const)(
  '%s: two runs with the same seed give identical clusterings',
  async (service) => {
    const a = await clustering(service);
    const b = await clustering(service);
    // Non-trivial: some records were linked (else any two runs would agree).
    expect(a.some((x, i) => x !== i)).toBe(true);
    expect(b).toEqual(a);
  },
);
