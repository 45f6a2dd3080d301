/**
 * `npm run match-quality -- [options]`: feeds a deployment (or the embedded reference) realistic duplicates with known
 * ground truth through its own API and reports how well it links them.
 *
 * The options are those of `program` below (`npm run match-quality -- --help` lists them).
 *
 * Settings (targets, credentials, sources, CONFORMANCE_MAX_IN_FLIGHT, CONFORMANCE_TIMEOUT_MS, CONFORMANCE_REPORT_DIR)
 * are the suite's (harness/config.ts). Output: reports/<run>/match-quality/<service>/. Exit codes: 0 done (no
 * regression); 1 a regression against the baseline, or records could not be posted/read; 2 bad settings or arguments.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { type PresetName, PRESETS } from './data/dataset.js';
import { LINKAGE_SERVICES, linkageService } from './data/wire.js';
import { TruthSetError } from './truth/errors.js';
import type { TruthSet } from './truth/truth-set.js';

/** The truth-set modules (CSV and date parsing), loaded only for a run that measures a truth set. */
const truthModules = () => Promise.all([import('./truth/truth-set.js'), import('./truth/key.js')]);
import type { ServiceName } from '../specs/common/model.js';
import { type ServiceTarget, type Settings, SettingsError, loadSettings } from '../harness/config.js';
import { type Profile, loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext, newRunId } from '../harness/run.js';
import { type TruthSetInfo, runBenchmark } from './benchmark.js';
import { type Comparison, compare, compareClusterings, sameData } from './compare.js';
import { matchVerdictText } from '../report/match-verdict.js';
import { consoleProgress, quietProgress } from './progress.js';
import { CHANGED_PAIRS_CSV, writeKeyComparison, writeReport } from './report.js';
import { type ResultsFile, toResultsFile } from './results.js';
import {
  type Deployments,
  ReferenceSettingError,
  checkReferenceSettings,
  openDeployments,
} from '../run/deployments.js';
import { command, parseArguments } from '../run/command.js';

// After a full collection V8 lets the old generation grow to several times what survived; the run's live data is about
// 80 MB at 10,000 entities, and the garbage of its 35,000 requests then took the peak to 320 – 420 MB from one run to
// the next. Growing by 30 % of what survived keeps it near 280 MB at the same speed (docs/performance.md, item 32). V8
// reads this flag at every collection, so setting it once the process runs takes effect (as the vitest process's flags
// do from its command line, run/vitest/vitest-process.ts).
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
    'Feeds a deployment (the embedded reference by default) realistic duplicates with known ground truth ' +
    'through its own API and reports how well it links them (linkage/README.md).',
  settings: [
    'ORG_*, PERSON_*, PROVIDER_*   the deployment to measure (default: the embedded reference)',
    'CONFORMANCE_SEED, CONFORMANCE_MAX_IN_FLIGHT, CONFORMANCE_TIMEOUT_MS, CONFORMANCE_REPORT_DIR, CONFORMANCE_RUN_ID',
    'REFERENCE_FAULTS, REFERENCE_MATCH_THRESHOLD, ...   the embedded reference',
    'MATCH_QUALITY_PRESET, MATCH_QUALITY_SIZE   defaults of --preset and --size',
  ],
  exitCodes: {
    0: 'done (no regression against the baseline)',
    1:
      'a regression against the baseline (or of the after key against the before key), or records could not be ' +
      'posted, read or removed',
    2: 'bad settings or arguments',
  },
  examples: [
    'npm run match-quality -- --service person --preset realistic --size 2000',
    'npm run match-quality -- --compare reports/<baseline run>/match-quality/person',
    'npm run match-quality -- --truth examples/truth-sets/senzing-demo --key ' +
      'examples/truth-sets/senzing-demo/actual_truthset_key.csv',
    'npm run match-quality -- --truth <records> --key <truth.csv> --before-key <before.csv> --after-key <after.csv>',
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
  .option(
    '--post-concurrency <n>',
    "posts in flight at once (default 1: the data set's fixed order; at most CONFORMANCE_MAX_IN_FLIGHT)",
  )
  .option(
    '--compare <path>',
    'a baseline results.json (or its folder): same data and seed, paired differences, regression verdict',
  )
  .option('--reference-threshold <x>', 'match threshold of the embedded reference (0..1)')
  .option(
    '--truth <path>',
    'your own labelled records instead of generated data: a JSON Lines file or a folder of them (repeatable; ' +
      'Senzing or plain format, linkage/README.md)',
    (v: string, all: string[] = []) => [...all, v],
  )
  .option('--key <csv>', 'the ground truth of --truth: the cluster of every record (CSV)')
  .option(
    '--before-key <csv>',
    'with --truth and --key: the clustering before, as a key (compare two keys, no deployment)',
  )
  .option('--after-key <csv>', 'with --truth and --key: the clustering after, as a key')
  .option('--quiet', 'no progress output');

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
  truth?: string[];
  key?: string;
  beforeKey?: string;
  afterKey?: string;
};

