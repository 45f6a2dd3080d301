/**
 * Benchmark: a full three-service conformance run against a distant deployment. Starts the
 * reference in a process of its own with injected per-request latency (REFERENCE_LATENCY_MS,
 * REFERENCE_JITTER_MS) and, with `--deployment serialized`, as a deployment that handles one
 * request at a time (one lock shared by its services, a handling time per operation:
 * reference/variants/serialized.ts); points the suite at it as a user points it at staging, and
 * prints per latency L and deployment (bench/latency-figures.ts):
 * - wall: command to exit of the suite (run/cli/conformance.mjs, as `npm run conformance` starts it);
 *   start-up (command to the first check request) and wind-down (last check request to exit);
 * - N: requests the deployment received, counted by the reference (every attempt: the checks'
 *   requests, the preflight's, and the removals of the run's records, which share the same
 *   in-flight bound), with the checks' share beside it; per service the same, the deployment's own
 *   time per request and the requests in flight per second of the checks' span (of
 *   CONFORMANCE_MAX_IN_FLIGHT = m places);
 * - floor: start-up + the larger of the serialized handling (the lock's time, all services
 *   together) and each service's requests at the deployment's own time / m + wind-down: what this
 *   run could not go below with this deployment on this machine; wall / floor;
 * - critical path (the longest chain of one check's requests that had to follow one another),
 *   bound = max(K × L, N × L / M, N_s × L / m), the longest checks and the longest one's share of
 *   the wall, the checks that sent most, CPU time and peak resident memory of both sides.
 * `--vs <checkout>` runs that checkout's suite (an unchanged checkout of an earlier commit, with
 * its node_modules) against the same kind of reference, in turn with this one (before, after,
 * before, after: `--rounds`), and ends with the pairs side by side and their medians. With several
 * runs it ends with a Markdown table of the figures (docs/performance.md keeps them). With
 * `--profile` the test worker runs under V8's CPU profiler and its time is printed per part and
 * per check request (bench/worker-profile.ts); the profile is kept in the run's folder. Figures
 * only: no target is asserted here.
 *
 * Usage: npm run bench:latency -- [--latency-ms 50] [--jitter-ms 10] [--deployment plain,serialized]
 *   [--handling-ms search=10,post=8,change=5,read=0.9] [--vs <checkout>] [--rounds 2] [--profile] [vitest filters...]
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownTable } from 'markdown-table';
import { maxInFlightSetting } from '../harness/config.js';
import { DEFAULT_HANDLING_MS, parseHandlingTimes } from '../reference/variants/serialized.js';
import { command, integer, parseArguments, usageError } from '../run/command.js';
import { type Figures, figuresOf } from './latency-figures.js';
import { measureRun } from './latency-run.js';
import { PARTS, REPLY_PARTS } from './worker-profile.js';

const program = command({
  name: 'bench:latency',
  summary:
    'Full three-service run against the reference in its own process with injected latency, plain or ' +
    'serializing: wall time, requests, floor, requests in flight per service per second, CPU and peak memory; ' +
    'paired with another checkout.',
  exitCodes: {
    0: 'measured (whatever the verdicts)',
    1: 'a run produced no summary (the suite or the reference did not start)',
    2: 'bad arguments',
  },
  examples: [
    'npm run bench:latency',
    'npm run bench:latency -- --latency-ms 0,50,150 --jitter-ms 10',
    'npm run bench:latency -- --latency-ms 50,150 --deployment plain,serialized --vs ../baseline-checkout --rounds 2',
    'npm run bench:latency -- --latency-ms 150 --deployment serialized --handling-ms search=10,read=1',
    'npm run bench:latency -- --profile',
  ],
})
  .option('--latency-ms <list>', 'latency per request in ms, one value or a comma-separated list', '50')
  .option('--jitter-ms <ms>', 'extra random latency per request, up to this many ms', integer(0, 60000), 0)
  .option(
    '--deployment <list>',
    'plain (the reference as it is) or serialized (one request at a time under one lock, with --handling-ms), ' +
      'or both, comma-separated',
    'plain',
  )
  .option(
    '--handling-ms <times>',
    'handling time per kind of operation of the serialized deployment, ms: search (demographicsSearch, ' +
      'demographicsQuery), post, change, read',
    Object.entries(DEFAULT_HANDLING_MS)
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
  )
  .option(
    '--vs <checkout>',
    "another checkout (with node_modules) whose suite runs in turn with this one's, before it in each pair",
  )
  .option(
    '--clock-skew-ms <ms>',
    "the profile's notifications.clockSkewMs: the margin a run waits out around notification windows ('default': " +
      "the profile's default for a configured deployment, as against staging)",
    '0',
  )
  .option('--rounds <n>', 'times each latency and deployment is measured (each side, with --vs)', integer(1, 20), 1)
  .option('--json <file>', "also write every run's figures to this file (JSON)")
  .option(
    '--profile',
    "profile the test worker's CPU and print where it goes per check request (the profile is kept in the run's folder)",
  )
  .argument('[filters...]', 'vitest filters passed to every run')
  .allowUnknownOption();
parseArguments(program);
const opts = program.opts<{
  latencyMs: string;
  jitterMs: number;
  deployment: string;
  handlingMs: string;
  vs?: string;
  rounds: number;
  clockSkewMs: string;
  json?: string;
  profile?: boolean;
}>();
const latencies = opts.latencyMs.split(',').map((v) => Number(v.trim()));
if (latencies.some((l) => !Number.isInteger(l) || l < 0 || l > 60000))
  usageError(program, `--latency-ms: expected whole numbers 0..60000, got ${JSON.stringify(opts.latencyMs)}`);
const jitter = opts.jitterMs;
const deployments = opts.deployment.split(',').map((d) => d.trim());
if (!deployments.length || deployments.some((d) => d !== 'plain' && d !== 'serialized'))
  usageError(program, `--deployment: expected plain, serialized or both, got ${JSON.stringify(opts.deployment)}`);
try {
  parseHandlingTimes(opts.handlingMs);
} catch (e) {
  usageError(program, `--handling-ms: ${(e as Error).message}`);
}
const clockSkewMs = opts.clockSkewMs === 'default' ? undefined : Number(opts.clockSkewMs);
if (clockSkewMs !== undefined && !(Number.isInteger(clockSkewMs) && clockSkewMs >= 0 && clockSkewMs <= 600000))
  usageError(
    program,
    `--clock-skew-ms: expected a whole number 0..600000 or "default", got ${JSON.stringify(opts.clockSkewMs)}`,
  );
const { rounds } = opts;
const vs = opts.vs === undefined ? undefined : resolve(opts.vs);
if (vs !== undefined && !existsSync(join(vs, 'run/cli/conformance.mjs')))
  usageError(program, `--vs: ${vs} holds no run/cli/conformance.mjs (expected a checkout of this project)`);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_IN_FLIGHT = maxInFlightSetting(process.env);
const THIS = 'this checkout';
/** Share of its runnable time a thread waited for a CPU above which the run counts as taken on a busy machine. */
const BUSY_WAIT_SHARE = 0.2;

