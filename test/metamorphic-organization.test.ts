/**
 * Self-test of the metamorphic matching checks: the clean reference passes them, and each
 * injected matching fault (reference/faults/sequence-faults.ts, MATCHING_FAULTS) fails the
 * check of the property it breaks, citing its requirement.
 */
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { readLedger } from '../harness/run.js';
import { runSuite } from './support/run-suite.js';

const FILE = 'scenarios/organization/metamorphic.test.ts';
const FAULTS: Array<[fault: string, requirement: string]> = [
  ['match-threshold-shifts-scores', 'ORG-SEARCH-THRESHOLD-MONOTONE'],
  ['match-scores-jitter', 'ORG-MATCH-DETERMINISTIC'],
  ['match-query-second-best', 'ORG-QUERY-BEST-MATCH'],
];

const checks = (run: Awaited<ReturnType<typeof runSuite>>) =>
  run.summary?.checks.filter((c) => c.area === 'metamorphic' && c.service === 'organization') ?? [];

describe('organization metamorphic checks', () => {
  test('pass against the clean reference', async () => {
    const run = await runSuite([FILE]);
    const list = checks(run);
    expect(list.length, run.stdout.slice(-2000)).toBe(6);
    expect(list.filter((c) => c.verdict !== 'pass').map((c) => `${c.title}: ${c.verdict} ${c.message ?? ''}`)).toEqual(
      [],
    );
    // Two families of seven: the one the five searching checks share, and "one match threshold"'s own.
    const posted = readLedger(join(run.reportDir, run.runId, 'ledger.jsonl')).filter((e) => e.kind === 'source');
    expect(posted).toHaveLength(14);
  });

  test('a searching check run alone posts the shared family itself and passes', async () => {
    const run = await runSuite([FILE, '-t', 'a search with an exact copy']);
    const verdicts = checks(run).map((c) => c.verdict);
    expect(verdicts, run.stdout.slice(-2000)).toContain('pass');
    expect(verdicts.filter((v) => v !== 'pass' && v !== 'omit' && v !== 'skip')).toEqual([]);
    expect(readLedger(join(run.reportDir, run.runId, 'ledger.jsonl')).filter((e) => e.kind === 'source')).toHaveLength(
      7,
    );
  });

  test.each(FAULTS)('catch %s at %s', async (fault, requirement) => {
    const run = await runSuite([FILE], { REFERENCE_FAULTS: fault });
    const failing = checks(run).filter((c) => c.verdict === 'fail');
    expect(
      failing.flatMap((c) => c.failedRequirements),
      run.stdout.slice(-2000),
    ).toContain(requirement);
  });
});
