/**
 * Self-test of the model-based walks of the person and provider services: the clean reference
 * passes them, and each service's sequence-only fault (reference/faults/sequence-faults.ts,
 * PERSON_PROVIDER_SEQUENCE_FAULTS: misbehaviour that needs an earlier link, so no single-row
 * scenario sees it) is caught at its requirement and listed in numbered steps with a replay command.
 */
import { describe, expect, test } from 'vitest';
import { runSuite } from './support/run-suite.js';
import { walkCheck } from './support/walk-checks.js';

const FILES = { person: 'scenarios/person/walks.test.ts', provider: 'scenarios/provider/walks.test.ts' } as const;
const SETTINGS = { CONFORMANCE_SEED: '12345', CONFORMANCE_VERBOSE: '1' };

const FAULTS: Array<[fault: string, service: keyof typeof FILES, requirement: string]> = [
  ['person-deactivate-undoes-link', 'person', 'PERSON-DEACTIVATE-VISIBLE'],
  ['provider-type-check-skipped-after-link', 'provider', 'PROV-MERGE-SAME-TYPE'],
];

describe('person and provider walks', { timeout: 300_000 }, () => {
  test('pass against the clean reference and reach every situation of the scope', async () => {
    const run = await runSuite(Object.values(FILES), SETTINGS);
    for (const service of Object.keys(FILES)) {
      expect(walkCheck(run, service)?.verdict, `${service}: ${run.stdout.slice(-3000)}`).toBe('pass');
      const s = run.summary?.situations?.[service];
      expect(s?.reached, `${service}: ${JSON.stringify(s?.notReached.slice(0, 5))}`).toBe(s?.enumerated);
    }
  });

  test.each(FAULTS)(
    'catch %s (%s) at %s, in numbered steps with a replay command',
    async (fault, service, requirement) => {
      const run = await runSuite([FILES[service]], { ...SETTINGS, REFERENCE_FAULTS: fault });
      const c = walkCheck(run, service);
      expect(c?.verdict, run.stdout.slice(-3000)).toBe('fail');
      expect(c?.failedRequirements).toContain(requirement);
      const message = c?.message ?? run.stdout;
      const steps = [...message.matchAll(/^\s+(\d+)\. /gm)].map((m) => Number(m[1]));
      expect(steps.length, message).toBeGreaterThan(0);
      expect(steps.length, message).toBeLessThanOrEqual(12);
      expect(message).toContain(`CONFORMANCE_SEED=12345 npm run conformance -- ${FILES[service]} -t`);
    },
  );
});
