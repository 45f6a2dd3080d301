/**
 * `npm run match-quality -- [options]`: feeds a deployment (or the embedded reference) realistic
 * duplicates with known ground truth through its own API and reports how well it links them.
 *
 *   --service <name>        person | organization | provider (repeatable; default: every service
 *                           the target serves)
 *   --preset <name>         clean | realistic | hard (default MATCH_QUALITY_PRESET or realistic)
 *   --size <n>              entities per service (default MATCH_QUALITY_SIZE or 2000)
 *   --seed <n>              data seed (default CONFORMANCE_SEED, else random; printed)
 *   --search-sample <n>     entities whose last record is searched before posting (default
 *                           min(400, size / 5))
 *   --resamples <n>         bootstrap resamples (default 1000)
 *   --post-concurrency <n>  posts in flight at once (default 1: the data set's fixed order, so the
 *                           same seed gives the same clustering on an order-sensitive matcher;
 *                           more is faster but makes run-to-run comparisons noisier; never more
 *                           than CONFORMANCE_MAX_IN_FLIGHT)
 *   --compare <path>        a baseline results.json (or its folder): same data and seed, paired
 *                           differences, regression verdict
 *   --reference-threshold <x>  match threshold of the embedded reference (0..1)
 *   --quiet                 no progress output
 *
 * Settings (targets, credentials, sources, CONFORMANCE_MAX_IN_FLIGHT, CONFORMANCE_TIMEOUT_MS,
 * CONFORMANCE_REPORT_DIR) are the suite's (harness/config.ts). Output: reports/<run>/match-quality/<service>/.
 * Exit codes: 0 done (no regression); 1 a regression against the baseline, or records could not
 * be posted/read; 2 bad settings or arguments.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { type PresetName, PRESETS } from './data/dataset.js';
import { linkageService } from './data/wire.js';
import type { ServiceName } from '../specs/common/model.js';
import { SettingsError, loadSettings } from '../harness/config.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext, newRunId } from '../harness/run.js';
import { runBenchmark } from './benchmark.js';
import { compare, sameData } from './compare.js';
import { consoleProgress, quietProgress } from './progress.js';
import { writeReport } from './report.js';
import { type ResultsFile, toResultsFile } from './results.js';
import { ReferenceSettingError, checkReferenceSettings, openDeployments } from '../run/deployments.js';
import { command, parseArguments } from '../run/command.js';

// After a full collection V8 lets the old generation grow to several times what survived; the
// run's live data is about 80 MB at 10,000 entities, and the garbage of its 35,000 requests then
// took the peak to 320 – 420 MB from one run to the next. Growing by 30 % of what survived keeps it
// near 280 MB at the same speed (docs/performance.md, item 32). V8 reads this flag at every
// collection, so setting it once the process runs takes effect (as the vitest process's flags do
// from its command line, run/vitest-process.ts).
setFlagsFromString('--heap-growing-percent=30');

class UsageError extends Error {}

const int = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${name}: expected an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
};

function readBaseline(path: string): ResultsFile {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'results.json') : path;
  if (!existsSync(file)) throw new UsageError(`--compare: no results file at ${file}`);
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as ResultsFile;
    if (!parsed.options || !Array.isArray(parsed.records)) throw new Error('not a match-quality results.json');
    return parsed;
  } catch (e) {
    throw new UsageError(`--compare: ${file}: ${(e as Error).message}`);
  }
}

const program = command({
  name: 'match-quality',
  summary:
    'Feeds a deployment (the embedded reference by default) realistic duplicates with known ground truth through its own API and reports how well it links them (linkage/README.md).',
  settings: [
    'ORG_*, PERSON_*, PROVIDER_*   the deployment to measure (default: the embedded reference)',
    'CONFORMANCE_SEED, CONFORMANCE_MAX_IN_FLIGHT, CONFORMANCE_TIMEOUT_MS, CONFORMANCE_REPORT_DIR, CONFORMANCE_RUN_ID',
    'REFERENCE_FAULTS, REFERENCE_MATCH_THRESHOLD, ...   the embedded reference',
    'MATCH_QUALITY_PRESET, MATCH_QUALITY_SIZE   defaults of --preset and --size',
  ],
  exitCodes: [
    [0, 'done (no regression against the baseline)'],
    [1, 'a regression against the baseline, or records could not be posted or read'],
    [2, 'bad settings or arguments'],
  ],
  examples: [
    'npm run match-quality -- --service person --preset realistic --size 2000',
    'npm run match-quality -- --compare reports/<baseline run>/match-quality/person',
  ],
})
  .option(
    '--service <name>',
    'person | organization | provider (repeatable; default: every service the target serves)',
    (v: string, all: string[] = []) => [...all, v],
  )
  .option('--preset <name>', 'clean | realistic | hard (default MATCH_QUALITY_PRESET or realistic)')
  .option('--size <n>', 'entities per service (default MATCH_QUALITY_SIZE or 2000)')
  .option('--seed <n>', 'data seed (default CONFORMANCE_SEED, else random; printed)')
  .option('--search-sample <n>', 'entities whose last record is searched before posting (default min(400, size / 5))')
  .option('--resamples <n>', 'bootstrap resamples (default 1000)')
  .option('--post-concurrency <n>', "posts in flight at once (default 1: the data set's fixed order; at most CONFORMANCE_MAX_IN_FLIGHT)")
  .option('--compare <path>', 'a baseline results.json (or its folder): same data and seed, paired differences, regression verdict')
  .option('--reference-threshold <x>', 'match threshold of the embedded reference (0..1)')
  .option('--quiet', 'no progress output');

async function main(): Promise<number> {
  parseArguments(program);
  type Opts = {
    service?: string[];
    quiet?: boolean;
    preset?: string;
    size?: string;
    seed?: string;
    searchSample?: string;
    resamples?: string;
    postConcurrency?: string;
    compare?: string;
    referenceThreshold?: string;
  };
  const o = program.opts<Opts>();
  const values = {
    ...o,
    'search-sample': o.searchSample,
    'post-concurrency': o.postConcurrency,
    'reference-threshold': o.referenceThreshold,
  };
  const settings = loadSettings();
  const embedded = Object.keys(settings.configured).length === 0;
  if (embedded) checkReferenceSettings();
  const profile = resolveProfile(loadProfile(settings.profilePath), embedded);
  const baseline = values.compare ? readBaseline(values.compare) : undefined;

  const preset = (values.preset ?? baseline?.options.preset ?? process.env.MATCH_QUALITY_PRESET ?? 'realistic') as PresetName;
  if (!(preset in PRESETS))
    throw new UsageError(`--preset: expected one of ${Object.keys(PRESETS).join(', ')}, got ${JSON.stringify(preset)}`);
  const size = baseline?.options.size ?? int('--size', values.size ?? process.env.MATCH_QUALITY_SIZE, 2000, 2, 1_000_000);
  const seed = baseline?.options.seed ?? int('--seed', values.seed, settings.seed, 0, 2 ** 31);
  const searchSample =
    baseline?.options.searchSample ?? int('--search-sample', values['search-sample'], Math.min(400, Math.ceil(size / 5)), 0, 100000);
  const resamples = int('--resamples', values.resamples, 1000, 10, 100000);
  const postConcurrency = baseline?.options.postConcurrency ?? int('--post-concurrency', values['post-concurrency'], 1, 1, 256);
  const threshold = values['reference-threshold'] === undefined ? undefined : Number(values['reference-threshold']);
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1))
    throw new UsageError('--reference-threshold: expected a number from 0 to 1');
  if (threshold !== undefined && !embedded)
    throw new UsageError('--reference-threshold applies to the embedded reference only (a deployment is configured)');

  const opened = await openDeployments(settings, profile, { matchThreshold: threshold });
  let exit = 0;
  try {
    const available = (Object.keys(opened.targets) as ServiceName[]).filter((s) => opened.targets[s] && linkageService(s));
    const services = baseline ? [baseline.options.service] : ((values.service as ServiceName[] | undefined) ?? available);
    for (const s of services)
      if (!opened.targets[s])
        throw new UsageError(
          `--service ${s}: not ${embedded ? 'served by the embedded reference' : 'configured'} (available: ${available.join(', ') || 'none'})`,
        );
    const runId = settings.runId ?? newRunId();
    const run = new RunContext(runId, settings.reportDir);
    console.log(
      `Match-quality run ${runId}: preset ${preset}, ${size} entities per service, seed ${seed}${embedded ? ` (embedded reference${threshold !== undefined ? `, match threshold ${threshold}` : ''})` : ''}`,
    );
    for (const service of services) {
      const folder = join(run.folder, 'match-quality', service);
      const started = Date.now();
      const result = await runBenchmark({
        service,
        preset,
        size,
        seed,
        searchSample,
        maxSearchResults: 10,
        resamples,
        target: opened.targets[service]!,
        profile,
        run,
        maxInFlight: settings.maxInFlight,
        postConcurrency,
        timeoutMs: settings.timeoutMs,
        folder,
        progress: values.quiet ? quietProgress : consoleProgress,
      });
      const file = toResultsFile(result);
      let comparison: ReturnType<typeof compare> | undefined;
      if (baseline) {
        const differs = sameData(baseline, file);
        if (differs) throw new UsageError(`--compare: the baseline was made from different data: ${differs}`);
        // The run's own data set: the baseline's options and seed build the same one (sameData above).
        comparison = compare(result.dataset, baseline, file, resamples);
        if (comparison.regressions.length) exit = 1;
      }
      await writeReport(folder, file, comparison, baseline?.analysis);
      const m = file.analysis.metrics;
      const f = (k: string) =>
        m[k] ? `${(m[k].value * 100).toFixed(2)}% [${(m[k].low * 100).toFixed(2)}, ${(m[k].high * 100).toFixed(2)}]` : '–';
      console.log(
        `\n${service}: ${file.analysis.sampleSizes.records} records, ${file.analysis.sampleSizes.truePairs} true pairs, ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
          `  pairwise precision ${f('pairwise.precision')}  recall ${f('pairwise.recall')}  F1 ${f('pairwise.f1')}\n` +
          `  B-cubed F ${f('b3.f')}  residual duplicates ${f('residualDuplicateRate')}  overlays ${f('overlayRecordRate')}\n` +
          `  report: ${join(folder, 'report.html')}`,
      );
      if (file.failures.post + file.failures.read > 0) {
        console.error(
          `  ${file.failures.post} posts and ${file.failures.read} reads failed, e.g. ${JSON.stringify(file.failures.examples[0])}`,
        );
        exit = Math.max(exit, 1);
      }
      if (comparison)
        console.log(
          `  comparison with ${comparison.baselineRunId}: ${comparison.regressions.length ? `REGRESSION in ${comparison.regressions.join(', ')}` : 'no regression'}`,
        );
    }
  } finally {
    await opened.stop();
  }
  return exit;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    if (e instanceof SettingsError || e instanceof UsageError || e instanceof ReferenceSettingError) {
      console.error(`match-quality: ${e.message}`);
      process.exit(2);
    }
    console.error(e);
    process.exit(1);
  },
);
