/**
 * A failure shows the exchange that broke its rule, not the suite's own housekeeping after it:
 * a bad-input check whose invalid post a lenient deployment accepts removes that record at once
 * (nativeIdQuery, deleteSourceIdentity: harness/check.ts invalid), and the rule then fails on the
 * post. The failure's exchange is the post, 1 of 3, and the check is filed under postIdentity,
 * whether the assertion failed inside a rule or outside one (harness/check.ts judgedExchange).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seededFaker } from '../generators/seed.js';
import { Check, catalogueOf } from '../harness/check.js';
import type { ServiceClient } from '../harness/client.js';
import { explainFailure } from '../harness/failure.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { isRejection } from '../harness/reply.js';
import { RunContext } from '../harness/run.js';
import { ConformanceFailure } from '../harness/verdict.js';
import { org } from '../scenarios/organization/org.js';
import { type FaultyServer, startFaultyServer } from './support/faulty-server.js';
import { localClient } from './support/local-client.js';

const profile = resolveProfile(loadProfile(undefined), false);
const run = new RunContext(`evidence-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-evidence-')));
let server: FaultyServer | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

/** Posts an invalid organization that the server accepts, then runs `judge`; returns what the check threw, as the reports show it. */
async function acceptedInvalidPost(judge: (t: Check, accepted: boolean) => Promise<void>) {
  server = await startFaultyServer([{ kind: 'ok' }]);
  client = localClient(server.url, profile, run, { timeoutMs: 5000, maxInFlight: 2 });
  const verifies = ['ORG-BADINPUT-REJECTED'];
  const t = new Check('organization', verifies, seededFaker(7), client, profile, run);
  const made = org.makeInvalid(t);
  const r = await t.invalid('postIdentity', made.content);
  let thrown: unknown;
  try {
    await judge(t, isRejection(r, { sentInvalid: true }));
  } catch (e) {
    thrown = e;
  }
  expect(thrown, 'the check fails').toBeDefined();
  const { report } = explainFailure(thrown, {
    verifies,
    rules: catalogueOf('organization'),
    exchanges: t.exchanges,
    judged: t.judgedExchange(),
  });
  return { report: report!, operations: t.exchanges.map((x) => x.operation) };
}

describe('the evidence of a failure', () => {
  it('is the invalid post a rule judged, not the removal the suite sent after it', async () => {
    const { report, operations } = await acceptedInvalidPost((t, rejected) =>
      t.rule('ORG-BADINPUT-REJECTED', () =>
        expect(rejected, 'postIdentity with an impossible DATE must be rejected').toBe(true),
      ),
    );
    expect(operations).toEqual(['postIdentity', 'nativeIdQuery', 'deleteSourceIdentity']);
    expect(report.exchange).toMatchObject({ number: 1, of: 3, operation: 'postIdentity' });
    expect(report.operation).toBe('postIdentity');
  });

  it('is the same when the assertion fails outside a rule, or the check fails by t.fail', async () => {
    const outside = await acceptedInvalidPost(async (_t, rejected) => {
      expect(rejected, 'must be rejected').toBe(true);
    });
    expect(outside.report.exchange).toMatchObject({ number: 1, operation: 'postIdentity' });
    const failed = await acceptedInvalidPost(async (t) => t.fail('ORG-BADINPUT-REJECTED', 'accepted'));
    expect(failed.report.exchange).toMatchObject({ number: 1, operation: 'postIdentity' });
  });

  it('is the exchange a failure names itself, when it names one', async () => {
    const { report } = await acceptedInvalidPost(async () => {
      throw new ConformanceFailure(['ORG-BADINPUT-REJECTED'], 'x', { exchange: 3 });
    });
    expect(report.exchange).toMatchObject({ number: 3, operation: 'deleteSourceIdentity' });
  });
});
