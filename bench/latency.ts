/**
 * Benchmark: a full three-service conformance run against a distant deployment. Starts the reference in a process of
 * its own with injected per-request latency (REFERENCE_LATENCY_MS, REFERENCE_JITTER_MS), points the suite at it as a
 * user points it at staging, and prints per latency L:
 * - wall: command to exit of the suite (run/cli/conformance.mjs, as `npm run conformance` starts it);
 * - N: requests the deployment received, counted by the reference (every attempt: the checks' requests, the
 *   preflight's, and the removals of the run's records, which share the same in-flight bound), with the checks' share
 *   beside it (their exchanges, each retry counted); M: requests in flight at most (CONFORMANCE_MAX_IN_FLIGHT per
 *   service × services);
 * - critical path: the longest chain of requests of one check that must follow one another
 * - longest checks: the checks that took longest from start to verdict, and the longest one's share of the wall (most
 *   exchanges of the check no two of which overlap in time), as a count K and as K × L;
 * - busiest service: N_s requests of the service that received the most, at most m = CONFORMANCE_MAX_IN_FLIGHT of them
 *   in flight (the bound is per service, so N_s × L / m can exceed N × L / M);
 * - bound = max(K × L, N × L / M, N_s × L / m): no scheduler can finish the requests faster at this latency;
 * - floor: start-up + the busiest service's requests at the time the deployment actually took to answer each (measured
 *   by the reference: injected latency, its handling, its event loop's waits) / m + wind-down: what this run could not
 *   go below with this deployment on this machine;
 * - start-up (command to the first request) and wind-down (last check request to exit: teardown of the run's records,
 *   reports);
 * - wall / bound, CPU time (user + system, s) and peak resident memory (MB) of the suite's process tree and of the
 *   reference process.
 * With several latencies (`--latency-ms 0,50,150`) it ends with a Markdown table of the same figures
 * (docs/performance.md keeps one). With `--profile` the test worker runs under V8's CPU profiler and its time is
 * printed per part and per check request (bench/worker-profile.ts): what the suite does with each reply (parsing,
 * validation, redaction, recording) and the rest; the profile is kept in the run's folder for a closer look (Chrome
 * DevTools, Performance). Figures only: no target is asserted here.
 *
 * Usage: npm run bench:latency -- [--latency-ms 50] [--jitter-ms 10] [--profile] [vitest filters...]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { markdownTable } from 'markdown-table';
import { type CpuProfile, PARTS, REPLY_PARTS, profileParts } from './worker-profile.js';
import pidtree from 'pidtree';
import pidusage from 'pidusage';
import { maxInFlightSetting } from '../harness/config.js';
import { type ExchangeLine, isExchangesFile, readExchangesFile } from '../harness/exchange-file.js';
import { REFERENCE_SOURCES } from '../run/deployments.js';
import { command, parseArguments, usageError } from '../run/command.js';

const program = command({
  name: 'bench:latency',
  summary:
    'Full three-service run against the reference in its own process with injected latency: wall time, ' +
    'requests, critical path, bound, CPU and peak memory.',
  exitCodes: [
    [0, 'measured (whatever the verdicts)'],
    [1, 'a run produced no summary (the suite or the reference did not start)'],
    [2, 'bad arguments'],
  ],
  examples: [
    'npm run bench:latency',
    'npm run bench:latency -- --latency-ms 0,50,150 --jitter-ms 10',
    'npm run bench:latency -- --latency-ms 150 scenarios/organization',
    'npm run bench:latency -- --profile',
  ],
})
  .option('--latency-ms <list>', 'latency per request in ms, one value or a comma-separated list', '50')
  .option('--jitter-ms <ms>', 'extra random latency per request, up to this many ms', '0')
  .option(
    '--profile',
    "profile the test worker's CPU and print where it goes per check request (the profile is kept in the run's folder)",
  )
  .argument('[filters...]', 'vitest filters passed to every run')
  .allowUnknownOption();
parseArguments(program);
const opts = program.opts<{ latencyMs: string; jitterMs: string; profile?: boolean }>();
const latencies = opts.latencyMs.split(',').map((v) => Number(v.trim()));
if (latencies.some((l) => !Number.isInteger(l) || l < 0 || l > 60000))
  usageError(program, `--latency-ms: expected whole numbers 0..60000, got ${JSON.stringify(opts.latencyMs)}`);
const jitter = Number(opts.jitterMs);
if (!Number.isInteger(jitter) || jitter < 0 || jitter > 60000)
  usageError(program, `--jitter-ms: expected a whole number 0..60000, got ${JSON.stringify(opts.jitterMs)}`);
const filters = program.args;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_IN_FLIGHT = maxInFlightSetting(process.env);
/** Settings of the user's environment handed to the measured run (the others are dropped). */
const KEPT_SETTINGS = [
  'CONFORMANCE_MAX_IN_FLIGHT',
  'CONFORMANCE_FILES_AT_ONCE',
  'CONFORMANCE_WORKERS',
  'CONFORMANCE_SEED',
];
const SERVICES = 3;

