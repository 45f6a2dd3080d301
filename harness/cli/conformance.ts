/**
 * `npm run conformance -- [vitest args]`: validates the settings (one message and exit code 2
 * on a bad one, before any request), fixes the run id and seed, runs the suite with vitest
 * (filters such as a folder or `-t merge` pass through), and exits from the gate of summary.json:
 *   0 every MUST requirement checked held (failures of EXPECT requirements, known failures and
 *     pending checks listed in CONFORMANCE_KNOWN_FAILURES are reported but do not gate);
 *   1 conformance failures (a MUST requirement failed, a check errored, or no check ran);
 *   2 bad settings; 3 preflight failed (deployment unreachable or credentials rejected).
 * With `--shard=i/n` the run id gets the suffix `-s<i>of<n>` (its own namespace and report
 * folder) and a vitest blob report is written for `npm run report:merge`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SettingsError, loadSettings } from '../config.js';
import { loadProfile } from '../profile.js';
import { preflight, preflightMessage } from '../preflight.js';
import { SERVICES } from '../../specs/services.js';
import { newRunId, runFolder } from '../run.js';
import { loadKnownFailures } from '../report/known-failures.js';
import type { Summary } from '../report/summary.js';

async function main(): Promise<void> {
  let settings;
  let profile;
  try {
    settings = loadSettings();
    profile = loadProfile(settings.profilePath);
    loadKnownFailures();
    checkTransportSettings(process.env);
  } catch (e) {
    if (e instanceof SettingsError) {
      console.error(`conformance: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const shard = process.argv.slice(2).join(' ').match(/--shard[= ](\d+)\/(\d+)/);
  const runId = `${settings.runId ?? newRunId()}${shard ? `-s${shard[1]}of${shard[2]}` : ''}`;
  const env = { ...process.env, CONFORMANCE_RUN_ID: runId, CONFORMANCE_SEED: String(settings.seed), ...(shard ? { CONFORMANCE_SHARD: `${shard[1]}/${shard[2]}` } : {}), CONFORMANCE_RATE_LIMIT_WORKERS: process.env.CONFORMANCE_RATE_LIMIT_WORKERS ?? '2' };
  // Preflight: one cheap request per configured service before any check (exit 3 with one message).
  if (Object.keys(settings.configured).length) {
    const problems = await preflight(settings.configured, profile, { timeoutMs: settings.timeoutMs, reportDir: settings.reportDir, runId });
    if (problems.length) {
      console.error(preflightMessage(problems, (s) => SERVICES[s].envPrefix));
      process.exit(3);
    }
  }
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
    // summary.json before schema 2 has no gate: any failure or error gates.
    const gateFails = summary.gate ? summary.gate.verdict === 'fail' : summary.totals.fail + summary.totals.error > 0;
    process.exit(gateFails || summary.totals.checks === 0 ? 1 : 0);
  });
}

/** CONFORMANCE_RATE_LIMIT (requests/s per service, >= 0) and CONFORMANCE_RETRIES (0-5). @throws SettingsError */
function checkTransportSettings(env: NodeJS.ProcessEnv): void {
  const rate = env.CONFORMANCE_RATE_LIMIT;
  if (rate !== undefined && rate !== '' && !(Number.isFinite(Number(rate)) && Number(rate) >= 0)) throw new SettingsError('CONFORMANCE_RATE_LIMIT', 'requests per second per service, a number >= 0 (0 = no limit)', rate);
  const retries = env.CONFORMANCE_RETRIES;
  if (retries !== undefined && retries !== '' && !(Number.isInteger(Number(retries)) && Number(retries) >= 0 && Number(retries) <= 5)) throw new SettingsError('CONFORMANCE_RETRIES', 'an integer from 0 to 5', retries);
}

void main();