const pct = (m: { value: number; low: number; high: number } | undefined) =>
  m ? `${(m.value * 100).toFixed(2)}% [${(m.low * 100).toFixed(2)}, ${(m.high * 100).toFixed(2)}]` : '–';
const pp = (m: { value: number; low: number; high: number }) =>
  `${(m.value * 100).toFixed(2)} pp [${(m.low * 100).toFixed(2)}, ${(m.high * 100).toFixed(2)}]`;

/**
 * The console lines of a comparison: the verdict, the paired differences of the pairwise figures and the changed pairs.
 */
function comparisonLines(c: Comparison, against: string): string[] {
  const row = (k: string) => c.rows.find((r) => r.metric === k);
  const f = c.decisions.flips;
  return [
    `  comparison with ${against}: ${matchVerdictText(c)}`,
    ...['pairwise.precision', 'pairwise.recall', 'pairwise.f1', 'b3.f'].flatMap((k) => {
      const r = row(k);
      return r
        ? [
            `    ${k}: ${pct(r.a)} -> ${pct(r.b)}, difference ${pp(r.diff)}` +
              `${r.regression ? ' REGRESSION' : r.improvement ? ' better' : ''}`,
          ]
        : [];
    }),
    `    pairs newly merged: ${f.truePairsNewlyLinked} true pairs, ${f.nonPairsNewlyLinked} non-pairs; newly ` +
      `split: ${f.truePairsNewlyUnlinked} true pairs, ${f.nonPairsNewlyUnlinked} non-pairs`,
  ];
}

/**
 * What became of the records the run posted (linkage/cleanup.ts hard-deletes them through the ledger), e.g. "removed
 * the 2400 records it posted (hard delete; 3 were gone already)", or how many are left and the command that removes
 * them.
 */
function removalLine(c: ResultsFile['cleanup'], runId: string): string {
  const gone = c.alreadyGone ? `; ${c.alreadyGone} were gone already` : '';
  if (!c.failures) return `removed the ${c.deleted + c.alreadyGone} records it posted (hard delete${gone})`;
  return (
    `LEFT ${c.failures} records it posted on the deployment (removed ${c.deleted}${gone}): ` +
    `npm run cleanup -- --run ${runId}`
  );
}

/** The truth set of --truth/--key, or of the baseline's results when --compare names a truth-set run. */
async function truthSetOf(o: Opts, baseline: ResultsFile | undefined): Promise<TruthSet | undefined> {
  if (o.truth?.length && !o.key) throw new UsageError("--truth needs --key (the ground truth: every record's cluster)");
  if (o.key && !o.truth?.length) throw new UsageError('--key needs --truth (the records it clusters)');
  if ((o.beforeKey || o.afterKey) && !(o.beforeKey && o.afterKey))
    throw new UsageError('--before-key and --after-key go together');
  if (o.beforeKey && !o.truth?.length) throw new UsageError('--before-key and --after-key need --truth and --key');
  const recorded = baseline?.options.truthSet;
  if (!(o.truth?.length && o.key) && !recorded) return undefined;
  const [{ loadTruthSet }] = await truthModules();
  if (o.truth?.length && o.key) return loadTruthSet(o.truth, o.key);
  return loadTruthSet(recorded!.records, recorded!.key);
}

