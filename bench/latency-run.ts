/**
 * One measured run of `npm run bench:latency` (bench/latency.ts prints the figures): the reference
 * in a process of its own (bench/reference-process.ts) with the latency injected and, for a
 * serializing deployment, one lock for all its requests (reference/variants/serialized.ts); the
 * suite of a checkout (this one, or the one `--vs` names) pointed at it as a user points it at
 * staging; and what both sides show afterwards: the reference's counts, times and requests in
 * flight per second, the run folder's summary and exchanges, CPU and peak memory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pidtree from 'pidtree';
import pidusage from 'pidusage';
import { type ExchangeLine, isExchangesFile, readExchangesFile } from '../harness/exchange-file.js';
import type { PerSecond } from '../reference/occupancy.js';
import { REFERENCE_SOURCES } from '../run/deployments.js';
import { type CpuWait, sampleCpuWait } from './cpu-wait.js';
import { type CpuProfile, profileParts } from './worker-profile.js';
import { withoutSettings } from '../harness/setting-names.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Settings of the user's environment handed to the measured run (the others are dropped). */
const KEPT_SETTINGS = [
  'CONFORMANCE_MAX_IN_FLIGHT',
  'CONFORMANCE_FILES_AT_ONCE',
  'CONFORMANCE_WORKERS',
  'CONFORMANCE_SEED',
];

/** What one run measures against. */
export interface RunPlan {
  latencyMs: number;
  jitterMs: number;
  /**
   * Handling times of a serializing deployment (bench/reference-process.ts --serialized); undefined: the plain
   * reference.
   */
  serialized?: string;
  /** The checkout whose suite runs (its run/cli/conformance.mjs). */
  suiteRoot: string;
  /** The profile's notifications.clockSkewMs; undefined: the profile's default for a configured deployment. */
  clockSkewMs?: number;
  /** Requests in flight at most per service (CONFORMANCE_MAX_IN_FLIGHT). */
  maxInFlight: number;
  profile: boolean;
  filters: string[];
  /** The environment the bench was started with (the user's speed settings are kept from it). */
  env: NodeJS.ProcessEnv;
}

/** What the reference process reports when it stops. */
export interface ReferenceFigures {
  peakRssMb: number;
  /** Requests received per service. */
  requests: Record<string, number>;
  /** Time spent answering them per service, ms summed (arrival to reply written). */
  answeringMs: Record<string, number>;
  /** Serialized: per service, ms summed, waiting for the lock and holding it. */
  lockMs: { waiting: Record<string, number>; handling: Record<string, number> };
  occupancy: PerSecond;
}

/** What the suite's side of a run shows: its process, its run folder. */
export interface SuiteFigures {
  wallS: number;
  exit: number | null;
  startedAt: number;
  suiteCpuS: number;
  referenceCpuS: number;
  suiteRssMb: number;
  /** The run's first lines (the preflight's round trip and files at once, in verbose). */
  head: string;
  folder: string;
  checks: number;
  /** Every check with its service, time from start to verdict and requests. */
  perCheck: Array<{ checkId: string; service: string; durationMs: number; requests: number }>;
  /** First and last request of the checks, ms since the epoch (their exchanges). */
  first: number;
  last: number;
  /** The longest chain of one check's requests that had to follow one another, and whose. */
  chain: number;
  chainCheck: string;
  /** How long the suite's and the reference's threads ran and waited for a CPU; the machine's load as the run began. */
  cpuWait: { suite: CpuWait; reference: CpuWait; loadAverage: number };
  /** Per service, every check request's time from its queue entry to its reply, ms since the epoch. */
  spans: Record<string, Array<[number, number]>>;
  worker?: { parts: Record<string, number>; file: string };
}

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

