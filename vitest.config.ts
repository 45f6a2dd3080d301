/**
 * The conformance suite: scenarios/ against the configured deployment (or the embedded
 * reference). Run it with `npm run conformance`, which validates settings first and sets the
 * exit code from the verdicts; `npx vitest run` works too and validates the same settings here
 * (one message naming the bad setting, exit code 2).
 */
import { defineConfig } from 'vitest/config';
import { SettingsError, roundTripSetting, filesAtOnceFor } from './harness/config.js';
import { runSettings } from './run/run-settings.js';
import { ISOLATED_AREAS, LongestFirstSequencer } from './run/file-order.js';
import { moduleCache } from './run/module-cache.js';
import { conformanceReporters } from './run/reporters.js';

function settingsOrExit() {
  try {
    return runSettings();
  } catch (e) {
    if (!(e instanceof SettingsError)) throw e;
    console.error(`conformance: ${e.message}`);
    process.exit(2);
  }
}

const plan = settingsOrExit();
const { settings } = plan;
const runId = plan.runId();

declare module 'vitest' {
  export interface ProvidedContext {
    /** Scenario files run side by side (run/side-by-side-runner.mjs). */
    filesAtOnce: number;
    /** Areas whose files run in a phase of their own, after every other file (run/file-order.ts ISOLATED_AREAS). */
    isolatedAreas: string[];
  }
}

/** Checks of one scenario file running at once (vitest's default; the figures in docs/performance.md were measured with it). */
const CHECKS_PER_FILE = 5;

// Transformed modules kept between runs where node_modules can be written (run/module-cache.ts).
const modules = moduleCache();

export default defineConfig({
  test: {
    include: ['scenarios/**/*.test.ts'],
    globalSetup: ['run/global-setup.ts'],
    setupFiles: ['allure-vitest/setup'],
    reporters: conformanceReporters(settings.reportDir, runId, settings.requirementUrl),
    // One worker runs the scenario files side by side (run/side-by-side-runner.mjs), as many at
    // once as filesAtOnceFor says, each with up to CHECKS_PER_FILE checks at once: one copy of the
    // modules (Faker locales, zod schemas, compiled validators) instead of one per file's worker.
    // Checks keep no module state between files (each run's clients and contexts are keyed by
    // run ID in harness/targets.ts).
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    runner: './run/side-by-side-runner.mjs',
    provide: { filesAtOnce: filesAtOnceFor(settings, roundTripSetting()), isolatedAreas: ISOLATED_AREAS },
    maxConcurrency: CHECKS_PER_FILE,
    // Long files first (run/file-order.ts): against a distant deployment the run ends with its last long file.
    sequence: { concurrent: true, sequencer: LongestFirstSequencer },
    testTimeout: settings.timeoutMs * 4 + 30000,
    hookTimeout: settings.timeoutMs * 4 + 30000,
    teardownTimeout: 600000,
    passWithNoTests: false,
    experimental: modules,
  },
});