/** The truth set in one line: records, format, kinds, clusters, and what the deployment will not see. */
function truthSetLine(set: TruthSet): string {
  const kinds = new Map<string, number>();
  for (const r of set.records) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
  const notSent = Object.entries(set.notSent)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} x${n}`)
    .join(', ');
  return (
    `Truth set ${set.files.records.join(', ')} (${set.format}; key ${set.files.key}): ${set.records.length} ` +
    `records (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}), ` +
    `${new Set(set.records.map((r) => r.cluster)).size} clusters` +
    (set.unknownKind.length ? `; ${set.unknownKind.length} records of no kind the benchmark takes are left out` : '') +
    (notSent ? `\n  not sent (no identity member carries them): ${notSent}` : '')
  );
}

/**
 * Two clusterings given as keys compared on a truth set, without a deployment: per service, the paired bootstrap of
 * every metric (same resamples), the verdict, and the changed pairs, written to reports/<run>/match-quality/<service>/
 * (comparison.json, changed-pairs.csv, report.md, report.html).
 */
async function compareKeys(o: Opts, set: TruthSet, settings: Settings): Promise<number> {
  const [{ truthDataset }, { readKey }] = await truthModules();
  const before = readKey(o.beforeKey!);
  const after = readKey(o.afterKey!);
  const seed = int('--seed', o.seed, settings.seed, 0, 2 ** 31);
  const resamples = int('--resamples', o.resamples, 1000, 10, 100000);
  const runId = settings.runId ?? newRunId();
  const run = new RunContext(runId, settings.reportDir);
  console.log(`Match-quality comparison ${runId}: ${o.beforeKey} -> ${o.afterKey}, seed ${seed}\n${truthSetLine(set)}`);
  let exit = 0;
  for (const spec of LINKAGE_SERVICES) {
    if (o.service?.length && !o.service.includes(spec.service)) continue;
    const dataset = truthDataset(set, spec.kinds, seed, 0);
    if (!dataset) continue;
    const labels = (key: Map<string, string>, file: string) =>
      dataset.records.map((r) => {
        const label = key.get(r.id);
        if (label === undefined)
          throw new UsageError(`${file}: record ${r.id} has no cluster (a key must cluster every record)`);
        return label;
      });
    const comparison = compareClusterings(
      dataset,
      { runId: o.beforeKey!, linkIds: labels(before, o.beforeKey!) },
      { runId: o.afterKey!, linkIds: labels(after, o.afterKey!) },
      resamples,
      seed,
    );
    if (comparison.regressions.length) exit = 1;
    const folder = join(run.folder, 'match-quality', spec.service);
    await writeKeyComparison(folder, spec.service, comparison, {
      ids: dataset.records.map((r) => r.id),
      truth: dataset.records.map((r) => dataset.entities[r.entity]!.label!),
      before: labels(before, o.beforeKey!),
      after: labels(after, o.afterKey!),
      identity: (i: number) => {
        const r = dataset.records[i]!;
        return spec.toWire(r.kind, r.fields, { providerTypeMember: 'npis.entityTypeCode' });
      },
    });
    console.log(
      `\n${spec.service}: ${dataset.records.length} records, ${dataset.entities.length} ` +
        `clusters\n${comparisonLines(comparison, o.beforeKey!).join('\n')}\n  report: ` +
        `${join(folder, 'report.html')} (changed pairs: ${join(folder, CHANGED_PAIRS_CSV)})`,
    );
  }
  return exit;
}

/** The run's choices: the arguments where the baseline does not fix them (data, seed, post bound), else defaults. */
function runChoices(o: Opts, settings: Settings, baseline: ResultsFile | undefined, truth: boolean, embedded: boolean) {
  const preset = (o.preset ??
    baseline?.options.preset ??
    process.env.MATCH_QUALITY_PRESET ??
    'realistic') as PresetName;
  if (!truth && !(preset in PRESETS))
    throw new UsageError(`--preset: expected one of ${Object.keys(PRESETS).join(', ')}, got ${JSON.stringify(preset)}`);
  const size = baseline?.options.size ?? int('--size', o.size ?? process.env.MATCH_QUALITY_SIZE, 2000, 2, 1_000_000);
  const seed = baseline?.options.seed ?? int('--seed', o.seed, settings.seed, 0, 2 ** 31);
  const sampleOf = (entities: number) =>
    baseline?.options.searchSample ??
    int('--search-sample', o.searchSample, Math.min(400, Math.ceil(entities / 5)), 0, 100000);
  const resamples = int('--resamples', o.resamples, 1000, 10, 100000);
  const postConcurrency = baseline?.options.postConcurrency ?? int('--post-concurrency', o.postConcurrency, 1, 1, 256);
  const threshold = o.referenceThreshold === undefined ? undefined : Number(o.referenceThreshold);
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1))
    throw new UsageError('--reference-threshold: expected a number from 0 to 1');
  if (threshold !== undefined && !embedded)
    throw new UsageError('--reference-threshold applies to the embedded reference only (a deployment is configured)');
  return { preset, size, seed, sampleOf, resamples, postConcurrency, threshold };
}

/** The services measured: the baseline's, those asked for, or every one served (holding the truth set's kinds). */
function servicesOf(o: Opts, opened: Deployments, baseline?: ResultsFile, truth?: TruthSet): ServiceName[] {
  const available = (Object.keys(opened.targets) as ServiceName[]).filter(
    (s) => opened.targets[s] && linkageService(s),
  );
  // A truth set goes to the services whose entity kinds it holds.
  const withData = truth
    ? available.filter((s) => truth.records.some((r) => (linkageService(s)!.kinds[r.kind] ?? 0) > 0))
    : available;
  const services = baseline ? [baseline.options.service] : ((o.service as ServiceName[] | undefined) ?? withData);
  for (const s of services)
    if (!opened.targets[s])
      throw new UsageError(
        `--service ${s}: not ${opened.embedded ? 'served by the embedded reference' : 'configured'} (available: ` +
          `${available.join(', ') || 'none'})`,
      );
  return services;
}

/** The truth set as the results record it: format, files and digest. */
const truthSetInfo = (t: TruthSet): TruthSetInfo => ({
  format: t.format,
  records: t.files.records,
  key: t.files.key,
  sha256: t.sha256,
});

/** What every service's measure shares. */
interface Measure {
  o: Opts;
  choices: ReturnType<typeof runChoices>;
  settings: Settings;
  profile: Profile;
  run: RunContext;
  baseline?: ResultsFile;
  truth?: { set: TruthSet; dataset: Awaited<ReturnType<typeof truthModules>>[0]['truthDataset'] };
}

/** Measures one service, writes its report and prints its figures; 1 on a regression or a failed request, else 0. */
async function measureService(service: ServiceName, target: ServiceTarget, m: Measure): Promise<number> {
  const { choices: c, truth, baseline } = m;
  const folder = join(m.run.folder, 'match-quality', service);
  const started = Date.now();
  const spec = linkageService(service)!;
  const clusters = truth
    ? new Set(truth.set.records.filter((r) => (spec.kinds[r.kind] ?? 0) > 0).map((r) => r.cluster)).size
    : 0;
  const dataset = truth ? truth.dataset(truth.set, spec.kinds, c.seed, c.sampleOf(clusters)) : undefined;
  if (truth && !dataset) throw new UsageError(`--service ${service}: the truth set holds no record of a kind it takes`);
  const result = await runBenchmark({
    service,
    preset: dataset ? 'truth-set' : c.preset,
    size: dataset ? dataset.entities.length : c.size,
    seed: c.seed,
    searchSample: dataset ? dataset.searchSample.length : c.sampleOf(c.size),
    maxSearchResults: 10,
    resamples: c.resamples,
    target,
    profile: m.profile,
    run: m.run,
    maxInFlight: m.settings.maxInFlight,
    postConcurrency: c.postConcurrency,
    timeoutMs: m.settings.timeoutMs,
    folder,
    progress: m.o.quiet ? quietProgress : consoleProgress,
    ...(dataset && truth ? { dataset, truthSet: truthSetInfo(truth.set) } : {}),
  });
  const file = toResultsFile(result);
  let comparison: Comparison | undefined;
  if (baseline) {
    const differs = sameData(baseline, file);
    if (differs) throw new UsageError(`--compare: the baseline was made from different data: ${differs}`);
    // The run's own data set: the baseline's options and seed build the same one (sameData above).
    comparison = compare(result.dataset, baseline, file, c.resamples);
  }
  await writeReport(folder, file, comparison, baseline);
  return printOutcome(service, file, folder, started, m.run.runId, comparison);
}

/** The figures of one service's run on the console; 1 on a regression or a failed request, else 0. */
function printOutcome(
  s: ServiceName,
  file: ResultsFile,
  folder: string,
  started: number,
  runId: string,
  c?: Comparison,
) {
  const m = file.analysis.metrics;
  console.log(
    `\n${s}: ${file.analysis.sampleSizes.records} records, ${file.analysis.sampleSizes.truePairs} ` +
      `true pairs, ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
      `  pairwise precision ${pct(m['pairwise.precision'])}  recall ${pct(m['pairwise.recall'])}  F1 ` +
      `${pct(m['pairwise.f1'])}\n` +
      `  B-cubed F ${pct(m['b3.f'])}  residual duplicates ${pct(m.residualDuplicateRate)}  overlays ` +
      `${pct(m.overlayRecordRate)}\n` +
      `  report: ${join(folder, 'report.html')}`,
  );
  console.log(`  ${removalLine(file.cleanup, runId)}`);
  let exit = c?.regressions.length || file.cleanup.failures ? 1 : 0;
  if (file.failures.post + file.failures.read > 0) {
    console.error(
      `  ${file.failures.post} posts and ${file.failures.read} reads failed, e.g. ` +
        `${JSON.stringify(file.failures.examples[0])}`,
    );
    exit = 1;
  }
  if (c)
    console.log(
      [...comparisonLines(c, c.baselineRunId), `  changed pairs: ${join(folder, CHANGED_PAIRS_CSV)}`].join('\n'),
    );
  return exit;
}

