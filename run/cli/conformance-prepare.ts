/**
 * Step 1 of `npm run conformance` (run/cli/conformance.mjs is the command, and documents it), in a process of its own
 * before the run: `node --import tsx run/cli/conformance-prepare.ts [arguments]` writes the run's plan (RunPlan, JSON)
 * to file descriptor 3, or exits: 0 after --help or --version, 2 on a bad argument (an option neither this command nor
 * vitest knows, a filter that names no scenario file: run/vitest/vitest-arguments.ts) or setting, 3 when the preflight
 * fails (leaving no run folder behind).
 */
import { existsSync, readdirSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import {
  type Settings,
  EVIDENCE_KEY_SETTING,
  SettingsError,
  evidenceKeySetting,
  filesAtOnceFor,
  filesAtOnceSetBy,
  loadEnv,
  referenceSettingsProblem,
  resolveBudgets,
} from '../../harness/config.js';
import type { Profile } from '../../harness/profile.js';
import { ReferenceSettingError, referenceSettings } from '../../reference/settings.js';
import { preflight, preflightMessage } from '../preflight.js';
import { plainOutput } from '../../report/progress.js';
import { SERVICES, requirementIndex } from '../../specs/services.js';
import { newRunId, runFolder } from '../../harness/run.js';
import {
  type KnownFailures,
  KNOWN_FAILURES_ENV,
  loadKnownFailures,
  unknownEntries,
} from '../../report/known-failures.js';
import { command, parseArguments, usageError } from '../command.js';
import { readSigningKey } from '../../report/evidence/signature.js';
import { targetStatement } from '../target.js';
import { VITEST_ENV_DEFAULTS, VITEST_NODE_FLAGS } from '../vitest/vitest-process.js';
import { vitestArgumentProblem } from '../vitest/vitest-arguments.js';
import { type FolderBefore, folderBefore, removeRunTrace } from '../run-folder.js';
import { runSettings, vitestPlan } from '../run-settings.js';
import { HANDOFF } from '../../harness/handoff.js';
import { stopPipe } from '../interrupt.js';
import type { EvidenceRequest } from '../evidence.js';
import { listingJson, listingText, requirementFilters } from '../check-selection.js';

/**
 * What step 1 hands the command for the run: vitest's arguments and environment, and what step 3
 * (run/cli/conformance-finish.ts) needs.
 */
export interface RunPlan {
  runId: string;
  /** Where the run writes its summary (the run folder's summary.json). */
  summaryFile: string;
  /** The vitest filters and options as given (for the "no check ran" line). */
  vitestArgs: string[];
  /** Node's arguments for the vitest process: flags, vitest's entry, run, config and the arguments. */
  nodeArgs: string[];
  /** What the report folder held before the run (a run in which no check ran leaves it so). */
  before: FolderBefore;
  /** Variables to set in the vitest process's environment, and variables to remove from it. */
  set: Record<string, string>;
  unset: string[];
  /**
   * The vitest process's stop pipe (run/interrupt.ts): its file descriptor, and the variable naming it, for that
   * process alone.
   */
  stopPipe: { fd: number; env: Record<string, string> };
  /** The evidence bundle to write once the run has ended (--evidence), if asked for. */
  evidence?: EvidenceRequest;
}

const program = command({
  name: 'conformance',
  summary:
    'Runs the conformance suite against the configured deployments, or the embedded reference when no service ' +
    'URL is set. ' +
    'Options it does not know, and everything after --, go to vitest: a folder (scenarios/organization) or a ' +
    'name pattern (-t merge).',
  settings: [
    'ORG_BASE_URL, ORG_TOKEN, ORG_SOURCES, ...      the organization service (PERSON_*, PROVIDER_* likewise)',
    'CONFORMANCE_TARGET=embedded|configured        the target you mean; refused when the settings say otherwise',
    'CONFORMANCE_PROFILE, CONFORMANCE_SEED, CONFORMANCE_RUN_ID, CONFORMANCE_REPORT_DIR, CONFORMANCE_EXCHANGES, ...',
    'CONFORMANCE_RETRY_BUDGET_MS=30000           how long a request is retried for (429/503 pause the service)',
    'CONFORMANCE_VERBOSE=1                       routine internals on the console (same as --verbose)',
    'CONFORMANCE_EVIDENCE_KEY=key.pem            with --evidence: the Ed25519 private key that signs the manifest',
    'REFERENCE_FAULTS, REFERENCE_FOREIGN_DATA, ... the embedded reference',
    'Any other ORG_*, PERSON_*, PROVIDER_*, CONFORMANCE_*, REFERENCE_* variable is refused (exit 2).',
  ],
  exitCodes: {
    0: 'every MUST requirement checked held',
    1: 'a MUST requirement failed, a check errored (other than could not judge), or no check ran',
    2: 'bad settings or arguments (one line naming it, before any request)',
    3: 'preflight failed: deployment unreachable or credentials rejected',
    4: 'the teardown left records on the deployment (listed; npm run cleanup -- --run <id>)',
    5: 'INCOMPLETE: nothing failed, but checks could not judge (the deployment did not answer within the retry budget)',
    6: 'with --evidence: no evidence bundle was written (one line says why; 4, 130 and 143 win over it)',
    130:
      'INTERRUPTED by SIGINT (143: SIGTERM, or the parent process gone): stopped, what it created removed, ' +
      'report marked INTERRUPTED',
  },
  examples: [
    'npm run conformance',
    'npm run conformance -- scenarios/organization',
    'npm run conformance -- -t merge',
    'npm run conformance -- --shard=1/3',
    'npm run conformance -- --list --json',
    'npm run conformance -- --list --situations',
    'npm run conformance -- --requirement ORG-MERGE-EFFECT,ORG-UNMERGE-EFFECT',
    'ORG_BASE_URL=https://staging.example.com ORG_TOKEN=eyJ... ORG_SOURCES=conformance_a npm run conformance',
    'npm run conformance -- -- --reporter=verbose      (everything after -- goes to vitest)',
    'npm run conformance -- --evidence evidence/acme-4.2 --product "Acme MPI" --product-version 4.2 --certification',
  ],
})
  .option(
    '--shard <i/n>',
    'run shard i of n (vitest --shard); own run id <id>-s<i>of<n> and a blob report for report:merge',
  )
  .option('--list', 'list every check (ID, requirements, title) without running any, and exit')
  .option('--json', 'with --list: as JSON (checkId, service, area, title, requirements, file)')
  .option(
    '--situations',
    "with --list: the situations of the state tables the walks reach, enumerated from the state engine, in the run's " +
      'scope (CONFORMANCE_SCOPE)',
  )
  .option('--requirement <ids>', 'run only the checks that verify these requirements (comma-separated IDs)')
  .option(
    '--verbose',
    'routine internals on the console: walk seeds and coverage, bad-input lanes, ... (CONFORMANCE_VERBOSE=1)',
  )
  .option(
    '--evidence <dir>',
    'write an evidence bundle into this new folder once the run ends (with --product and --product-version)',
  )
  .option('--product <name>', 'with --evidence: the name of the product tested')
  .option('--product-version <version>', 'with --evidence: the version of the product tested')
  .option(
    '--certification',
    'with --evidence: the certification profile (no skipped or omitted check, no known failure, every MUST ' +
      'requirement checked, every check of the catalogue)',
  )
  .argument('[vitest...]', 'vitest filters and options, passed through')
  .allowUnknownOption()
  .allowExcessArguments();

/**
 * Every entry of the known-failures list names a requirement or a check of the suite; the suite's check IDs are
 * collected (run/check-ids.ts, a few seconds) only when an entry looks like one.
 * @throws SettingsError naming the first unknown entry and the ID meant (exit code 2)
 */
async function checkKnownFailureIds(known: KnownFailures, budgets: ReturnType<typeof resolveBudgets>): Promise<void> {
  const requirements = new Set(requirementIndex().keys());
  // A check ID is service/area/slug: an entry without a slash can only be a requirement ID.
  const checks = known.entries.some((e) => !requirements.has(e.id) && e.id.includes('/'))
    ? await (await import('../check-ids.js')).suiteCheckIds(budgets)
    : undefined;
  const unknown = unknownEntries(known, requirements, checks);
  if (!unknown.length) return;
  const [first] = unknown;
  throw new SettingsError(
    KNOWN_FAILURES_ENV,
    `entries that name a requirement ID or a check ID (summary.json checks[].checkId) of the suite: ${unknown
      .map((u) => `"${u.id}" names neither${u.suggestion ? ` (did you mean ${u.suggestion}?)` : ''}`)
      .join('; ')}`,
    first ? known.file : undefined,
  );
}

/** The command's own options, as commander gives them. */
interface CommandOptions {
  shard?: string;
  verbose?: boolean;
  list?: boolean;
  json?: boolean;
  situations?: boolean;
  requirement?: string;
  evidence?: string;
  product?: string;
  productVersion?: string;
  certification?: boolean;
}

/**
 * Parses the arguments, validates the settings (exit 2), states the target, fixes the run id and seed, and runs the
 * preflight against configured services (exit 3; it ends the process, as --help and --version do with 0).
 * @returns the run's plan
 */
export async function prepare(argv: string[]): Promise<RunPlan> {
  parseArguments(program, argv);
  const { shard: shardOption, verbose, list, json, situations, requirement, ...asked } = program.opts<CommandOptions>();
  if (json && !list) usageError(program, '--json goes with --list');
  if (situations && !list) usageError(program, '--situations goes with --list');
  // --requirement selects by the listing: the files of the checks that verify the IDs, and a name pattern on them.
  const selected = requirement === undefined ? [] : await requirementArgs(requirement);
  const vitestArgs = [...program.args, ...selected];
  const evidence = evidenceRequest(asked);
  // --certification covers every generated case (harness/config.ts Settings.scope), unless CONFORMANCE_SCOPE says
  // otherwise.
  const certifiedScope = evidence?.certification && !loadEnv().CONFORMANCE_SCOPE;
  if (certifiedScope) process.env.CONFORMANCE_SCOPE = 'full';
  // --verbose is CONFORMANCE_VERBOSE=1 for this run (harness/config.ts reads it, here and in the vitest process).
  if (verbose) HANDOFF.verbose.write(process.env, true);
  const shard = shardOption === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(shardOption);
  if (shardOption !== undefined && (!shard || Number(shard[1]) < 1 || Number(shard[1]) > Number(shard[2])))
    usageError(program, `--shard: expected i/n with 1 <= i <= n, e.g. 1/3, got ${JSON.stringify(shardOption)}`);
  // An option neither this command nor vitest knows, or a filter that names no scenario file: one line, before anything
  // runs.
  const argumentProblem = await vitestArgumentProblem(vitestArgs);
  if (argumentProblem) usageError(program, argumentProblem);
  const { settings, profile } = await checkedSettings(
    evidence,
    list ? { json: json === true, situations: situations === true } : undefined,
  );
  const runId = `${settings.runId ?? newRunId()}${shard ? `-s${shard[1]}of${shard[2]}` : ''}`;
  const set: Record<string, string> = {
    ...HANDOFF.runId.entry(runId),
    ...HANDOFF.seed.entry(settings.seed),
    ...(shard ? HANDOFF.shard.entry(`${shard[1]}/${shard[2]}`) : {}),
    ...(verbose ? HANDOFF.verbose.entry(true) : {}),
    ...(certifiedScope ? { CONFORMANCE_SCOPE: 'full' } : {}),
  };
  // What the report folder held before this run, so a run that judges nothing can leave it so.
  const before = folderBefore(settings.reportDir, runId);
  const unset: string[] = [];
  // Only this run's own preflight says how far the deployment is (the files side by side follow from it).
  console.log(`conformance: ${targetStatement(settings)}`);
  const roundTrip = await preflightRoundTrip(settings, profile, runId, before);
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const args = [...(shard ? [`--shard=${shard[1]}/${shard[2]}`] : []), ...vitestArgs];
  // Plain output carries no colour codes.
  if (plainOutput(process.stdout)) {
    set.NO_COLOR = '1';
    unset.push('FORCE_COLOR');
  }
  for (const [name, value] of Object.entries(VITEST_ENV_DEFAULTS))
    if (process.env[name] === undefined) set[name] = value;
  // An evidence bundle holds every exchange in full unless CONFORMANCE_EXCHANGES says otherwise.
  if (evidence && HANDOFF.exchanges.read() === undefined) HANDOFF.exchanges.write(set, 'all');
  // What vitest.config.ts needs, so that it imports none of the settings modules (run/vitest-plan.ts).
  HANDOFF.vitestPlan.write(set, vitestPlan(runId, roundTrip));
  return {
    runId,
    summaryFile: join(runFolder(settings.reportDir, runId), 'summary.json'),
    vitestArgs,
    before,
    nodeArgs: [...VITEST_NODE_FLAGS, vitest, 'run', '--config', 'vitest.config.ts', ...args],
    set,
    unset,
    stopPipe: stopPipe(),
    ...(evidence ? { evidence } : {}),
  };
}

/**
 * The vitest arguments that select the checks verifying the comma-separated requirement IDs (their files and a name
 * pattern on them), from the listing; exits 2 naming the problem when an ID is unknown or -t is given too.
 */
async function requirementArgs(requirement: string): Promise<string[]> {
  if (program.args.some((a) => a === '-t' || a.startsWith('-t=') || a.startsWith('--testNamePattern')))
    usageError(program, '--requirement selects checks by name itself: give it without -t');
  const ids = requirement
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const checks = ids.every((id) => requirementIndex().has(id))
    ? await (await import('../check-ids.js')).suiteChecks(
        resolveBudgets({ walks: 0, walkSteps: 0, badInputs: 0 }, true),
      )
    : [];
  const chosen = requirementFilters(ids, checks);
  if ('problem' in chosen) usageError(program, chosen.problem);
  return chosen.args;
}

/**
 * The run's settings and profile, checked before anything runs (exit 2 with one message): the known-failures list's
 * check IDs, the reference's settings, the evidence signing key. With `list`, prints the listing (of the checks, or of
 * the state tables' situations) and exits 0.
 */
async function checkedSettings(
  evidence: EvidenceRequest | undefined,
  list: { json: boolean; situations: boolean } | undefined,
): Promise<{ settings: Settings; profile: Profile }> {
  try {
    const { settings, profile } = runSettings();
    const known = loadKnownFailures();
    if (known) await checkKnownFailureIds(known, resolveBudgets(settings, settings.target === 'embedded'));
    if (settings.target === 'embedded') referenceSettings(process.env);
    // The key that will sign the evidence bundle is read now: a wrong one stops the run before it starts.
    const key = evidence ? evidenceKeySetting() : undefined;
    if (key) readSigningKey(key, EVIDENCE_KEY_SETTING);
    // The certification fails on an omitted check: the one a missing setting would omit is named now, not after the
    // run.
    if (evidence?.certification && settings.configured.person && !settings.configured.person.customerId)
      throw new SettingsError(
        'PERSON_CUSTOMER_ID',
        "the person deployment's customer ID with --certification " +
          '(without it the check that a request carrying it is ' +
          'accepted is omitted, and the certification fails)',
      );
    const ignored = referenceSettingsProblem(settings);
    if (ignored) throw ignored;
    if (list?.situations) {
      const { situationsJson, situationsListing } = await import('../docs/situations.js');
      console.log(list.json ? situationsJson(settings.scope) : situationsListing(settings.scope));
      process.exit(0);
    }
    if (list) {
      // The scenario files are loaded only for a listing (it costs a run's start-up seconds).
      const checks = await (await import('../check-ids.js')).suiteChecks(
        resolveBudgets(settings, settings.target === 'embedded'),
      );
      console.log(list.json ? listingJson(checks) : listingText(checks));
      process.exit(0);
    }
    return { settings, profile };
  } catch (e) {
    if (e instanceof SettingsError || e instanceof ReferenceSettingError) {
      console.error(`conformance: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
}

/**
 * Preflight: one cheap request per configured service before any check (exit 3 with one message, the run folder it
 * opened removed); returns the round trip it measured, by which a distant deployment gets more scenario files side by
 * side (harness/config.ts filesAtOnceFor), unless CONFORMANCE_FILES_AT_ONCE says how many.
 */
async function preflightRoundTrip(
  settings: Settings,
  profile: Profile,
  runId: string,
  before: ReturnType<typeof folderBefore>,
): Promise<number | undefined> {
  if (!Object.keys(settings.configured).length) return undefined;
  const { problems, roundTripMs } = await preflight(settings.configured, profile, {
    timeoutMs: settings.timeoutMs,
    retryBudgetMs: settings.retryBudgetMs,
    ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
    reportDir: settings.reportDir,
    runId,
  });
  if (problems.length) {
    console.error(preflightMessage(problems, (s) => SERVICES[s].envPrefix));
    // Nothing ran: the run folder the preflight's client opened goes (run/run-folder.ts).
    removeRunTrace(before);
    process.exit(3);
  }
  if (roundTripMs === undefined) return undefined;
  const why = filesAtOnceSetBy(loadEnv()) ?? 'CONFORMANCE_FILES_AT_ONCE sets another number';
  if (settings.verbose)
    console.log(
      `conformance: round trip ${Math.round(roundTripMs)} ms: ${filesAtOnceFor(settings, roundTripMs)} ` +
        `scenario files at once (${why})`,
    );
  return Math.round(roundTripMs);
}

/** The evidence bundle asked for, checked before anything runs: a new folder, and the product named. */
function evidenceRequest(o: {
  evidence?: string;
  product?: string;
  productVersion?: string;
  certification?: boolean;
}): EvidenceRequest | undefined {
  if (!o.evidence) {
    const stray =
      o.product !== undefined
        ? '--product'
        : o.productVersion !== undefined
          ? '--product-version'
          : o.certification
            ? '--certification'
            : undefined;
    if (stray) usageError(program, `${stray} goes with --evidence <dir>`);
    return undefined;
  }
  if (!o.product || !o.productVersion)
    usageError(
      program,
      '--evidence needs --product <name> and --product-version <version>: the bundle says what was tested',
    );
  if (existsSync(o.evidence) && readdirSync(o.evidence).length)
    usageError(program, `--evidence ${o.evidence}: not empty (an evidence bundle goes into a new folder)`);
  return {
    dir: resolve(o.evidence),
    product: o.product,
    productVersion: o.productVersion,
    certification: Boolean(o.certification),
  };
}

writeSync(3, JSON.stringify(await prepare(process.argv.slice(2))));
