/**
 * `npm run conformance -- [vitest args]`: validates the settings (one message and exit code 2
 * on a bad one, before any request), fixes the run id and seed, runs the suite with vitest
 * (filters such as a folder or `-t merge` pass through), and exits from the gate of summary.json:
 *   0 every MUST requirement checked held (failures of EXPECT requirements, known failures and
 *     pending checks listed in CONFORMANCE_KNOWN_FAILURES are reported but do not gate);
 *   1 conformance failures (a MUST requirement failed, a check errored, or no check ran);
 *   2 bad settings; 3 preflight failed (deployment unreachable or credentials rejected);
 *   130 / 143 interrupted by SIGINT / SIGTERM (the ledger teardown runs first: test/interrupt-teardown.test.ts).
 * With `--shard=i/n` the run id gets the suffix `-s<i>of<n>` (its own namespace and report
 * folder) and a vitest blob report is written for `npm run report:merge`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SettingsError, loadSettings } from '../../harness/config.js';
import { cleanupRun } from '../../harness/cleanup.js';
import { loadProfile, resolveProfile } from '../../harness/profile.js';
import { preflight, preflightMessage } from '../preflight.js';
import { COUNT_FILE_ENV, startCount } from '../count-checks.js';
import { plainOutput } from '../../report/progress.js';
import { SERVICES } from '../../specs/services.js';
import { RunContext, ledgerPath, newRunId, runFolder } from '../../harness/run.js';
import { loadKnownFailures } from '../../report/known-failures.js';
import type { Summary } from '../../report/summary.js';
import { ReferenceSettingError, VariantSet, parseVariantList } from '../../reference/variants/registry.js';
import { latencySettings } from '../../reference/variants/transport.js';

/** REFERENCE_VARIANTS, REFERENCE_LATENCY_MS and REFERENCE_JITTER_MS of the embedded reference. @throws ReferenceSettingError */
function checkReferenceSettings(env: Record<string, string | undefined>): void {
  new VariantSet(parseVariantList(env.REFERENCE_VARIANTS));
  latencySettings({}, env);
}

async function main(): Promise<void> {
  let settings;
  let profile;
  try {
    settings = loadSettings();
    profile = loadProfile(settings.profilePath);
    loadKnownFailures();
    checkReferenceSettings(process.env);
  } catch (e) {
    if (e instanceof SettingsError || e instanceof ReferenceSettingError) {
      console.error(`conformance: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const shard = process.argv.slice(2).join(' ').match(/--shard[= ](\d+)\/(\d+)/);
  const runId = `${settings.runId ?? newRunId()}${shard ? `-s${shard[1]}of${shard[2]}` : ''}`;
  const env: NodeJS.ProcessEnv = { ...process.env, CONFORMANCE_RUN_ID: runId, CONFORMANCE_SEED: String(settings.seed), ...(shard ? { CONFORMANCE_SHARD: `${shard[1]}/${shard[2]}` } : {}) };
  // Preflight: one cheap request per configured service before any check (exit 3 with one message).
  if (Object.keys(settings.configured).length) {
    const problems = await preflight(settings.configured, profile, { timeoutMs: settings.timeoutMs, reportDir: settings.reportDir, runId });
    if (problems.length) {
      console.error(preflightMessage(problems, (s) => SERVICES[s].envPrefix));
      process.exit(3);
    }
  }
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  // The progress display needs the total before the first check starts: counted while the run
  // starts, awaited by its global setup (run/count-checks.ts). Plain output carries no colour codes.
  env[COUNT_FILE_ENV] = startCount(vitest, process.argv.slice(2), env, settings.reportDir).file;
  if (plainOutput(process.stdout)) {
    env.NO_COLOR = '1';
    delete env.FORCE_COLOR;
  }
  const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.config.ts', ...process.argv.slice(2)], { stdio: 'inherit', env });
  // SIGINT / SIGTERM: passed to vitest (its global teardown cleans up); a second signal, or vitest
  // still running 15 s later, ends it hard. Either way the ledger teardown runs here afterwards.
  let interrupted: NodeJS.Signals | undefined;
  const forward = (signal: NodeJS.Signals) => () => {
    if (interrupted) return void child.kill('SIGKILL');
    interrupted = signal;
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), 15000).unref();
  };
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('exit', async (code, signal) => {
    if (interrupted || signal) {
      const cleaned = await cleanupAfterInterrupt(settings, profile, runId);
      console.error(`conformance: run ${runId} interrupted (${interrupted ?? signal}); ${cleaned}`);
      process.exit(interrupted === 'SIGTERM' || signal === 'SIGTERM' ? 143 : 130);
    }
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

/**
 * Teardown after an interrupted run: removes, from the run's ledger, everything the run created on
 * the configured deployments (records already removed by vitest's own teardown count as gone).
 * The embedded reference keeps nothing after the run, so there is nothing to do without targets.
 * @returns one line saying what was removed
 */
async function cleanupAfterInterrupt(settings: ReturnType<typeof loadSettings>, profile: ReturnType<typeof loadProfile>, runId: string): Promise<string> {
  if (!Object.keys(settings.configured).length) return 'embedded reference: nothing to clean up';
  if (!existsSync(ledgerPath(settings.reportDir, runId))) return 'no ledger: nothing was created';
  try {
    const targets = Object.fromEntries(Object.entries(settings.configured).map(([k, v]) => [k, { ...v, embedded: false }]));
    const r = await cleanupRun(new RunContext(runId, settings.reportDir), targets, resolveProfile(profile, false), { timeoutMs: settings.timeoutMs, maxInFlight: settings.maxInFlight, retries: settings.retries });
    const failed = r.failures.length ? `; ${r.failures.length} removals failed (npm run cleanup -- --run ${runId} retries)` : '';
    return `cleanup from the ledger: sources ${r.sources.deleted} deleted, ${r.sources.alreadyGone} already gone; relationships ${r.relationships.deleted} deleted, ${r.relationships.alreadyGone} already gone${failed}`;
  } catch (e) {
    return `cleanup from the ledger failed (${(e as Error).message}); run npm run cleanup -- --run ${runId}`;
  }
}

void main();
