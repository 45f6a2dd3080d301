/**
 * Self-test of the model-based walks of the person and provider services: the clean reference
 * passes them, and each service's sequence-only fault (reference/faults/sequence-faults.ts,
 * PERSON_PROVIDER_SEQUENCE_FAULTS: misbehaviour that needs an earlier link, so no single-row
 * scenario sees it) is caught at its requirement (by a tour, whatever the seed) and listed in at most 6 numbered
 * steps with a replay command.
 */
import { describe, expect, test } from 'vitest';
import { runSuite } from './support/run-suite.js';
import { FULL_TIER } from './support/tier.js';
import { generatedWalks, walkCheck } from './support/walk-checks.js';

const FILES = { person: 'scenarios/person/walks.test.ts', provider: 'scenarios/provider/walks.test.ts' } as const;
/** Fixed seed and a larger budget than the default run for the clean reference; verbose, for the `[walks]` lines counted here. */
const SETTINGS = {
  CONFORMANCE_SEED: '12345',
  CONFORMANCE_WALKS: '100',
  CONFORMANCE_WALK_STEPS: '10',
  CONFORMANCE_VERBOSE: '1',
};
/**
 * A fault's run: the tours catch every sequence fault whatever the seed, so one check of generated
 * walks is enough; rates of the generated walks alone over many seeds: `npm run bench:walks --`.
 */
const FAULT_SETTINGS = { ...SETTINGS, CONFORMANCE_WALKS: FULL_TIER ? '6' : '2' };
/** The clean run needs no fault's sequence to come up: 50 walks in `npm run test:full`, 10 in `npm test`. */
const CLEAN_WALKS = FULL_TIER ? 50 : 10;
const CLEAN = { ...SETTINGS, CONFORMANCE_WALKS: String(CLEAN_WALKS) };

const FAULTS: Array<[fault: string, service: keyof typeof FILES, requirement: string]> = [
  ['person-deactivate-undoes-link', 'person', 'PERSON-DEACTIVATE-VISIBLE'],
  ['provider-type-check-skipped-after-link', 'provider', 'PROV-MERGE-SAME-TYPE'],
];

describe('person and provider walks', () => {
  test('pass against the clean reference', async () => {
    const run = await runSuite(Object.values(FILES), CLEAN);
    for (const service of Object.keys(FILES)) {
      expect(walkCheck(run, service)?.verdict, `${service}: ${run.stdout.slice(-3000)}`).toBe('pass');
      expect(generatedWalks(run.stdout, service), run.stdout.slice(-3000)).toBe(CLEAN_WALKS);
    }
  });

  test.each(FAULTS)('catch %s (%s) at %s, in at most 6 numbered steps', async (fault, service, requirement) => {
    const run = await runSuite([FILES[service]], { ...FAULT_SETTINGS, REFERENCE_FAULTS: fault });
    const c = walkCheck(run, service);
    expect(c?.verdict, run.stdout.slice(-3000)).toBe('fail');
    expect(c?.failedRequirements).toContain(requirement);
    const message = c?.message ?? run.stdout;
    const steps = [...message.matchAll(/^\s+(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(steps.length, message).toBeGreaterThan(0);
    expect(steps.length, message).toBeLessThanOrEqual(6);
    expect(message).toContain(`CONFORMANCE_SEED=12345 npm run conformance -- ${FILES[service]} -t`);
  });
});
