/**
 * `npm run cleanup -- --run <id>`: removes everything a run created, from its ledger (<report dir>/<id>/ledger.jsonl;
 * for a merged run, its shards' ledgers: harness/run.ts runLedgers), for a run that was killed before its teardown.
 * What the ledger says was removed already is counted as such and not asked for again. Uses the same settings as the
 * run (ORG_BASE_URL, ORG_TOKEN, ORG_SOURCES, ...) and the same teardown (harness/cleanup.ts): relationships first, then
 * every source record, hard-deleted, transient replies retried in passes. Every record it could not remove is listed by
 * source name and native ID (or relationship ID). Exit codes: 0 everything removed (or already gone); 1 some records
 * remain (listed); 2 bad arguments or settings.
 */
import { type CleanupResult, addCleanup, cleanupRun, removalText } from '../../harness/cleanup.js';
import { SettingsError } from '../../harness/config.js';
import { resolveProfile } from '../../harness/profile.js';
import { runSettings } from '../run-settings.js';
import { RunContext, ledgerPath, runLedgers } from '../../harness/run.js';
import { command, parseArguments, usageError } from '../command.js';

const program = command({
  name: 'cleanup',
  summary:
    'Hard-deletes everything a run created, from its ledger: for a run killed before its teardown, or one whose ' +
    'teardown left records behind (exit code 4 of npm run conformance).',
  settings: [
    "ORG_BASE_URL, ORG_TOKEN, ORG_SOURCES, ... the run's service settings (PERSON_*, PROVIDER_* likewise)",
    'CONFORMANCE_REPORT_DIR  where the run folder with ledger.jsonl is (default reports)',
    "                        (a merged run's folder holds its shards' ledgers)",
  ],
  exitCodes: {
    0: 'everything the run created is removed (or was already gone)',
    1: 'some records remain: each is listed by source name and native ID (or relationship ID)',
    2: 'bad arguments or settings, or no ledger for the run',
  },
  examples: [
    'npm run cleanup -- --run 20261121-071425-61c6',
    'CONFORMANCE_REPORT_DIR=ci-reports npm run cleanup -- --run nightly-42',
  ],
}).requiredOption('--run <id>', 'id of the run to clean up (its folder under the report directory)');
parseArguments(program);
const values = program.opts<{ run: string }>();
if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,60}$/.test(values.run))
  usageError(
    program,
    `--run: expected the id of a run (a folder under the report directory), got ${JSON.stringify(values.run)}`,
  );

let plan: ReturnType<typeof runSettings>;
try {
  plan = runSettings();
} catch (e) {
  if (e instanceof SettingsError) usageError(program, e.message);
  throw e;
}
const { settings, removal } = plan;
const ledgers = runLedgers(settings.reportDir, values.run);
if (!ledgers.length)
  usageError(
    program,
    `no ledger at ${ledgerPath(settings.reportDir, values.run)}, nor of shards of a run ${values.run} ` +
      '(is CONFORMANCE_REPORT_DIR the one the run used?)',
  );
if (!Object.keys(settings.configured).length)
  usageError(
    program,
    'no service is configured (set ORG_BASE_URL and its credentials as for the run); the embedded reference keeps ' +
      'nothing between runs',
  );

const targets = Object.fromEntries(Object.entries(settings.configured).map(([k, v]) => [k, { ...v, embedded: false }]));
const profile = resolveProfile(plan.profile, false);
let total: CleanupResult | undefined;
for (const l of ledgers) {
  // Each shard's records are in its own namespace (cf-<shard run id>-...): its ledger is removed under its run ID.
  const result = await cleanupRun(new RunContext(l.runId, l.reportDir), targets, profile, removal);
  if (ledgers.length > 1) console.log(`cleanup of shard ${l.runId}: ${removalText(result)}`);
  total = addCleanup(total, result);
}
const result = total!;
console.log(
  `cleanup of run ${values.run}${ledgers.length > 1 ? ` (${ledgers.length} shards)` : ''}: ${removalText(result)}`,
);
if (result.failures.length) console.error(`cleanup: ${result.failures.length} record(s) remain on the deployment:`);
for (const f of result.failures) console.error(`  ${f.service} ${f.what}: ${f.reason}`);
process.exit(result.failures.length ? 1 : 0);
