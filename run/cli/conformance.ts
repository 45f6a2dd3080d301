/**
 * `npm run conformance -- [options] [vitest filters and options]`: validates the settings (one
 * message and exit code 2 on a bad one, before any request), states the run's target, fixes the
 * run id and seed, runs the suite with vitest (filters such as a folder or `-t merge` pass
 * through; everything after `--` goes to vitest unread), and exits from the run's outcome
 * (run/outcome.ts):
 *   0 every MUST requirement checked held (failures of EXPECT requirements, known failures and
 *     pending checks listed in CONFORMANCE_KNOWN_FAILURES are reported but do not gate);
 *   1 conformance failures (a MUST requirement failed, a check errored), or no check ran;
 *   2 bad settings or arguments; 3 preflight failed (deployment unreachable or credentials rejected);
 *   4 the teardown left records of the run on the deployment (listed; npm run cleanup removes them);
 *   130 / 143 interrupted by SIGINT / SIGTERM (the ledger teardown runs first: test/interrupt-teardown.test.ts).
 * With `--shard=i/n` the run id gets the suffix `-s<i>of<n>` (its own namespace and report
 * folder) and a vitest blob report is written for `npm run report:merge`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROUND_TRIP_ENV, type Settings, SettingsError, filesAtOnceFor, loadSettings } from '../../harness/config.js';
import { cleanupRun } from '../../harness/cleanup.js';
import { loadProfile, resolveProfile } from '../../harness/profile.js';
import { ReferenceSettingError, referenceSettings } from '../../reference/settings.js';
import { preflight, preflightMessage } from '../preflight.js';
import { plainOutput } from '../../report/progress.js';
import { SERVICES } from '../../specs/services.js';
import { RunContext, ledgerPath, newRunId, runFolder } from '../../harness/run.js';
import { loadKnownFailures } from '../../report/known-failures.js';
import type { Summary } from '../../report/summary.js';
import { command, parseArguments, usageError } from '../command.js';
import { runOutcome } from '../outcome.js';
import { targetStatement } from '../target.js';
import { VITEST_NODE_FLAGS, vitestProcessEnv } from '../vitest-process.js';

const program = command({
  name: 'conformance',
  summary:
    'Runs the conformance suite against the configured deployments, or the embedded reference when no service URL is set. ' +
    'Options it does not know, and everything after --, go to vitest: a folder (scenarios/organization) or a name pattern (-t merge).',
  settings: [
    'ORG_BASE_URL, ORG_TOKEN, ORG_SOURCES, ...      the organization service (PERSON_*, PROVIDER_* likewise)',
    'CONFORMANCE_TARGET=embedded|configured        the target you mean; refused when the settings say otherwise',
    'CONFORMANCE_PROFILE, CONFORMANCE_SEED, CONFORMANCE_RUN_ID, CONFORMANCE_REPORT_DIR, CONFORMANCE_EXCHANGES, ...',
    'REFERENCE_FAULTS, REFERENCE_FOREIGN_DATA, ... the embedded reference',
    'Any other ORG_*, PERSON_*, PROVIDER_*, CONFORMANCE_*, REFERENCE_* variable is refused (exit 2).',
  ],
  exitCodes: [
    [0, 'every MUST requirement checked held'],
    [1, 'a MUST requirement failed, a check errored, or no check ran'],
    [2, 'bad settings or arguments (one line naming it, before any request)'],
    [3, 'preflight failed: deployment unreachable or credentials rejected'],
    [4, 'the teardown left records on the deployment (listed; npm run cleanup -- --run <id>)'],
    [130, 'interrupted (SIGINT; 143 for SIGTERM), after the teardown'],
  ],
  examples: [
    'npm run conformance',
    'npm run conformance -- scenarios/organization',
    'npm run conformance -- -t merge',
    'npm run conformance -- --shard=1/3',
    'ORG_BASE_URL=https://staging.example.com ORG_TOKEN=eyJ... ORG_SOURCES=conformance_a npm run conformance',
    'npm run conformance -- -- --reporter=verbose      (everything after -- goes to vitest)',
  ],
})
  .option('--shard <i/n>', 'run shard i of n (vitest --shard); own run id <id>-s<i>of<n> and a blob report for report:merge')
  .argument('[vitest...]', 'vitest filters and options, passed through')
  .allowUnknownOption()
  .allowExcessArguments();

async function main(): Promise<void> {
  parseArguments(program);
  const vitestArgs = program.args;
  const shardOption = program.opts<{ shard?: string }>().shard;
  const shard = shardOption === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(shardOption);
  if (shardOption !== undefined && (!shard || Number(shard[1]) < 1 || Number(shard[1]) > Number(shard[2]))) usageError(program, `--shard: expected i/n with 1 <= i <= n, e.g. 1/3, got ${JSON.stringify(shardOption)}`);
  let settings: Settings;
  let profile;
  try {
    settings = loadSettings();
    profile = loadProfile(settings.profilePath);
    loadKnownFailures();
    if (settings.target === 'embedded') referenceSettings(process.env);
  } catch (e) {
    if (e instanceof SettingsError || e instanceof ReferenceSettingError) {
      console.error(`conformance: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const runId = `${settings.runId ?? newRunId()}${shard ? `-s${shard[1]}of${shard[2]}` : ''}`;
  const env: NodeJS.ProcessEnv = { ...process.env, CONFORMANCE_RUN_ID: runId, CONFORMANCE_SEED: String(settings.seed), ...(shard ? { CONFORMANCE_SHARD: `${shard[1]}/${shard[2]}` } : {}) };
  // Only this run's own preflight says how far the deployment is, never a value left in the environment.
  delete env[ROUND_TRIP_ENV];
  console.log(`conformance: ${targetStatement(settings)}`);
  // Preflight: one cheap request per configured service before any check (exit 3 with one message).
  if (Object.keys(settings.configured).length) {
    const { problems, roundTripMs } = await preflight(settings.configured, profile, { timeoutMs: settings.timeoutMs, retries: settings.retries, reportDir: settings.reportDir, runId });
    if (problems.length) {
      console.error(preflightMessage(problems, (s) => SERVICES[s].envPrefix));
      process.exit(3);
    }
    // A distant deployment gets more scenario files side by side (harness/config.ts filesAtOnceFor), unless CONFORMANCE_FILES_AT_ONCE says how many.
    if (roundTripMs !== undefined) {
      env[ROUND_TRIP_ENV] = String(Math.round(roundTripMs));
      const setBy = process.env.CONFORMANCE_FILES_AT_ONCE ? 'CONFORMANCE_FILES_AT_ONCE' : 'CONFORMANCE_WORKERS, the older name of CONFORMANCE_FILES_AT_ONCE';
      const why = settings.filesAtOnce ? setBy : 'CONFORMANCE_FILES_AT_ONCE sets another number';
      console.log(`conformance: round trip ${Math.round(roundTripMs)} ms: ${filesAtOnceFor(settings, roundTripMs)} scenario files at once (${why})`);
    }
  }
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const args = [...(shard ? [`--shard=${shard[1]}/${shard[2]}`] : []), ...vitestArgs];
  // Plain output carries no colour codes.
  if (plainOutput(process.stdout)) {
    env.NO_COLOR = '1';
    delete env.FORCE_COLOR;
  }
  const child = spawn(process.execPath, [...VITEST_NODE_FLAGS, vitest, 'run', '--config', 'vitest.config.ts', ...args], { stdio: 'inherit', env: vitestProcessEnv(env) });
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
    const outcome = runOutcome(JSON.parse(readFileSync(file, 'utf8')) as Summary, vitestArgs, runId);
    for (const line of outcome.lines) console.error(line);
    process.exit(outcome.code);
  });
}

/**
 * Teardown after an interrupted run: removes, from the run's ledger, everything the run created on
 * the configured deployments (records already removed by vitest's own teardown count as gone).
 * The embedded reference keeps nothing after the run, so there is nothing to do without targets.
 * @returns one line saying what was removed
 */
