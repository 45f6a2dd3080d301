/**
 * Self-test of the generated bad-input checks: the clean reference passes them for every service,
 * and a reference that carries out requests whose source reference has a malformed date
 * (fault source-date-unchecked, reference/faults/sequence-faults.ts) fails the organization check
 * citing ORG-BADINPUT-GENERATED, with the shrunk request printed and a replay command; one that
 * carries them out but answers with a rejection (source-date-applied-rejected) fails it citing
 * ORG-REJECTED-NO-CHANGE.
 */
import { describe, expect, test } from 'vitest';
import { setAt } from '../scenarios/shared/bad-input-sites.js';
import { lanesFor } from '../scenarios/shared/bad-input.js';
import { runSuite } from './support/run-suite.js';

const FILES = ['organization', 'person', 'provider'].map((s) => `scenarios/${s}/generated-bad-input.test.ts`);
const ORG = FILES[0]!;
/** Verbose, for the `[bad-input]` lines read here. */
const SETTINGS = { CONFORMANCE_SEED: '12345', CONFORMANCE_BAD_INPUTS: '200', CONFORMANCE_VERBOSE: '1' };
const checks = (run: Awaited<ReturnType<typeof runSuite>>) =>
  run.summary?.checks.filter((c) => c.area === 'generated-bad-input') ?? [];

describe('setAt', () => {
  test('sets or removes the member at a path and leaves the base as it was', () => {
    const base = {
      identity: { names: [{ first: 'Ada', last: 'Byron' }], ids: { npi: '1' } },
      source: { name: 'cf_a', id: 'x' },
    };
    const before = structuredClone(base);
    const set = setAt(base, ['identity', 'names', 0, 'first'], 42) as typeof base & {
      identity: { names: Array<{ first: unknown }> };
    };
    const removed = setAt(base, ['source', 'id'], undefined);
    expect(set).toEqual({ ...before, identity: { ...before.identity, names: [{ first: 42, last: 'Byron' }] } });
    expect(removed).toEqual({ ...before, source: { name: 'cf_a' } });
    expect(base).toEqual(before);
  });
});

describe('lanesFor', () => {
  test('one lane per BAD_INPUTS_PER_LANE requests, 1 to BAD_INPUT_LANES', () => {
    // The default budgets: 15 against a configured deployment (the run's tail on each service), 60 against the embedded reference.
    expect([1, 5, 6, 10, 15, 60, 200].map(lanesFor)).toEqual([1, 1, 2, 2, 3, 3, 3]);
  });
});

describe('generated bad input', () => {
  test('passes against the clean reference for every service', async () => {
    const run = await runSuite(FILES, SETTINGS);
    const list = checks(run);
    expect(list.map((c) => c.service).sort(), run.stdout.slice(-2000)).toEqual(['organization', 'person', 'provider']);
    expect(
      list.filter((c) => c.verdict !== 'pass').map((c) => `${c.service}: ${c.verdict} ${c.message ?? ''}`),
    ).toEqual([]);
    expect(run.stdout).toMatch(
      /\[bad-input\] organization: 200 generated requests over \d+ sites in 3 lanes, seeds \d+\/\d+\/\d+ \(run seed 12345\)/,
    );
  });

  test('catches source-date-unchecked and prints the shrunk request', async () => {
    const run = await runSuite([ORG], { ...SETTINGS, REFERENCE_FAULTS: 'source-date-unchecked' });
    const c = checks(run).find((x) => x.service === 'organization');
    expect(c?.verdict, run.stdout.slice(-3000)).toBe('fail');
    expect(c?.failedRequirements).toContain('ORG-BADINPUT-GENERATED');
    const message = c?.message ?? '';
    expect(message).toMatch(/fast-check shrank it \(\d+ shrinks\) to:\n +\w+ \{.*"date":/);
    expect(message).toMatch(/ at [\w.]*date was accepted/);
    expect(message).toContain(`CONFORMANCE_SEED=12345 npm run conformance -- ${ORG} -t`);
  });

  test('catches a rejected request that changed the records it names (source-date-applied-rejected)', async () => {
    // The lane looks up again only the records a request names: this fault changes exactly those.
    const run = await runSuite([ORG], { ...SETTINGS, REFERENCE_FAULTS: 'source-date-applied-rejected' });
    const c = checks(run).find((x) => x.service === 'organization');
    expect(c?.verdict, run.stdout.slice(-3000)).toBe('fail');
    expect(c?.failedRequirements).toContain('ORG-REJECTED-NO-CHANGE');
    expect(c?.message ?? '').toMatch(/rejected \(HTTP 400.*\),: the lane's record [AB]/);
  });
});