const s = (v: number) => v.toFixed(1);
const pct = (v: number) => `${(v * 100).toFixed(0)} %`;
const ratio = (f: Figures) => (f.boundS > 0 ? `${(f.wallS / f.boundS).toFixed(2)} ×` : 'n/a (no latency)');
const deploymentWords = (f: Figures) =>
  f.deployment === 'serialized'
    ? `serialized deployment (one lock; handling ${opts.handlingMs.replace(/=/g, ' ').replace(/,/g, ', ')} ms)`
    : 'plain reference';

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
  const replyParts = REPLY_PARTS.map((name) => `${name.slice('reply: '.length)} ${per(parts[name] ?? 0)}`);
  return [
    `  test worker CPU (sampled profile): busy ${s(busy / 1000)} s of ${s((busy + (parts.idle ?? 0)) / 1000)} s,`,
    `${per(busy)} ms per check request: reply handling ${per(reply)} ms (${replyParts.join(', ')});`,
    `${rest.map((name) => `${name} ${per(parts[name]!)}`).join(', ')} (profile: ${f.worker.file})`,
  ].join(' ');
}

/** Requests in flight per service per second, the suite's requests outstanding, why places stood idle, and the lock. */
function perSecondLines(f: Figures): string[] {
  const width = Math.max(...f.services.map((x) => x.service.length), 'lock held'.length);
  const pad = ''.padEnd(width);
  const row = (xs: number[], digits: number) => xs.map((v) => v.toFixed(digits)).join(' ');
  const lock = f.lockBusy.reduce((a, b) => a + b, 0) / Math.max(1, f.lockBusy.length);
  return [
    `  requests in flight per service per second of the checks' span (of ${f.maxInFlight} places, ` +
      "the deployment's count; below it the suite's requests waiting for a place or in flight):",
    ...f.services.flatMap((x) => [
      `    ${x.service.padEnd(width)}  mean ${s(x.meanInFlight)}: ${row(x.inFlight, 1)}`,
      `    ${pad}  the suite's: ${row(x.outstanding, 0)}`,
      `    ${pad}  idle place-seconds: ${s(x.idle.noWork)} with fewer requests ready than places, ` +
        `${s(x.idle.notSent)} with requests ready not yet sent`,
    ]),
    ...(f.lockBusy.length
      ? [
          `    ${'lock held'.padEnd(width)}  mean ${pct(lock)}: ${row(
            f.lockBusy.map((v) => v * 100),
            0,
          )} (% of each second)`,
        ]
      : []),
  ];
}

