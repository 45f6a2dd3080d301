/**
 * Self-test of the model-based walks end to end (npm run conformance of the walks file): the clean reference passes
 * them and their report says every situation of the scope was reached; a walk the deployment could not answer ends
 * "could not judge"; a sequence-only fault (reference/faults/sequence-faults.ts: misbehaviour that needs an earlier
 * merge, link or unlink, so no single-row scenario sees it) is caught, cited at the right requirement, listed in
 * numbered steps with a replay command. The person and provider walks have their own sequence faults
 * (test/walks-person-provider.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { runSuite } from './support/run-suite.js';
import { sampled } from './support/tier.js';
import { walkCheck } from './support/walk-checks.js';

const FILE = 'scenarios/organization/walks.test.ts';
const SETTINGS = { CONFORMANCE_SEED: '12345', CONFORMANCE_VERBOSE: '1' };

/**
 * The organization sequence faults, checked end to end: cited at the requirement, listed in numbered steps, with a
 * replay command. All four in `npm run test:full`; two in `npm test` (a merge's and an unlink's), where
 * test/walks-coverage.test.ts finds every one at three run seeds.
 */
const ALL_FAULTS: Array<[fault: string, requirement: string]> = [
  ['merge-drops-linked-sources', 'ORG-MERGE-EFFECT'],
  ['restore-reports-merged-survivor', 'ORG-RESTORE-REPLY'],
  ['unlink-revives-merged-sources', 'ORG-UNLINK-EFFECT'],
  ['repost-undoes-unlink', 'ORG-POST-SAME-SOURCE-UPDATES'],
];
const FAULTS = sampled(ALL_FAULTS, [ALL_FAULTS[0]!, ALL_FAULTS[2]!]);

describe('organization walks', { timeout: 300_000 }, () => {
  test('pass against the clean reference and reach every situation of the scope', async () => {
    const run = await runSuite([FILE], SETTINGS);
    const c = walkCheck(run, 'organization');
    expect(c?.verdict, run.stdout.slice(-3000)).toBe('pass');
    const s = run.summary?.situations?.organization;
    expect(s?.enumerated).toBeGreaterThan(100);
    expect(s?.reached, JSON.stringify(s?.notReached.slice(0, 5))).toBe(s?.enumerated);
    expect(s?.judged).toBe(s?.enumerated);
    expect(run.stdout).toMatch(/walks: reached (\d+) of \1 situations of the state table \(\1 judged\)/);
  });

  test('a planned walk the deployment could not answer ends the walks: the check could not judge', async () => {
    // 3 % transient failures and no retries: the planned walks meet one within their steps.
    const run = await runSuite([FILE], {
      ...SETTINGS,
      REFERENCE_VARIANTS: 'transient=0.03',
      CONFORMANCE_RETRY_BUDGET_MS: '0',
    });
    const c = run.summary?.checks.find(
      (x) => x.service === 'organization' && x.checkId.includes('/model-based-walks') && x.verdict !== 'pass',
    );
    expect(c?.verdict, run.stdout.slice(-3000)).toBe('error');
    expect(c?.couldNotJudge).toBe(true);
  });

  test.each(FAULTS)('catch %s at %s, in numbered steps with a replay command', async (fault, requirement) => {
    const run = await runSuite([FILE], { ...SETTINGS, REFERENCE_FAULTS: fault });
    const c = walkCheck(run, 'organization');
    expect(c?.verdict, run.stdout.slice(-3000)).toBe('fail');
    expect(c?.failedRequirements).toContain(requirement);
    const message = c?.message ?? run.stdout;
    const steps = [...message.matchAll(/^\s+(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(steps.length, message).toBeGreaterThan(0);
    expect(steps.length, message).toBeLessThanOrEqual(12);
    expect(message).toContain(`CONFORMANCE_SEED=12345 npm run conformance -- ${FILE} -t`);
  });
});
