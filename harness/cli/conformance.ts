/**
 * `npm run conformance -- [vitest args]`: validates the settings (one message and exit code 2
 * on a bad one, before any request), fixes the run id and seed, runs the suite with vitest
 * (filters such as a folder or `-t merge` pass through), and exits from the verdicts:
 *   0 no check failed or errored; 1 conformance failures or errors; 2 bad settings.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SettingsError, loadSettings } from '../config.js';
import { loadProfile } from '../profile.js';
import { newRunId, runFolder } from '../run.js';
import type { Summary } from '../report/summary.js';

function main(): void {
  let settings;
  try {
    settings = loadSettings();
    loadProfile(settings.profilePath);
  } catch (e) {
    if (e instanceof SettingsError) {
      console.error(`conformance: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const runId = settings.runId ?? newRunId();
  const env = { ...process.env, CONFORMANCE_RUN_ID: runId, CONFORMANCE_SEED: String(settings.seed) };
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.config.ts', ...process.argv.slice(2)], { stdio: 'inherit', env });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('exit', (code, signal) => {
    const file = join(runFolder(settings.reportDir, runId), 'summary.json');
    if (!existsSync(file)) {
      console.error(`conformance: the run ended (${signal ?? `exit ${code}`}) without writing ${file}`);
      process.exit(code && code !== 0 ? code : 1);
    }
    const summary = JSON.parse(readFileSync(file, 'utf8')) as Summary;
    process.exit(summary.totals.fail + summary.totals.error > 0 || summary.totals.checks === 0 ? 1 : 0);
  });
}

main();