/** CPU time (s) of this process's reaped children so far: /proc/self/stat cutime + cstime. */
function childrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After the command name: field 3 is index 0, so cutime (16) and cstime (17) are 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Samples the resident memory of a process and its descendants until stopped; returns the peak (MB). */
function peakTreeRss(pid: number): () => Promise<number> {
  let peak = 0;
  let sampling = Promise.resolve();
  const sample = async () => {
    try {
      const pids = await pidtree(pid, { root: true });
      const stats = await pidusage(pids);
      const total = Object.values(stats).reduce((sum, s) => sum + (s?.memory ?? 0), 0);
      peak = Math.max(peak, total / 2 ** 20);
    } catch {
      // the tree changed between listing and reading (a process ended): next sample
    }
  };
  const timer = setInterval(() => (sampling = sample()), 250);
  return async () => {
    clearInterval(timer);
    await sampling;
    pidusage.clear();
    return peak;
  };
}

interface ReferenceProcess {
  child: ChildProcess;
  first: { url: string; baseUrls: Record<string, string>; token: string; username: string; password: string };
  lines: AsyncIterator<string>;
}

async function startReferenceProcess(latencyMs: number): Promise<ReferenceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/reference-process.ts')], {
    cwd: ROOT,
    env: { ...process.env, REFERENCE_LATENCY_MS: String(latencyMs), REFERENCE_JITTER_MS: String(jitter) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = await lines.next();
  if (next.done) throw new Error('the reference process ended before it printed its address');
  return { child, first: JSON.parse(next.value), lines };
}

interface ReferenceFigures {
  peakRssMb: number;
  /** Requests received per service. */
  requests: Record<string, number>;
  /** Time spent answering them per service, ms summed (arrival to reply written). */
  answeringMs: Record<string, number>;
}

/**
 * Stops the reference process; returns its own peak RSS (MB), the requests it received per service and the time it
 * spent answering them.
 */
async function stopReferenceProcess(ref: ReferenceProcess): Promise<ReferenceFigures> {
  const exited = new Promise((r) => ref.child.once('exit', r));
  ref.child.stdin!.end();
  const figures: ReferenceFigures = { peakRssMb: Number.NaN, requests: {}, answeringMs: {} };
  for (let next = await ref.lines.next(); !next.done; next = await ref.lines.next()) {
    const parsed = JSON.parse(next.value) as Partial<ReferenceFigures>;
    if (parsed.peakRssMb !== undefined) figures.peakRssMb = parsed.peakRssMb;
    if (parsed.requests) figures.requests = parsed.requests;
    if (parsed.answeringMs) figures.answeringMs = parsed.answeringMs;
  }
  await exited;
  return figures;
}

