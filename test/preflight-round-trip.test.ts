/**
 * The preflight measures the deployment's round trip on an open connection, and a distant
 * deployment gets more scenario files run side by side (run/preflight.ts, harness/config.ts filesAtOnceFor).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISTANT_FILES_AT_ONCE, DISTANT_ROUND_TRIP_MS, filesAtOnceFor, loadSettings } from '../harness/config.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { type RunningReference, startReference } from '../reference/server.js';
import { preflight } from '../run/preflight.js';
import { closedPort } from './support/faulty-server.js';

let distant: RunningReference;
beforeAll(async () => {
  distant = await startReference({ faults: [], latencyMs: DISTANT_ROUND_TRIP_MS + 20 });
});
afterAll(async () => {
  await distant?.stop();
});

const options = () => ({
  timeoutMs: 5000,
  retryBudgetMs: 0,
  reportDir: mkdtempSync(join(tmpdir(), 'cf-rt-')),
  runId: 'round-trip',
});

describe('preflight round trip', () => {
  it('is measured on a service that answers, at least the deployment latency, and gives a distant deployment more scenario files at once', async () => {
    const settings = loadSettings({
      ORG_BASE_URL: distant.baseUrlOf('organization'),
      ORG_TOKEN: distant.token,
      ORG_SOURCES: 'cf_test_a',
    });
    const r = await preflight(settings.configured, resolveProfile(loadProfile(undefined), false), options());
    expect(r.problems).toEqual([]);
    expect(r.roundTripMs).toBeGreaterThanOrEqual(DISTANT_ROUND_TRIP_MS + 20);
    expect(filesAtOnceFor(settings, r.roundTripMs)).toBe(DISTANT_FILES_AT_ONCE);
  });

  it('is not measured when no service answers (the run stops there anyway)', async () => {
    const settings = loadSettings({
      ORG_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      ORG_TOKEN: 'aaaa.bbbb.cccc',
      ORG_SOURCES: 'cf_test_a',
    });
    const r = await preflight(settings.configured, resolveProfile(loadProfile(undefined), false), options());
    expect(r.problems.map((p) => p.kind)).toEqual(['unreachable']);
    expect(r.roundTripMs).toBeUndefined();
  });
});
