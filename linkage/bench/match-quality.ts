/**
 * Match-quality benchmark figures (printed, never asserted): for each size, one child process runs the benchmark (build
 * data, post, search sample, read back, score with bootstrap intervals, hard-delete) against the embedded reference
 * running in a process of its own (bench/reference-process.ts), so the memory figures are separate: the benchmark's own
 * (client, data set, analysis) and the reference deployment's (its store grows with the records). Each process reports
 * its peak RSS and its live heap (after a full collection: what it retains; the peak RSS also holds garbage V8 had not
 * collected yet, which grows with the allocation rate). Usage: `npx tsx bench/match-quality.ts [--service person]
 * [--preset realistic] [--sizes 2000,10000] [--seed 1] [--post-concurrency 1]`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { command, parseArguments } from '../../run/command.js';
import type { PresetName } from '../data/dataset.js';
import type { ServiceName } from '../../specs/common/model.js';

const program = command({
  name: 'match-quality benchmark',
  invocation: 'npx tsx linkage/bench/match-quality.ts',
  summary:
    'Match-quality benchmark figures: time and memory of the benchmark and of the reference per data-set size ' +
    '(printed, never asserted).',
  exitCodes: { 0: 'measured', 2: 'bad arguments' },
  examples: ['npx tsx linkage/bench/match-quality.ts --service person --sizes 2000,10000'],
})
  .option('--service <name>', 'person | organization | provider', 'person')
  .option('--preset <name>', 'clean | realistic | hard', 'realistic')
  .option('--sizes <list>', 'comma list of entity counts', '2000,10000')
  .option('--seed <n>', 'data seed', '1')
  .option('--post-concurrency <n>', 'posts in flight at once', '1')
  .option('--child <size>', '(internal) run one size in this process');
parseArguments(program);
const o = program.opts<{
  service: string;
  preset: string;
  sizes: string;
  seed: string;
  postConcurrency: string;
  child?: string;
}>();
const values = { ...o, 'post-concurrency': o.postConcurrency };

/** Starts bench/reference-process.ts; resolves with its connection line and a stop() giving its peak RSS. */
async function referenceProcess() {
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/reference-process.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error('the reference process ended early');
    return JSON.parse(line.value);
  };
  const info = (await next()) as {
    baseUrls: Record<string, string>;
    token: string;
    username: string;
    password: string;
  };
  return {
    info,
    /** The reference's heap in use after a full collection (its store as it stands). */
    async liveHeapMb(): Promise<number> {
      proc.stdin!.write('heap\n');
      return ((await next()) as { liveHeapMb: number }).liveHeapMb;
    },
    async stop(): Promise<number> {
      proc.stdin!.end();
      return ((await next()) as { peakRssMb: number }).peakRssMb;
    },
  };
}