/** Most intervals of a check no two of which overlap: the requests that had to follow one another. */
function longestChain(lines: ExchangeLine[]): number {
  const spans = lines
    .map((l) => ({ start: Date.parse(l.startedAt), end: Date.parse(l.startedAt) + l.durationMs }))
    .sort((a, b) => a.end - b.end);
  let count = 0;
  let free = Number.NEGATIVE_INFINITY;
  for (const s of spans) {
    if (s.start >= free) {
      count++;
      free = s.end;
    }
  }
  return count;
}

interface Figures {
  latencyMs: number;
  wallS: number;
  startUpS: number;
  windDownS: number;
  exit: number | null;
  checks: number;
  /** Requests the deployment received (the reference's count). */
  requests: number;
  /** Of those, the checks' requests (their exchanges, each retry counted). */
  checkRequests: number;
  /**
   * The service that received the most requests (its name, its count and the checks' share of it): the in-flight bound
   * is per service.
   */
  busiest: { service: string; requests: number; checkRequests: number; seconds: number; meanAnsweringMs: number };
  /**
   * The least this run could take at the deployment's own pace: start-up, the busiest service's requests at the time
   * the deployment took to answer each (its mean, not L), and wind-down.
   */
  floorS: number;
  inFlight: number;
  chain: number;
  chainCheck: string;
  criticalPathS: number;
  boundS: number;
  suiteCpuS: number;
  referenceCpuS: number;
  suiteRssMb: number;
  referenceRssMb: number;
  /** Scenario files side by side the run chose, and the preflight round trip that chose them (its first lines). */
  filesAtOnce: string;
  /** The checks that took longest, from start to verdict (s), longest first. */
  longest: Array<{ check: string; seconds: number }>;
  /** Requests the deployment received per service, and those of them the checks sent. */
  byService: Array<{ service: string; received: number; byChecks: number }>;
  /** The checks that sent the most requests (every attempt counted), most first. */
  costliest: Array<{ check: string; requests: number }>;
  /** With --profile: the test worker's CPU per part (ms, bench/worker-profile.ts) and where its profile is. */
  worker?: { parts: Record<string, number>; file: string };
}

/**
 * The test worker's profile parts, summed over the profiles of worker threads in `dir` (thread ID above 0 in the name).
 */
function workerProfile(dir: string): Figures['worker'] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /^CPU\.[\d.]+\.\d+\.[1-9]\d*\.\d+\.cpuprofile$/.test(f));
  } catch {
    return undefined;
  }
  if (!files.length) return undefined;
  const parts: Record<string, number> = {};
  for (const f of files)
    for (const [name, ms] of Object.entries(profileParts(JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile)))
      parts[name] = (parts[name] ?? 0) + ms;
  return { parts, file: join(dir, files[0]!) };
}

