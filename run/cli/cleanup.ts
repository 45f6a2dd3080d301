/**
 * `npm run cleanup -- --run <id>`: removes everything a run created, from its ledger
 * (<report dir>/<id>/ledger.jsonl), for a run that was killed before its teardown. Uses the same
 * settings as the run (ORG_BASE_URL, ORG_TOKEN, ORG_SOURCES, ...) and the same teardown
 * (harness/cleanup.ts): relationships first, then every source record, hard-deleted.
 * Exit codes: 0 everything removed (or already gone); 1 some removals failed; 2 bad arguments or settings.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cleanupRun } from '../../harness/cleanup.js';
import { SettingsError, loadSettings } from '../../harness/config.js';
import { loadProfile, resolveProfile } from '../../harness/profile.js';
import { RunContext, ledgerPath } from '../../harness/run.js';

function fail(message: string, code: number): never {
  console.error(`cleanup: ${message}`);
  process.exit(code);
}

let values: { run?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { run: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
} catch (e) {
  fail((e as Error).message, 2);
}
if (values.help) {
  console.log('usage: npm run cleanup -- --run <run id>   (with the run\'s service settings in the environment or .env)');
  process.exit(0);
}
if (!values.run || !/^[A-Za-z0-9][A-Za-z0-9-]{0,60}$/.test(values.run)) fail(`--run: expected the id of a run (a folder under the report directory), got ${JSON.stringify(values.run)}`, 2);

let settings;
try {
  settings = loadSettings();
} catch (e) {
  if (e instanceof SettingsError) fail(e.message, 2);
  throw e;
}
const ledger = ledgerPath(settings.reportDir, values.run);
if (!existsSync(ledger)) fail(`no ledger at ${ledger} (is CONFORMANCE_REPORT_DIR the one the run used?)`, 2);
if (!Object.keys(settings.configured).length) fail('no service is configured (set ORG_BASE_URL and its credentials as for the run); the embedded reference keeps nothing between runs', 2);

const run = new RunContext(values.run, settings.reportDir);
const targets = Object.fromEntries(Object.entries(settings.configured).map(([k, v]) => [k, { ...v, embedded: false }]));
const profile = resolveProfile(loadProfile(settings.profilePath), false);
const result = await cleanupRun(run, targets, profile, { timeoutMs: settings.timeoutMs, maxInFlight: settings.maxInFlight });
const s = result.sources;
const r = result.relationships;
console.log(`cleanup of run ${values.run}: sources ${s.deleted} deleted, ${s.alreadyGone} already gone (of ${s.attempted}); relationships ${r.deleted} deleted, ${r.alreadyGone} already gone (of ${r.attempted})`);
for (const f of result.failures) console.error(`  could not remove ${f.service} ${f.what}: ${f.reason}`);
process.exit(result.failures.length ? 1 : 0);
