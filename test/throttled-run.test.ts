/**
 * A deployment behind a gateway of 20 requests per second per service answering HTTP 429 with
 * Retry-After: 1 (reference variant `throttled`), configured as a user points the suite at a
 * deployment, all three services (a subset of the scenario files, to fit `npm test`; the full
 * run is a measurement, docs/performance.md): the run passes with no error and exits 0, every
 * service was throttled and paced (summary.json `transport`), and no record is left behind.
 * Source: README, settings (CONFORMANCE_RETRY_BUDGET_MS); organization-identity-api.md, Limits
 * ("Rate limits: not shown.").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';
import { configuredSettings, testRecordsLeft } from './support/configured-run.js';
import { type SuiteRun, runSuite } from './support/run-suite.js';

const FILES = [
  'scenarios/organization/merge-link',
  'scenarios/organization/lifecycle',
  'scenarios/organization/search',
  'scenarios/person/merge-link',
  'scenarios/person/lifecycle',
  'scenarios/provider/lifecycle',
  'scenarios/provider/search',
];
let ref: RunningReference;
let run: SuiteRun;

beforeAll(async () => {
  ref = await startReference({ variants: ['throttled=20'] });
  run = await runSuite(FILES, configuredSettings(ref), 400000);
}, 420000);
afterAll(() => ref?.stop());

describe('a deployment behind a gateway of 20 requests per second per service', () => {
  it('passes with no error and exits 0; each service was throttled, paused and paced', () => {
    expect(run.summary, run.stderr.slice(-2000)).toBeDefined();
    const notJudged = run
      .summary!.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error')
      .map((c) => `${c.verdict} ${c.checkId}: ${(c.message ?? c.note ?? '').slice(0, 300)}`);
    expect(notJudged).toEqual([]);
    expect(run.summary!.gate.verdict).toBe('pass');
    expect(run.code).toBe(0);
    for (const service of ['organization', 'person', 'provider']) {
      const f = run.summary!.transport?.[service];
      expect(f, service).toBeDefined();
      expect(f!.throttled, service).toBeGreaterThan(0);
      expect(f!.pausedMs, service).toBeGreaterThan(0);
      expect(f!.rate.lowest, service).toBeLessThan(20);
    }
    expect(run.stdout).toMatch(/transport: \d+ attempts, \d+ failed transiently \(\d+ throttled\); paused/);
  });

  it('leaves zero records of the test sources after the teardown', () => {
    const left = testRecordsLeft(ref);
    expect(left).toEqual([]);
    expect(run.summary!.cleanup?.failures ?? []).toEqual([]);
  });
});
