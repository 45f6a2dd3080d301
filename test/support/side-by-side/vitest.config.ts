/**
 * Fixture of test/side-by-side-runner.test.ts: three files whose checks meet at a barrier, run by
 * run/vitest/side-by-side-runner.mjs with the conformance run's pool settings; FILES_AT_ONCE files at once,
 * CHECKS_PER_FILE checks of a file at once (default 1). With GROUPS=1 instead the files of groups/,
 * two "services" (folders) whose isolated file of one must not wait for the other's long check,
 * unless SAME_GROUP=1 puts both in one isolation group. With LOAD=1 the files of load/, with the
 * services' load provided (EAST_SATURATED=1: "east" has a full bound of requests waiting).
 * Allure's reporter and setup are on, as in a conformance run: allure-vitest then runs its own
 * runner, which loads this one (run/vitest/reporters.ts); the Allure reporter is the run's
 * (report/allure-reporter.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files in the order of their paths (the load fixture's order: east/a, east/b, west/c). */
class ByPath extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    filesAtOnce: number;
    checksPerFile: number;
    isolatedAreas: string[];
    isolationGroups: Record<string, string>;
    serviceLoad: { services: string[]; counters: SharedArrayBuffer; bound: number };
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: process.env.LOAD
      ? ['load/*/*.load.ts']
      : process.env.GROUPS
        ? ['groups/*/*.group.ts']
        : ['*.side.ts', ...(process.env.PHASE ? ['*.phase.ts'] : [])],
    ...(process.env.LOAD ? { globalSetup: ['load/setup.ts'] } : {}),
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    runner: fileURLToPath(new URL('../../../run/vitest/side-by-side-runner.mjs', import.meta.url)),
    setupFiles: ['allure-vitest/setup'],
    reporters: [
      'json',
      [
        fileURLToPath(new URL('../../../report/allure-reporter.ts', import.meta.url)),
        { resultsDir: process.env.ALLURE_RESULTS_DIR },
      ],
    ],
    provide: {
      filesAtOnce: Number(process.env.FILES_AT_ONCE),
      checksPerFile: Number(process.env.CHECKS_PER_FILE ?? 1),
      isolatedAreas: ['bad-input'],
      isolationGroups: process.env.SAME_GROUP ? { east: 'east', west: 'east' } : {},
    },
    maxConcurrency: Number(process.env.CHECKS_PER_FILE ?? 1),
    sequence: process.env.LOAD ? { concurrent: true, sequencer: ByPath } : { concurrent: true },
    testTimeout: 20000,
  },
});