async function startReferenceProcess(plan: RunPlan): Promise<ReferenceProcess> {
  const serialized = plan.serialized === undefined ? [] : ['--serialized', plan.serialized];
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/reference-process.ts'), ...serialized], {
    cwd: ROOT,
    env: { ...plan.env, REFERENCE_LATENCY_MS: String(plan.latencyMs), REFERENCE_JITTER_MS: String(plan.jitterMs) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = await lines.next();
  if (next.done) throw new Error('the reference process ended before it printed its address');
  return { child, first: JSON.parse(next.value), lines };
}

/** Stops the reference process; returns what it measured. */
async function stopReferenceProcess(ref: ReferenceProcess): Promise<ReferenceFigures> {
  const exited = new Promise((r) => ref.child.once('exit', r));
  ref.child.stdin!.end();
  let figures: Partial<ReferenceFigures> = {};
  for (let next = await ref.lines.next(); !next.done; next = await ref.lines.next())
    figures = { ...figures, ...(JSON.parse(next.value) as Partial<ReferenceFigures>) };
  await exited;
  return {
    peakRssMb: figures.peakRssMb ?? Number.NaN,
    requests: figures.requests ?? {},
    answeringMs: figures.answeringMs ?? {},
    lockMs: figures.lockMs ?? { waiting: {}, handling: {} },
    occupancy: figures.occupancy ?? { originEpochMs: 0, inFlight: {}, arrivals: {}, lockBusy: [] },
  };
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

/**
 * The test worker's profile parts, summed over the profiles of worker threads in `dir` (thread ID above 0 in the name).
 */
function workerProfile(dir: string): SuiteFigures['worker'] {
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

/**
 * The suite's environment: the user's settings dropped (but those that shape its speed), the reference configured as a
 * deployment.
 */
function suiteEnv(
  plan: RunPlan,
  ref: ReferenceProcess,
  reportDir: string,
  runId: string,
): Record<string, string | undefined> {
  // The reference shares this machine's clock: no clock-skew margin to wait out, unless asked for (a staging
  // deployment's clock is another machine's: the profile's default margin then holds).
  const profile = join(reportDir, 'profile.json');
  writeFileSync(
    profile,
    JSON.stringify(plan.clockSkewMs === undefined ? {} : { notifications: { clockSkewMs: plan.clockSkewMs } }),
  );
  const sources = REFERENCE_SOURCES.join(',');
  const { baseUrls, token, username, password } = ref.first;
  return Object.assign(withoutSettings(plan.env, KEPT_SETTINGS), {
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
}

/** Runs the suite against the reference; returns its process's figures (wall, CPU, memory, its first lines). */
async function runSuite(plan: RunPlan, env: Record<string, string | undefined>, profiles: string) {
  const cpuBefore = childrenCpuSeconds();
  const started = process.hrtime.bigint();
  const startedAt = Date.now();
  // vitest hands execArgv to its worker threads: the test worker writes its profile when it ends.
  const profiling = plan.profile ? [`--execArgv=--cpu-prof`, `--execArgv=--cpu-prof-dir=${profiles}`] : [];
  const suite = spawn(process.execPath, ['run/cli/conformance.mjs', ...profiling, ...plan.filters], {
    cwd: plan.suiteRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let head = '';
  suite.stdout!.on('data', (d) => {
    if (head.length < 4000) head += d;
  });
  const stopSampling = peakTreeRss(suite.pid!);
  const stopWaits = sampleCpuWait(suite.pid!);
  let stderr = '';
  suite.stderr!.on('data', (d) => (stderr += d));
  const exit = await new Promise<number | null>((r) => suite.once('exit', r));
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const suiteRssMb = await stopSampling();
  const suiteWait = await stopWaits();
  const suiteCpuS = childrenCpuSeconds() - cpuBefore;
  return { wallS, exit, startedAt, head, stderr, suiteRssMb, suiteWait, suiteCpuS, cpuBefore };
}

/**
 * What the run folder shows: the checks, the span of their requests and the longest chain. @throws Error when it holds
 * no summary
 */
function readRunFolder(folder: string) {
  const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as {
    totals: { checks: number };
    checks: Array<{ checkId: string; service: string; durationMs: number; requests?: number }>;
  };
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  let chain = 0;
  let chainCheck = '';
  const spans: Record<string, Array<[number, number]>> = {};
  for (const name of readdirSync(join(folder, 'exchanges')).filter(isExchangesFile)) {
    const { lines } = readExchangesFile(join(folder, 'exchanges', name));
    for (const l of lines) {
      const start = Date.parse(l.startedAt);
      first = Math.min(first, start);
      last = Math.max(last, start + l.durationMs);
      (spans[l.service] ??= []).push([start, start + l.durationMs]);
    }
    const k = longestChain(lines);
    if (k > chain) [chain, chainCheck] = [k, name.replace(/\.(lines\.jsonl|json)(\.gz)?$/, '').replace(/__/g, '/')];
  }
  const perCheck = summary.checks.map((c) => ({
    checkId: c.checkId,
    service: c.service,
    durationMs: c.durationMs,
    requests: c.requests ?? 0,
  }));
  return { checks: summary.totals.checks, perCheck, first, last, chain, chainCheck, spans };
}

/**
 * Measures one run.
 * @throws Error when the run wrote no summary (the suite or the reference did not start), with the end of its stderr
 */
export async function measureRun(plan: RunPlan): Promise<{ suite: SuiteFigures; reference: ReferenceFigures }> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-bench-latency-'));
  const runId = `latency-${plan.latencyMs}`;
  const ref = await startReferenceProcess(plan);
  const profiles = join(reportDir, 'worker-profile');
  const loadAverage = loadavg()[0]!;
  const stopReferenceWaits = sampleCpuWait(ref.child.pid!);
  const ran = await runSuite(plan, suiteEnv(plan, ref, reportDir, runId), profiles);
  const referenceWait = await stopReferenceWaits();
  const reference = await stopReferenceProcess(ref);
  const referenceCpuS = childrenCpuSeconds() - ran.cpuBefore - ran.suiteCpuS;
  const folder = join(reportDir, runId);
  let read: ReturnType<typeof readRunFolder>;
  try {
    read = readRunFolder(folder);
  } catch {
    throw new Error(`the run at ${plan.latencyMs} ms wrote no summary (exit ${ran.exit}):\n${ran.stderr.slice(-2000)}`);
  }
  const { stderr: _stderr, cpuBefore: _cpu, suiteWait, ...kept } = ran;
  return {
    suite: {
      ...kept,
      referenceCpuS,
      folder,
      ...read,
      cpuWait: { suite: suiteWait, reference: referenceWait, loadAverage },
      ...(plan.profile ? { worker: workerProfile(profiles) } : {}),
    },
    reference,
  };
}
