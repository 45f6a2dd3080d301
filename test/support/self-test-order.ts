/**
 * The order `npm test` starts its files in: the longest first, so that no long file starts last
 * and runs alone while the other worker idles. vitest's own order puts files it has no timings for
 * by size, and the longest self-test (test/faults-detection.test.ts) is a small file: in a fresh
 * clone (CI) it started late and ran alone for minutes at the end. Ranked by durations measured on
 * two cores; any file not listed keeps vitest's order after these.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Test files by their measured duration, longest first (names under test/, without .test.ts). */
export const LONGEST_FIRST = [
  'faults-detection',
  'walks-organization',
  'misconfiguration',
  'walks-coverage',
  'readme-recipes',
  'commands',
  'metamorphic-organization',
  'walks-person-provider',
  'ci-examples',
  'first-minute',
  'adaptive-pacing',
  'safety-markers',
  'linkage-benchmark',
  'compare-runs',
];

const rank = (moduleId: string) => {
  const i = LONGEST_FIRST.findIndex((name) => moduleId.endsWith(`/test/${name}.test.ts`));
  return i < 0 ? LONGEST_FIRST.length : i;
};

/** vitest's sequencer with the files of LONGEST_FIRST moved to the front, in that order (vitest.self.config.ts). */
export class SelfTestSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: files not listed keep vitest's order behind the listed ones.
    return [...(await super.sort(files))].sort((a, b) => rank(a.moduleId) - rank(b.moduleId));
  }
}
