/**
 * A deployment that fails 20% of requests transiently (reference variant transient=0.2: HTTP 503,
 * retryableError=true on 200 and 500, reset connections), configured as a user points the suite
 * at a deployment, all three services: no check may fail (a reply still transient after the
 * retries is "could not judge", never a failure), and the teardown leaves no record of the test
 * sources behind (it retries what stays transient).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';
import { REFERENCE_SOURCES } from '../run/global-setup.js';
import { type SuiteRun, runSuite } from './support/run-suite.js';

let ref: RunningReference;
let run: SuiteRun;

beforeAll(async () => {
  ref = await startReference({ variants: ['transient=0.2'] });
  // The reference shares this machine's clock: no skew margin to wait out.
  const profile = join(mkdtempSync(join(tmpdir(), 'cf-transient-')), 'profile.json');
  writeFileSync(profile, JSON.stringify({ notifications: { clockSkewMs: 0 } }));
  const sources = REFERENCE_SOURCES.join(',');
  run = await runSuite(
    [],
    {
      ORG_BASE_URL: ref.url,
      ORG_TOKEN: ref.token,
      ORG_SOURCES: sources,
      PERSON_BASE_URL: ref.baseUrlOf('person'),
      PERSON_TOKEN: ref.token,
      PERSON_SOURCES: sources,
      PERSON_CUSTOMER_ID: 'reference-customer',
      PROVIDER_BASE_URL: ref.baseUrlOf('provider'),
      PROVIDER_USERNAME: ref.auth.username,
      PROVIDER_PASSWORD: ref.auth.password,
      PROVIDER_SOURCES: sources,
      CONFORMANCE_PROFILE: profile,
    },
    600000,
  );
}, 620000);
afterAll(() => ref?.stop());

describe('a deployment failing 20% of requests transiently', () => {
  it('gets no fail verdict: transient replies are could-not-judge (errors), never failures', () => {
    expect(run.summary, run.stderr.slice(-2000)).toBeDefined();
    const failed = run.summary!.checks.filter((c) => c.verdict === 'fail').map((c) => `${c.checkId}: ${(c.message ?? '').slice(0, 300)}`);
    expect(failed).toEqual([]);
    expect(run.summary!.totals.checks).toBeGreaterThan(200);
  });

  it('leaves zero records of the test sources after the teardown', () => {
    const left = [...ref.stores.values()].flatMap((s) =>
      [...s.records.values()]
        .filter((r) => REFERENCE_SOURCES.includes(r.source.name))
        .map((r) => `${s.service} ${r.source.name}/${r.source.id}`),
    );
    const ledger = readFileSync(join(run.reportDir, run.runId, 'ledger.jsonl'), 'utf8');
    const diagnosis = `${left.map((l) => `${l}: ${ledger.includes(l.split('/')[1]!) ? 'in the ledger' : 'NOT in the ledger'}`).join('\n')}\ncleanup: ${JSON.stringify(run.summary?.cleanup)}`;
    expect(left, diagnosis).toEqual([]);
    expect(run.summary!.cleanup?.failures ?? []).toEqual([]);
  });
});