async function measure(latencyMs: number): Promise<Figures> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-bench-latency-'));
  const runId = `latency-${latencyMs}`;
  // The reference shares this machine's clock: no clock-skew margin to wait out.
  const profile = join(reportDir, 'profile.json');
  writeFileSync(profile, JSON.stringify({ notifications: { clockSkewMs: 0 } }));
  const ref = await startReferenceProcess(latencyMs);
  const sources = REFERENCE_SOURCES.join(',');
  const { baseUrls, token, username, password } = ref.first;
  const env: Record<string, string | undefined> = { ...process.env };
  // The user's settings must not point the run elsewhere; the two that shape its speed stay.
  for (const k of Object.keys(env))
    if (/^(ORG|PERSON|PROVIDER|CONFORMANCE|REFERENCE)_/.test(k) && !KEPT_SETTINGS.includes(k)) delete env[k];
  Object.assign(env, {
    ORG_BASE_URL: baseUrls.organization,
    ORG_TOKEN: token,
    ORG_SOURCES: sources,
    PERSON_BASE_URL: baseUrls.person,
    PERSON_TOKEN: token,
    PERSON_SOURCES: sources,
    PERSON_CUSTOMER_ID: 'reference-customer',
    PROVIDER_BASE_URL: baseUrls.provider,
    PROVIDER_USERNAME: username,
    PROVIDER_PASSWORD: password,
    PROVIDER_SOURCES: sources,
    CONFORMANCE_PROFILE: profile,
    CONFORMANCE_REPORT_DIR: reportDir,
    CONFORMANCE_RUN_ID: runId,
    // Verbose: the run states its preflight round trip and scenario files at once, read below.
    CONFORMANCE_VERBOSE: '1',
    FORCE_COLOR: '0',
  });
  const cpuBefore = childrenCpuSeconds();
  const started = process.hrtime.bigint();
  const startedAt = Date.now();
  // vitest hands execArgv to its worker threads: the test worker writes its profile when it ends.
  const profiles = join(reportDir, 'worker-profile');
  const profiling = opts.profile ? [`--execArgv=--cpu-prof`, `--execArgv=--cpu-prof-dir=${profiles}`] : [];
  const suite = spawn(process.execPath, ['run/cli/conformance.mjs', ...profiling, ...filters], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let head = '';
  suite.stdout!.on('data', (d) => {
    if (head.length < 4000) head += d;
  });
  const stopSampling = peakTreeRss(suite.pid!);
  let stderr = '';
  suite.stderr!.on('data', (d) => (stderr += d));
  const exit = await new Promise<number | null>((r) => suite.once('exit', r));
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const endedAt = startedAt + wallS * 1000;
  const suiteRssMb = await stopSampling();
  const suiteCpuS = childrenCpuSeconds() - cpuBefore;
  const { peakRssMb: referenceRssMb, requests: received, answeringMs } = await stopReferenceProcess(ref);
  const referenceCpuS = childrenCpuSeconds() - cpuBefore - suiteCpuS;

  const folder = join(reportDir, runId);
  let summary: {
    totals: { checks: number };
    checks: Array<{ checkId: string; service: string; durationMs: number; requests?: number }>;
  };
  try {
    summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8'));
  } catch {
    console.error(`bench:latency: the run at ${latencyMs} ms wrote no summary (exit ${exit}):\n${stderr.slice(-2000)}`);
    process.exit(1);
  }
  // Requests by checks: each counted once, with the check that sent it (checks that share a set-up also share its
  // exchanges, so the exchange files would count those twice).
  let checkRequests = 0;
  const perService = new Map<string, number>();
  for (const c of summary.checks) {
    checkRequests += c.requests ?? 0;
    perService.set(c.service, (perService.get(c.service) ?? 0) + (c.requests ?? 0));
  }
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  let chain = 0;
  let chainCheck = '';
  for (const name of readdirSync(join(folder, 'exchanges')).filter(isExchangesFile)) {
    const { lines } = readExchangesFile(join(folder, 'exchanges', name));
    for (const l of lines) {
      first = Math.min(first, Date.parse(l.startedAt));
      last = Math.max(last, Date.parse(l.startedAt) + l.durationMs);
    }
    const k = longestChain(lines);
    if (k > chain) [chain, chainCheck] = [k, name.replace(/\.(lines\.jsonl|json)(\.gz)?$/, '').replace(/__/g, '/')];
  }
  const inFlight = MAX_IN_FLIGHT * SERVICES;
  const perRequestS = (latencyMs + jitter / 2) / 1000;
  const criticalPathS = chain * perRequestS;
  // Every request the deployment received takes a place of its service's in-flight bound, the removals of the run's
  // records during and after the checks as much as the checks' own.
  const requests = Object.values(received).reduce((n, v) => n + v, 0);
  const [service, most] = Object.entries(received).sort((a, b) => b[1] - a[1])[0] ?? ['none', 0];
  // Each service has its own bound of MAX_IN_FLIGHT, so the busiest service bounds the run harder than N / M does.
  const boundS = Math.max(criticalPathS, (requests * perRequestS) / inFlight, (most * perRequestS) / MAX_IN_FLIGHT);
  const answeringS = (answeringMs[service] ?? 0) / 1000;
  const startUpS = (first - startedAt) / 1000;
  const windDownS = (endedAt - last) / 1000;
  return {
    latencyMs,
    wallS,
    startUpS,
    windDownS,
    exit,
    checks: summary.totals.checks,
    requests,
    checkRequests,
    busiest: {
      service,
      requests: most,
      checkRequests: perService.get(service) ?? 0,
      seconds: (most * perRequestS) / MAX_IN_FLIGHT,
      meanAnsweringMs: most ? (answeringS * 1000) / most : 0,
    },
    floorS: startUpS + answeringS / MAX_IN_FLIGHT + windDownS,
    inFlight,
    chain,
    chainCheck,
    criticalPathS,
    boundS,
    suiteCpuS,
    referenceCpuS,
    suiteRssMb,
    referenceRssMb,
    filesAtOnce: filesAtOnceLine(head),
    longest: [...summary.checks]
      .sort((a, b) => b.durationMs - a.durationMs)
      .slice(0, 5)
      .map((c) => ({ check: c.checkId, seconds: c.durationMs / 1000 })),
    byService: Object.entries(received)
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => ({ service: name, received: n, byChecks: perService.get(name) ?? 0 })),
    costliest: [...summary.checks]
      .sort((a, b) => (b.requests ?? 0) - (a.requests ?? 0))
      .slice(0, 8)
      .map((c) => ({ check: c.checkId, requests: c.requests ?? 0 })),
    ...(opts.profile ? { worker: workerProfile(profiles) } : {}),
  };
}