async function cleanupAfterInterrupt(settings: Settings, profile: ReturnType<typeof loadProfile>, runId: string): Promise<string> {
  if (!Object.keys(settings.configured).length) return 'embedded reference: nothing to clean up';
  if (!existsSync(ledgerPath(settings.reportDir, runId))) return 'no ledger: nothing was created';
  try {
    const targets = Object.fromEntries(Object.entries(settings.configured).map(([k, v]) => [k, { ...v, embedded: false }]));
    const r = await cleanupRun(new RunContext(runId, settings.reportDir), targets, resolveProfile(profile, false), { timeoutMs: settings.timeoutMs, maxInFlight: settings.maxInFlight, retries: settings.retries });
    const failed = r.failures.length ? `; ${r.failures.length} records could not be removed (npm run cleanup -- --run ${runId} retries):\n${r.failures.map((f) => `  ${f.service} ${f.what}: ${f.reason}`).join('\n')}` : '';
    return `cleanup from the ledger: sources ${r.sources.deleted} deleted, ${r.sources.alreadyGone} already gone; relationships ${r.relationships.deleted} deleted, ${r.relationships.alreadyGone} already gone${failed}`;
  } catch (e) {
    return `cleanup from the ledger failed (${(e as Error).message}); run npm run cleanup -- --run ${runId}`;
  }
}

void main();