async function child(size: number): Promise<void> {
  const { loadProfile, resolveProfile } = await import('../../harness/profile.js');
  const { RunContext, newRunId } = await import('../../harness/run.js');
  const { runBenchmark } = await import('../benchmark.js');
  const { REFERENCE_SOURCES } = await import('../../run/deployments.js');
  const { SERVICES } = await import('../../specs/services.js');
  const profile = resolveProfile(loadProfile(), true);
  const reference = await referenceProcess();
  const service = values.service as ServiceName;
  const spec = SERVICES[service];
  const scheme = service === 'person' ? profile.person.auth : spec.authSchemes[0];
  const target = {
    service,
    baseUrl: reference.info.baseUrls[service]!,
    servicePath: spec.servicePath,
    auth:
      scheme === 'bearer'
        ? ({ scheme: 'bearer', token: reference.info.token } as const)
        : ({ scheme: 'basic', username: reference.info.username, password: reference.info.password } as const),
    sources: REFERENCE_SOURCES,
    customerId: service === 'person' ? 'reference-customer' : undefined,
    embedded: true,
  };
  const run = new RunContext(newRunId(), mkdtempSync(join(tmpdir(), 'mq-bench-')));
  // Live heap (after a full collection) at the end of every phase, here and in the reference once everything is posted:
  // what each process retains, apart from garbage V8 has not collected yet.
  const gc = (globalThis as { gc?: () => void }).gc!;
  let benchLiveHeapMb = 0;
  let referenceLiveHeap: Promise<number> | undefined;
  const progress = (label: string) => ({
    tick() {},
    stop() {
      gc();
      benchLiveHeapMb = Math.max(benchLiveHeapMb, process.memoryUsage().heapUsed / 2 ** 20);
      if (label === 'posting sample') referenceLiveHeap = reference.liveHeapMb();
    },
  });
  const started = performance.now();
  const r = await runBenchmark({
    service,
    preset: values.preset as PresetName,
    size,
    seed: Number(values.seed),
    searchSample: 400,
    maxSearchResults: 10,
    resamples: 1000,
    target,
    profile,
    run,
    maxInFlight: 8,
    postConcurrency: Number(values['post-concurrency']),
    timeoutMs: 60000,
    folder: join(run.folder, 'match-quality', service),
    progress,
  });
  const seconds = (performance.now() - started) / 1000;
  gc();
  benchLiveHeapMb = Math.max(benchLiveHeapMb, process.memoryUsage().heapUsed / 2 ** 20);
  const referenceLiveHeapMb = (await referenceLiveHeap) ?? Number.NaN;
  const referencePeakRssMb = await reference.stop();
  const m = r.analysis.metrics;
  console.log(
    JSON.stringify({
      size,
      records: r.dataset.records.length,
      truePairs: r.analysis.sampleSizes.truePairs,
      seconds,
      benchPeakRssMb: process.resourceUsage().maxRSS / 1024,
      benchLiveHeapMb,
      referencePeakRssMb,
      referenceLiveHeapMb,
      timings: r.observation.timings,
      failures: r.observation.failures.post + r.observation.failures.read,
      precision: m['pairwise.precision'],
      recall: m['pairwise.recall'],
      f1: m['pairwise.f1'],
      b3f: m['b3.f'],
    }),
  );
}

if (values.child) await child(Number(values.child));
else {
  console.log(
    `match-quality benchmark: ${values.service}, preset ${values.preset}, seed ${values.seed}, post concurrency ` +
      `${values['post-concurrency']}; reference in its own process, one benchmark child process per size`,
  );
  for (const size of values.sizes!.split(',').map(Number)) {
    const args = [
      '--expose-gc',
      '--import',
      'tsx',
      'linkage/bench/match-quality.ts',
      '--child',
      String(size),
      '--service',
      values.service!,
      '--preset',
      values.preset!,
      '--seed',
      values.seed!,
      '--post-concurrency',
      values['post-concurrency']!,
    ];
    const out = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    const line = out.stdout.trim().split('\n').at(-1) ?? '';
    let r: any;
    try {
      r = JSON.parse(line);
    } catch {
      console.log(`size ${size}: child failed (exit ${out.status})\n${out.stderr.slice(-2000)}`);
      continue;
    }
    const pct = (x: { value: number; low: number; high: number }) =>
      `${(x.value * 100).toFixed(2)}% [${(x.low * 100).toFixed(2)}, ${(x.high * 100).toFixed(2)}]`;
    const t = r.timings;
    console.log(
      `${String(size).padStart(6)} entities, ${r.records} records, ${r.truePairs} true pairs: ` +
        `${r.seconds.toFixed(1)} s ` +
        `(post ${(t.postMs / 1000).toFixed(1)}, search ${(t.searchMs / 1000).toFixed(1)}, read ` +
        `${(t.readMs / 1000).toFixed(1)}, clean-up ${(t.cleanupMs / 1000).toFixed(1)})` +
        `\n        benchmark process: peak RSS ${r.benchPeakRssMb.toFixed(0)} MB, live heap ≤ ` +
        `${r.benchLiveHeapMb.toFixed(0)} MB (after GC, phase ends)` +
        `\n        reference process: peak RSS ${r.referencePeakRssMb.toFixed(0)} MB, live heap ` +
        `${r.referenceLiveHeapMb.toFixed(0)} MB (after GC, every record posted)` +
        `\n        precision ${pct(r.precision)}, recall ${pct(r.recall)}, F1 ${pct(r.f1)}, B3 F ` +
        `${pct(r.b3f)}${r.failures ? `, ${r.failures} failed requests` : ''}`,
    );
  }
}
