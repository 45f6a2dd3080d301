/**
 * The conformance suite: scenarios/ against the configured deployment (or the embedded reference). Run it with `npm run
 * conformance`, which validates settings first, hands this configuration the run's plan (run/vitest-plan.ts) and
 * sets the exit code from the verdicts; `npx vitest run` works too and validates the same settings here (one message
 * naming the bad setting, exit code 2).
 *
 * This file imports only small modules that import nothing of the suite: vitest hashes the content of everything the
 * configuration imports for every module a run loads (run/vitest-plan.ts says why; test/vitest-plan.test.ts
 * holds it to a few files).
 */
import { defineConfig } from 'vitest/config';
import { HANDOFF, type VitestPlan } from './harness/handoff.js';
import { ISOLATED_AREAS, LongestFirstSequencer } from './run/vitest/file-order.js';
import { moduleCache } from './run/vitest/module-cache.js';
import { conformanceReporters } from './run/vitest/reporters.js';

/**
 * Without a plan handed over (vitest started directly), the plan of the settings: loaded with tsx at run time, so that
 * the settings modules are no part of this configuration's imports.
 */
async function planOfSettings(): Promise<VitestPlan> {
  const { tsImport } = await import('tsx/esm/api');
  // run/run-settings.ts, typed here by what is used of it: a type import would count as an import too.
  const { runSettings, vitestPlan } = (await tsImport('./run/run-settings.ts', import.meta.url)) as {
    runSettings(): { runId(): string };
    vitestPlan(runId: string): VitestPlan;
  };
  try {
    return vitestPlan(runSettings().runId());
  } catch (e) {
    if ((e as Error).name !== 'SettingsError') throw e;
    console.error(`conformance: ${(e as Error).message}`);
    process.exit(2);
  }
}

const plan = HANDOFF.vitestPlan.read() ?? (await planOfSettings());

declare module 'vitest' {
  export interface ProvidedContext {
    /** Scenario files run side by side (run/vitest/side-by-side-runner.mjs). */
    filesAtOnce: number;
    /**
     * Areas whose files run after every other file of their isolation group (run/vitest/file-order.ts ISOLATED_AREAS).
     */
    isolatedAreas: string[];
    /** Isolation group of each service folder (run/vitest-plan.ts isolationGroups). */
    isolationGroups: Record<string, string>;
    /**
     * The run's shared counters (harness/shared-limit.ts sharedCounters: in flight, then waiting, per service in
     * `services` order) and the in-flight bound per service, set by the global setup.
     */
    serviceLoad: { services: string[]; counters: SharedArrayBuffer; bound: number };
  }
}

/**
 * Checks of one scenario file running at once (vitest's default; the figures in docs/performance.md were measured with
 * it).
 */
const CHECKS_PER_FILE = 5;

// Transformed modules kept between runs where node_modules can be written (run/vitest/module-cache.ts).
const modules = moduleCache();

export default defineConfig({
  test: {
    include: ['scenarios/**/*.test.ts'],
    globalSetup: ['run/vitest/global-setup.ts'],
    setupFiles: ['allure-vitest/setup'],
    reporters: conformanceReporters(plan.reportDir, plan.runId, plan.requirementUrl),
    // One worker runs the scenario files side by side (run/vitest/side-by-side-runner.mjs), as many at once as
    // filesAtOnceFor says, each with up to CHECKS_PER_FILE checks at once: one copy of the modules (Faker locales, zod
    // schemas, compiled validators) instead of one per file's worker. Checks keep no module state between files (each
    // run's clients and contexts are keyed by run ID in harness/targets.ts).
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    runner: './run/vitest/side-by-side-runner.mjs',
    provide: { filesAtOnce: plan.filesAtOnce, isolatedAreas: ISOLATED_AREAS, isolationGroups: plan.isolationGroups },
    maxConcurrency: CHECKS_PER_FILE,
    // Long files first (run/vitest/file-order.ts): against a distant deployment the run ends with its last long file.
    sequence: { concurrent: true, sequencer: LongestFirstSequencer },
    testTimeout: plan.timeoutMs * 4 + 30000,
    hookTimeout: plan.timeoutMs * 4 + 30000,
    teardownTimeout: 600000,
    passWithNoTests: false,
    experimental: modules,
  },
});
