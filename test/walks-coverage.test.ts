/**
 * Self-test of the walks' coverage steering (scenarios/shared/model/coverage.ts, steer.ts), run in
 * this process against the reference (test/support/walk-runner.ts) at the default budget of a run
 * against the embedded reference (12 walks x 8 steps):
 * - clean walks pass for every service and the check's note summarises the state table covered;
 * - a replay with the same run seed gives the same walks (same walk seed, same coverage);
 * - sequence faults are found at their requirement for the run seeds measured (bench/walk-detection.ts
 *   measures the rates over run seeds 1-10; docs/detection.md records them): only seeds the
 *   measurement found are asserted, so the test never claims more than was seen.
 */
import { describe, expect, test } from 'vitest';
import { runWalkCheck } from './support/walk-runner.js';

const BUDGET = { walks: 12, steps: 8 };

describe('walk coverage steering', () => {
  test.each(['organization', 'person', 'provider'] as const)('clean %s walks pass and note the state table covered', async (service) => {
    const r = await runWalkCheck(service, 1, [], BUDGET);
    expect(r.verdict, r.message).toBe('pass');
    expect(r.note).toMatch(/^coverage of the state table: 12 walks, \d+ steps; \(operation, state\) cells \d+\/\d+; \d+ \(state, operation\) pairs; \d+ two-step sequences/);
    expect(r.note).toMatch(/cells not exercised: /);
    expect(r.note).toMatch(/sequences: .*link\(moved\) -> /);
  });

  test('a replay with the same run seed steers the same walks', async () => {
    const [a, b] = [await runWalkCheck('organization', 2, [], BUDGET), await runWalkCheck('organization', 2, [], BUDGET)];
    expect(a.line.replace(/ in \d+ ms/, '')).toBe(b.line.replace(/ in \d+ ms/, ''));
    expect(a.note).toBe(b.note);
  });

  // Seeds of 1-10 for which the in-process run (first failing walk) found each fault at the default budget.
  const FOUND: Array<[fault: string, service: 'organization' | 'person' | 'provider', requirement: string, seeds: number[]]> = [
    ['merge-drops-linked-sources', 'organization', 'ORG-MERGE-EFFECT', [1, 3]],
    ['restore-reports-merged-survivor', 'organization', 'ORG-RESTORE-REPLY', [8, 9]],
    ['unlink-revives-merged-sources', 'organization', 'ORG-UNLINK-EFFECT', [3, 6]],
    ['repost-undoes-unlink', 'organization', 'ORG-POST-SAME-SOURCE-UPDATES', [1, 3]],
    ['person-deactivate-undoes-link', 'person', 'PERSON-DEACTIVATE-VISIBLE', [1, 2]],
    ['provider-type-check-skipped-after-link', 'provider', 'PROV-MERGE-SAME-TYPE', [1, 2]],
  ];
  test.each(FOUND)('%s (%s) is found at %s for run seeds %j', async (fault, service, requirement, seeds) => {
    for (const seed of seeds) {
      const r = await runWalkCheck(service, seed, [fault], BUDGET);
      expect(r.verdict, `seed ${seed}: ${r.line}`).toBe('fail');
      expect(r.requirements, `seed ${seed}: ${r.message.slice(0, 2000)}`).toContain(requirement);
    }
  });
});