async function main(): Promise<number> {
  parseArguments(program);
  const o = program.opts<Opts>();
  const settings = loadSettings();
  const baseline = o.compare ? readBaseline(o.compare) : undefined;
  const truth = await truthSetOf(o, baseline);
  const truthDataset = truth ? (await truthModules())[0].truthDataset : undefined;
  if (truth && (o.preset || o.size))
    throw new UsageError('--preset and --size are for generated data, not with --truth');
  if (o.beforeKey && truth) return compareKeys(o, truth, settings);
  const embedded = Object.keys(settings.configured).length === 0;
  if (embedded) checkReferenceSettings();
  const profile = resolveProfile(loadProfile(settings.profilePath), embedded);
  const choices = runChoices(o, settings, baseline, truth !== undefined, embedded);

  const opened = await openDeployments(settings, profile, { matchThreshold: choices.threshold });
  let exit = 0;
  try {
    const services = servicesOf(o, opened, baseline, truth);
    const runId = settings.runId ?? newRunId();
    const run = new RunContext(runId, settings.reportDir);
    const { preset, size, seed, threshold } = choices;
    const where = embedded
      ? ` (embedded reference${threshold !== undefined ? `, match threshold ${threshold}` : ''})`
      : '';
    console.log(
      truth
        ? `Match-quality run ${runId}: your truth set, seed ${seed}${where}\n${truthSetLine(truth)}`
        : `Match-quality run ${runId}: preset ${preset}, ${size} entities per service, seed ${seed}${where}`,
    );
    const m: Measure = { o, choices, settings, profile, run, baseline };
    if (truth && truthDataset) m.truth = { set: truth, dataset: truthDataset };
    for (const service of services) exit = Math.max(exit, await measureService(service, opened.targets[service]!, m));
  } finally {
    await opened.stop();
  }
  return exit;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    if (
      e instanceof SettingsError ||
      e instanceof UsageError ||
      e instanceof ReferenceSettingError ||
      e instanceof TruthSetError
    ) {
      console.error(`match-quality: ${e.message}`);
      process.exit(2);
    }
    console.error(e);
    process.exit(1);
  },
);
