/**
 * Runs the conformance suite as a child process (exactly as `npm run conformance` does) in a
 * throw-away report folder and returns its summary. Used by the end-to-end self-tests.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Summary } from '../../report/summary.js';
import { runNode } from './command.js';
import { withoutSettings } from '../../harness/setting-names.js';

export interface SuiteRun {
  code: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  runId: string;
  summary?: Summary;
}

/**
 * @param args vitest filters passed through (e.g. ['scenarios/organization'])
 * @param env extra settings; service URLs left unset mean the embedded reference
 */
export async function runSuite(
  args: string[] = [],
  env: Record<string, string> = {},
  timeoutMs = 240000,
): Promise<SuiteRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-selftest-'));
  const runId = `selftest-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
  const clean = withoutSettings(process.env);
  const run = await runNode(
    ['run/cli/conformance.mjs', ...args],
    {
      ...clean,
      CONFORMANCE_REPORT_DIR: reportDir,
      CONFORMANCE_RUN_ID: runId,
      CONFORMANCE_SEED: '12345',
      FORCE_COLOR: '0',
      ...env,
    },
    timeoutMs,
  );
  let summary: Summary | undefined;
  try {
    summary = JSON.parse(readFileSync(join(reportDir, runId, 'summary.json'), 'utf8')) as Summary;
  } catch {
    summary = undefined;
  }
  return { code: run.code, stdout: run.stdout, stderr: run.stderr, reportDir, runId, summary };
}
