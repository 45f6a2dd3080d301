/**
 * The conformance suite: scenarios/ against the configured deployment (or the embedded
 * reference). Run it with `npm run conformance`, which validates settings first and sets the
 * exit code from the verdicts; `npx vitest run` works too.
 */
import { defineConfig } from 'vitest/config';
import { conformanceReporters } from './report/reporters.js';
import { newRunId } from './harness/run.js';

const runId = (process.env.CONFORMANCE_RUN_ID ||= newRunId());
const reportDir = process.env.CONFORMANCE_REPORT_DIR || 'reports';
const timeoutMs = Number(process.env.CONFORMANCE_TIMEOUT_MS) || 30000;

export default defineConfig({
  test: {
    include: ['scenarios/**/*.test.ts'],
    globalSetup: ['run/global-setup.ts'],
    setupFiles: ['allure-vitest/setup'],
    reporters: conformanceReporters(reportDir, runId),
    pool: 'threads',
    maxWorkers: 2,
    sequence: { concurrent: true },
    testTimeout: timeoutMs * 4 + 30000,
    hookTimeout: timeoutMs * 4 + 30000,
    teardownTimeout: 600000,
    passWithNoTests: false,
  },
});