/** The figures of the deployment's side: requests, per service, the floor. */
function requestLines(f: Figures): string[] {
  const busiest = f.services[0];
  const serialized = f.deployment === 'serialized';
  const floorWhy = serialized
    ? `max(serialized handling ${s(f.serialS)} s, ${busiest?.service} ${s(busiest?.placesS ?? 0)} s)`
    : `${busiest?.service} ${s(busiest?.placesS ?? 0)} s`;
  return [
    `  requests N = ${f.requests} received by the deployment (${f.checkRequests} by checks; the rest: preflight, ` +
      `removal of the run's records), in flight at most M = ${f.inFlight}`,
    "  per service: received (by checks): the deployment's own time per request, arrival to reply less the wait " +
      `for the lock${serialized ? ' (of it handling)' : ''}; × requests / ${f.maxInFlight} places:`,
    ...f.services.map(
      (x) =>
        `    ${x.service} ${x.received} (${x.byChecks}): ${x.ownMs.toFixed(1)} ms` +
        (serialized
          ? ` (handling ${x.handlingMs.toFixed(2)} ms; ${x.lockWaitMs.toFixed(1)} ms more in the lock's queue); `
          : '; ') +
        `${s(x.placesS)} s`,
    ),
    `  floor = start-up ${s(f.startUpS)} + ${floorWhy} + wind-down ${s(f.windDownS)} = ${s(f.floorS)} s; ` +
      `wall / floor = ${(f.wallS / f.floorS).toFixed(2)} ×`,
  ];
}

/** A thread's wait for a CPU as a share of its time runnable (0 to 1). */
const waitShare = (t: { ran: number; waited: number }) => t.waited / Math.max(1e-9, t.ran + t.waited);

/**
 * How long the suite's busiest thread (the test worker) and the reference's waited for a CPU: on a machine busy with
 * other work its figures say more of the machine than of the suite.
 */
function cpuWaitLine(f: Figures): string {
  const { suite, reference, loadAverage } = f.cpuWait;
  const busy = Math.max(waitShare(suite.busiest), waitShare(reference.busiest)) > BUSY_WAIT_SHARE;
  return (
    `  waits for a CPU (load average ${loadAverage.toFixed(1)} at the start): the suite's busiest thread ran ` +
    `${s(suite.busiest.ran)} s and waited ${s(suite.busiest.waited)} s, the reference's ran ` +
    `${s(reference.busiest.ran)} s and waited ${s(reference.busiest.waited)} s` +
    (busy ? ': a busy machine, these figures say more of it than of the suite' : '')
  );
}

function print(f: Figures): void {
  const jitterWords = f.jitterMs ? ` (+ up to ${f.jitterMs} ms jitter)` : '';
  console.log(
    [
      `latency ${f.latencyMs} ms${jitterWords}, ${deploymentWords(f)}, suite of ${f.side}: wall ${s(f.wallS)} s, ` +
        `exit ${f.exit}, ${f.checks} checks`,
      `  start-up ${s(f.startUpS)} s (command to first check request), wind-down ${s(f.windDownS)} s ` +
        '(last check request to exit)',
      ...requestLines(f),
      `  critical path: ${f.chain} requests in a chain (${f.chainCheck}) = ${s(f.criticalPathS)} s; ` +
        `bound = ${s(f.boundS)} s, wall / bound = ${ratio(f)}`,
      `  longest checks: ${f.longest.map((c) => `${c.check} ${s(c.seconds)} s`).join('; ')}; ` +
        `the longest is ${pct(f.longestShare)} of the wall`,
      ...perSecondLines(f),
      `  most requests by check: ${f.costliest.map((c) => `${c.check} ${c.requests}`).join('; ')}`,
      `  suite CPU per request: ${((f.suiteCpuS * 1000) / Math.max(1, f.requests)).toFixed(2)} ms`,
      ...(f.worker || opts.profile ? [workerLine(f)] : []),
      `  scenario files at once: ${f.filesAtOnce}`,
      cpuWaitLine(f),
      `  CPU: suite ${s(f.suiteCpuS)} s, reference ${s(f.referenceCpuS)} s; peak RSS: suite ` +
        `${Math.round(f.suiteRssMb)} MB, reference ${Math.round(f.referenceRssMb)} MB`,
      `  run folder: ${f.folder}`,
    ].join('\n'),
  );
}

