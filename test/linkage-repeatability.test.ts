/**
 * Repeatability of the match-quality benchmark: two runs with the same seed against fresh
 * embedded references end with identical clusterings (posts go in the data set's fixed order,
 * harness/linkage/benchmark.ts), which `--compare` relies on to pair runs on the same data.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { referenceTarget } from '../harness/deployments.js';
import { runBenchmark } from '../harness/linkage/benchmark.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext, newRunId } from '../harness/run.js';
import { type RunningReference, startReference } from '../reference/server.js';
import type { ServiceName } from '../specs/common/model.js';

const dir = mkdtempSync(join(tmpdir(), 'mq-repeat-'));
const profile = resolveProfile(loadProfile(), true);
const started: RunningReference[] = [];
afterAll(async () => Promise.all(started.map((r) => r.stop())));

/** The clustering of one run as a partition: each record's label replaced by the first record index holding it. */
async function clustering(service: ServiceName): Promise<number[]> {
  const reference = await startReference();
  started.push(reference);
  const run = new RunContext(newRunId(), dir);
  const r = await runBenchmark({
    service, preset: 'hard', size: 150, seed: 4242, searchSample: 0, maxSearchResults: 10, resamples: 10,
    target: referenceTarget(reference, service, profile), profile, run, maxInFlight: 8, timeoutMs: 30000, folder: join(run.folder, service),
  });
  expect(r.observation.failures).toMatchObject({ post: 0, read: 0 });
  const first = new Map<string, number>();
  return r.dataset.records.map((rec, i) => {
    const label = r.observation.labels.get(rec.id)!;
    if (!first.has(label)) first.set(label, i);
    return first.get(label)!;
  });
}

it.each(['person', 'organization', 'provider'] as const)('%s: two runs with the same seed give identical clusterings', async (service) => {
  const a = await clustering(service);
  const b = await clustering(service);
  // Non-trivial: some records were linked (else any two runs would agree).
  expect(a.some((x, i) => x !== i)).toBe(true);
  expect(b).toEqual(a);
});