/**
 * "6 (round trip 152 ms)" from the run's own statement of its scenario files at once (run/cli/conformance-prepare.ts),
 * or "default" when it made none.
 */
function filesAtOnceLine(stdout: string): string {
  const m = /round trip (\d+) ms: (\d+) scenario files at once/.exec(stdout);
  return m ? `${m[2]} (round trip ${m[1]} ms)` : 'default';
}

const s = (v: number) => v.toFixed(1);

/** The test worker's CPU per check request, by part: the reply's handling first, then the rest, largest first. */
function workerLine(f: Figures): string {
  if (!f.worker) return '  test worker CPU: no profile was written (the run did not reach its test worker)';
  const per = (ms: number) => (ms / Math.max(1, f.checkRequests)).toFixed(2);
  const { parts } = f.worker;
  const busy = Object.entries(parts).reduce((sum, [name, ms]) => (name === 'idle' ? sum : sum + ms), 0);
  const reply = REPLY_PARTS.reduce((sum, name) => sum + (parts[name] ?? 0), 0);
  const rest = [...PARTS.map(([name]) => name), 'other']
    .filter((name) => name !== 'idle' && !REPLY_PARTS.includes(name) && parts[name])
    .sort((a, b) => parts[b]! - parts[a]!);
  return [
    `  test worker CPU (sampled profile): busy ${s(busy / 1000)} s of ${s((busy + (parts.idle ?? 0)) / 1000)} ` +
      `s, ${per(busy)} ms per check request:`,
    `reply handling ${per(reply)} ms ` +
      `(${REPLY_PARTS.map((name) => `${name.slice('reply: '.length)} ${per(parts[name] ?? 0)}`).join(', ')});`,
    `${rest.map((name) => `${name} ${per(parts[name]!)}`).join(', ')} (profile: ${f.worker.file})`,
  ].join(' ');
}
const ratio = (f: Figures) => (f.boundS > 0 ? `${(f.wallS / f.boundS).toFixed(2)} ×` : 'n/a (no latency)');
const results: Figures[] = [];
for (const latencyMs of latencies) {
  const f = await measure(latencyMs);
  results.push(f);
  console.log(
    [
      `latency ${latencyMs} ms${jitter ? ` (+ up to ${jitter} ms jitter)` : ''}: wall ${s(f.wallS)} s, exit ` +
        `${f.exit}, ${f.checks} checks`,
      `  start-up ${s(f.startUpS)} s (command to first request), wind-down ${s(f.windDownS)} s (last check ` +
        `request to exit)`,
      `  requests N = ${f.requests} received by the deployment (${f.checkRequests} by checks; the rest: ` +
        `preflight, removal of the run's records), in flight at most M = ${f.inFlight}, N·L/M = ` +
        `${s((f.requests * (latencyMs + jitter / 2)) / 1000 / f.inFlight)} s`,
      `  busiest service: ${f.busiest.service}, ${f.busiest.requests} requests (${f.busiest.checkRequests} by ` +
        `checks) at most ${MAX_IN_FLIGHT} in flight = ${s(f.busiest.seconds)} s`,
      `  critical path: ${f.chain} requests in a chain (${f.chainCheck}) = ${s(f.criticalPathS)} s`,
      `  longest checks: ${f.longest.map((c) => `${c.check} ${s(c.seconds)} s`).join('; ')}; the longest is ` +
        `${(f.longest[0]?.seconds ?? 0) / f.wallS > 0 ? ((f.longest[0]!.seconds / f.wallS) * 100).toFixed(0) : 0}% ` +
        `of the wall`,
      `  bound = ${s(f.boundS)} s, wall / bound = ${ratio(f)}`,
      `  the deployment's own time per ${f.busiest.service} request (arrival to reply written): ` +
        `${f.busiest.meanAnsweringMs.toFixed(1)} ms on average; start-up + its requests at that time / ` +
        `${MAX_IN_FLIGHT} + wind-down = ${s(f.floorS)} ` +
        `s${f.boundS > 0 ? ` = ${(f.floorS / f.boundS).toFixed(2)} × bound` : ''} (the least this run could take ` +
        `with this deployment on this machine)`,
      `  wall / floor = ${(f.wallS / f.floorS).toFixed(2)} ×`,
      `  requests per service (received, by checks, per second over the wall): ` +
        `${f.byService.map((x) => `${x.service} ${x.received} (${x.byChecks}), ${(x.received / f.wallS).toFixed(0)}/s`).join('; ')}`,
      `  most requests by check: ${f.costliest.map((c) => `${c.check} ${c.requests}`).join('; ')}`,
      `  suite CPU per request: ${((f.suiteCpuS * 1000) / Math.max(1, f.requests)).toFixed(2)} ms`,
      ...(opts.profile ? [workerLine(f)] : []),
      `  scenario files at once: ${f.filesAtOnce}`,
      `  CPU: suite ${s(f.suiteCpuS)} s, reference ${s(f.referenceCpuS)} s; peak RSS: suite ` +
        `${Math.round(f.suiteRssMb)} MB, reference ${Math.round(f.referenceRssMb)} MB`,
    ].join('\n'),
  );
}
if (results.length > 1) {
  console.log(
    `\n${markdownTable([
      [
        'L (ms)',
        'files at once',
        'wall (s)',
        'start-up / wind-down (s)',
        'checks',
        'N (by checks)',
        'M',
        'busiest service N_s (by checks)',
        'critical path (requests / s)',
        'bound (s)',
        'wall / bound',
        'floor (s, × bound)',
        'CPU suite / reference (s)',
        'peak RSS suite / reference (MB)',
      ],
      ...results.map((f) => [
        String(f.latencyMs),
        f.filesAtOnce.split(' ')[0]!,
        s(f.wallS),
        `${s(f.startUpS)} / ${s(f.windDownS)}`,
        String(f.checks),
        `${f.requests} (${f.checkRequests})`,
        String(f.inFlight),
        `${f.busiest.service} ${f.busiest.requests} (${f.busiest.checkRequests})`,
        `${f.chain} / ${s(f.criticalPathS)}`,
        s(f.boundS),
        ratio(f),
        f.boundS > 0 ? `${s(f.floorS)} (${(f.floorS / f.boundS).toFixed(2)} ×)` : s(f.floorS),
        `${s(f.suiteCpuS)} / ${s(f.referenceCpuS)}`,
        `${Math.round(f.suiteRssMb)} / ${Math.round(f.referenceRssMb)}`,
      ]),
    ])}`,
  );
}