const inFlightCell = (f: Figures) => f.services.map((x) => `${x.service.slice(0, 4)} ${s(x.meanInFlight)}`).join(', ');
const idleCell = (f: Figures) =>
  f.services
    .map((x) => `${x.service.slice(0, 4)} ${x.idle.noWork.toFixed(0)} / ${x.idle.notSent.toFixed(0)}`)
    .join(', ');
const requestsCell = (f: Figures) =>
  `${f.requests} (${f.services.map((x) => `${x.service.slice(0, 4)} ${x.received}`).join(', ')})`;

/** Every run as a Markdown row. */
function table(results: Figures[]): string {
  return markdownTable([
    [
      'suite',
      'deployment',
      'L (ms)',
      'files at once',
      'wall (s)',
      'start-up / wind-down (s)',
      'N (per service)',
      'serialized (s)',
      'busiest service × own time / m (s)',
      'floor (s)',
      'wall / floor',
      'longest check',
      'in flight per service, mean',
      'idle place-s: no work ready / not sent',
      'worker waited for a CPU',
      'CPU suite / reference (s)',
      'peak RSS suite / reference (MB)',
    ],
    ...results.map((f) => [
      f.side,
      f.deployment,
      String(f.latencyMs),
      f.filesAtOnce.split(' ')[0]!,
      s(f.wallS),
      `${s(f.startUpS)} / ${s(f.windDownS)}`,
      requestsCell(f),
      s(f.serialS),
      `${f.services[0]?.service} ${s(f.services[0]?.placesS ?? 0)}`,
      s(f.floorS),
      `${(f.wallS / f.floorS).toFixed(2)} ×`,
      pct(f.longestShare),
      inFlightCell(f),
      idleCell(f),
      pct(waitShare(f.cpuWait.suite.busiest)),
      `${s(f.suiteCpuS)} / ${s(f.referenceCpuS)}`,
      `${Math.round(f.suiteRssMb)} / ${Math.round(f.referenceRssMb)}`,
    ]),
  ]);
}

const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
};

/** Per deployment and latency, the medians of each side and their ratio (after / before). */
function pairs(results: Figures[]): string {
  const rows: string[][] = [];
  for (const deployment of deployments)
    for (const latencyMs of latencies) {
      const of = (side: string) =>
        results.filter((f) => f.side === side && f.deployment === deployment && f.latencyMs === latencyMs);
      const [before, after] = [of(vs!), of(THIS)];
      if (!before.length || !after.length) continue;
      const m = (fs: Figures[], x: (f: Figures) => number) => median(fs.map(x));
      const cell = (fs: Figures[]) =>
        `${s(m(fs, (f) => f.wallS))} s / ${s(m(fs, (f) => f.floorS))} s = ` +
        `${m(fs, (f) => f.wallS / f.floorS).toFixed(2)} ×, N ${m(fs, (f) => f.requests)}, ` +
        `longest ${pct(m(fs, (f) => f.longestShare))}`;
      rows.push([
        deployment,
        String(latencyMs),
        cell(before),
        cell(after),
        `${(m(after, (f) => f.wallS) / m(before, (f) => f.wallS)).toFixed(2)}`,
      ]);
    }
  return markdownTable([
    [
      'deployment',
      'L (ms)',
      'before: wall / floor, N, longest check (medians)',
      'after: the same',
      'wall after / before',
    ],
    ...rows,
  ]);
}

const results: Figures[] = [];
const handling = opts.handlingMs;
for (let round = 0; round < rounds; round++)
  for (const deployment of deployments as Array<Figures['deployment']>)
    for (const latencyMs of latencies)
      for (const side of vs ? [vs, THIS] : [THIS]) {
        let measured: Awaited<ReturnType<typeof measureRun>>;
        try {
          measured = await measureRun({
            latencyMs,
            jitterMs: jitter,
            ...(deployment === 'serialized' ? { serialized: handling } : {}),
            suiteRoot: side === THIS ? ROOT : side,
            ...(clockSkewMs === undefined ? {} : { clockSkewMs }),
            maxInFlight: MAX_IN_FLIGHT,
            profile: Boolean(opts.profile),
            filters: program.args,
            env: process.env,
          });
        } catch (e) {
          console.error(`bench:latency: ${(e as Error).message}`);
          process.exit(1);
        }
        const f = figuresOf(
          { side, deployment, latencyMs, jitterMs: jitter, maxInFlight: MAX_IN_FLIGHT },
          measured.suite,
          measured.reference,
        );
        results.push(f);
        print(f);
        if (opts.json) writeFileSync(opts.json, `${JSON.stringify(results, null, 1)}\n`);
      }
if (results.length > 1) console.log(`\n${table(results)}`);
if (vs)
  console.log(
    `\nbefore: the suite of ${vs}; after: ${THIS} (${ROOT}); in turn, before first in each pair\n\n${pairs(results)}`,
  );
