/**
 * Detection runs the scenario files that send stored invalid input (bad input, generated bad
 * input) or values at the edges of their types (boundaries) in a later group of their own, as a
 * conformance run does (run/vitest/side-by-side-runner.mjs):
 * drawn=8 (lenient validation, no identityGroupedBySource, minimal replies) once had three person
 * metamorphic checks fail on a bad-input record that a concurrent search returned before the
 * record was quarantined by its link ID. Source: detection/isolated-phase.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_SUFFIX, isolatedInclude, planName } from '../detection/isolated-phase.js';
import { HANDOFF } from '../harness/handoff.js';

describe('the isolated phase of detection', () => {
  it('finds the isolated files among globs and paths, and names their project after the plan entry', () => {
    expect(isolatedInclude(['scenarios/person/**/*.test.ts'])).toEqual([
      'scenarios/person/**/bad-input.test.ts',
      'scenarios/person/**/generated-bad-input.test.ts',
      'scenarios/person/**/boundaries.test.ts',
    ]);
    expect(isolatedInclude(['scenarios/person/search.test.ts', 'scenarios/person/bad-input.test.ts'])).toEqual([
      'scenarios/person/bad-input.test.ts',
    ]);
    expect(isolatedInclude(['scenarios/person/search.test.ts'])).toEqual([]);
    expect(planName(`drawn${ISOLATED_SUFFIX}`)).toBe('drawn');
    expect(planName('clean')).toBe('clean');
  });

  it('gives each plan entry a group of its other files, then a later group of its isolated files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-det-plan-'));
    writeFileSync(
      join(dir, 'plan.json'),
      JSON.stringify([
        { name: 'variants', include: ['scenarios/person/**/*.test.ts'], variants: [{ name: 'drawn-8' }] },
        { name: 'some-fault', include: ['scenarios/person/search.test.ts'] },
        { name: 'bad-input-fault', include: ['scenarios/person/bad-input.test.ts'] },
      ]),
    );
    HANDOFF.detectionDir.write(process.env, dir);
    const config = (await import('../detection/vitest.config.js')).default as {
      test: {
        projects: Array<{
          test: { name: string; include: string[]; exclude?: string[]; sequence: { groupOrder: number } };
        }>;
      };
    };
    const projects = config.test.projects.map((p) => p.test);
    expect(projects.map((p) => [p.name, p.sequence.groupOrder])).toEqual([
      ['variants', 0],
      [`variants${ISOLATED_SUFFIX}`, 1],
      ['some-fault', 0],
      [`bad-input-fault${ISOLATED_SUFFIX}`, 1],
    ]);
    expect(projects[0]!.exclude).toEqual(
      expect.arrayContaining(['**/bad-input.test.ts', '**/generated-bad-input.test.ts']),
    );
    expect(projects[1]!.include).toEqual(isolatedInclude(['scenarios/person/**/*.test.ts']));
  });
});
