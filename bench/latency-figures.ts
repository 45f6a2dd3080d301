/**
 * The figures of one `npm run bench:latency` run (bench/latency.ts prints them), from what the run
 * measured (bench/latency-run.ts): the requests per service, the floor, the bound, the longest
 * checks and the requests in flight per service per second.
 *
 * The floor is the least the run could take with this deployment on this machine: start-up, then
 * the larger of
 * - the serialized handling: the time a serializing deployment's lock was held, all services
 *   together (zero for the plain reference), and
 * - per service, its requests at the time the deployment took for each (arrival to reply written,
 *   less the wait for the lock: the latency, the handling, the deployment's own event loop) divided
 *   among its places in flight (CONFORMANCE_MAX_IN_FLIGHT),
 * then wind-down.
 */
import type { ReferenceFigures, SuiteFigures } from './latency-run.js';

const SERVICES = 3;

/** One service's figures. */
export interface ServiceFigures {
  service: string;
  /** Requests the deployment received (every attempt), and those of them the checks sent. */
  received: number;
  byChecks: number;
  /** The deployment's own time per request, ms on average: arrival to reply written, less the wait for the lock. */
  ownMs: number;
  /** Mean handling time under the lock per request, and mean wait for the lock, ms (serialized; else 0). */
  handlingMs: number;
  lockWaitMs: number;
  /** received × ownMs / places, s. */
  placesS: number;
  /** Requests in flight at the deployment, per second of the checks' span, and their mean. */
  inFlight: number[];
  meanInFlight: number;
  /** The checks' requests outstanding at the suite (waiting for a place or in flight), per second of the same span. */
  outstanding: number[];
  /**
   * Place-seconds of the checks' span the deployment held no request of the service, split by why:
   * the suite had fewer requests ready than places (`noWork`: the schedule), or had them but had not
   * sent them yet (`notSent`: its event loop, the machine's CPU, the pacing).
   */
  idle: { noWork: number; notSent: number };
}

export interface Figures {
  /** Whose suite ran: "this checkout", or the checkout `--vs` names. */
  side: string;
  deployment: 'plain' | 'serialized';
  latencyMs: number;
  jitterMs: number;
  wallS: number;
  startUpS: number;
  windDownS: number;
  exit: number | null;
  checks: number;
  requests: number;
  checkRequests: number;
  /** Busiest first (by placesS). */
  services: ServiceFigures[];
  /** The lock's time, all services together, s. */
  serialS: number;
  floorS: number;
  /** Places in flight at most: per service, and M for all of them. */
  maxInFlight: number;
  inFlight: number;
  chain: number;
  chainCheck: string;
  criticalPathS: number;
  boundS: number;
  longest: Array<{ check: string; seconds: number }>;
  /** The longest check's time as a share of the wall (0 to 1). */
  longestShare: number;
  costliest: Array<{ check: string; requests: number }>;
  /** Share of each second of the checks' span the lock was held (serialized; else empty). */
  lockBusy: number[];
  suiteCpuS: number;
  referenceCpuS: number;
  suiteRssMb: number;
  referenceRssMb: number;
  filesAtOnce: string;
  cpuWait: SuiteFigures['cpuWait'];
  worker?: SuiteFigures['worker'];
  folder: string;
}

/**
 * "6 (round trip 152 ms)" from the run's own statement of its scenario files at once (run/cli/conformance-prepare.ts),
 * or "default" when it made none.
 */
function filesAtOnceLine(stdout: string): string {
  const m = /round trip (\d+) ms: (\d+) scenario files at once/.exec(stdout);
  return m ? `${m[2]} (round trip ${m[1]} ms)` : 'default';
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Requests outstanding on average in each second from `origin` (ms since the epoch), `seconds` long. */
function perSecond(spans: Array<[number, number]>, origin: number, seconds: number): number[] {
  const bins = Array.from({ length: seconds }, () => 0);
  for (const [start, end] of spans)
    for (let s = Math.max(0, Math.floor((start - origin) / 1000)); s < seconds && origin + s * 1000 < end; s++)
      bins[s]! += (Math.min(end, origin + (s + 1) * 1000) - Math.max(start, origin + s * 1000)) / 1000;
  return bins;
}

/** Idle place-seconds by why (ServiceFigures.idle), second by second. */
function idleOf(inFlight: number[], outstanding: number[], places: number): ServiceFigures['idle'] {
  let noWork = 0;
  let notSent = 0;
  inFlight.forEach((held, i) => {
    const ready = Math.min(places, Math.max(held, outstanding[i] ?? 0));
    noWork += places - ready;
    notSent += Math.max(0, ready - held);
  });
  return { noWork, notSent };
}

/** The figures of a run, as `side` ran it against `deployment`. */
export function figuresOf(
  run: { side: string; deployment: Figures['deployment']; latencyMs: number; jitterMs: number; maxInFlight: number },
  suite: SuiteFigures,
  ref: ReferenceFigures,
): Figures {
  const m = run.maxInFlight;
  const occupancy = ref.occupancy;
  // The checks' span in whole seconds of the reference's bins (they start at its first request, the preflight's).
  const from = Math.max(0, Math.floor((suite.first - occupancy.originEpochMs) / 1000));
  const to = Math.max(from + 1, Math.ceil((suite.last - occupancy.originEpochMs) / 1000));
  const byChecks = new Map<string, number>();
  for (const c of suite.perCheck) byChecks.set(c.service, (byChecks.get(c.service) ?? 0) + c.requests);
  const services = Object.entries(ref.requests)
    .map(([service, received]): ServiceFigures => {
      const own = (ref.answeringMs[service] ?? 0) - (ref.lockMs.waiting[service] ?? 0);
      const inFlight = (occupancy.inFlight[service] ?? []).slice(from, to);
      const outstanding = perSecond(suite.spans[service] ?? [], occupancy.originEpochMs + from * 1000, to - from);
      return {
        service,
        received,
        byChecks: byChecks.get(service) ?? 0,
        ownMs: received ? own / received : 0,
        handlingMs: received ? (ref.lockMs.handling[service] ?? 0) / received : 0,
        lockWaitMs: received ? (ref.lockMs.waiting[service] ?? 0) / received : 0,
        placesS: own / 1000 / m,
        inFlight,
        meanInFlight: mean(inFlight),
        outstanding,
        idle: idleOf(inFlight, outstanding, m),
      };
    })
    .sort((a, b) => b.placesS - a.placesS);
  const serialS = Object.values(ref.lockMs.handling).reduce((a, b) => a + b, 0) / 1000;
  const requests = services.reduce((n, s) => n + s.received, 0);
  const perRequestS = (run.latencyMs + run.jitterMs / 2) / 1000;
  const mostReceived = Math.max(0, ...services.map((s) => s.received));
  const criticalPathS = suite.chain * perRequestS;
  const startUpS = (suite.first - suite.startedAt) / 1000;
  const windDownS = (suite.startedAt + suite.wallS * 1000 - suite.last) / 1000;
  const longest = [...suite.perCheck]
    .sort((a, b) => b.durationMs - a.durationMs)
    .slice(0, 5)
    .map((c) => ({ check: c.checkId, seconds: c.durationMs / 1000 }));
  return {
    ...run,
    wallS: suite.wallS,
    startUpS,
    windDownS,
    exit: suite.exit,
    checks: suite.checks,
    requests,
    checkRequests: suite.perCheck.reduce((n, c) => n + c.requests, 0),
    services,
    serialS,
    floorS: startUpS + Math.max(serialS, services[0]?.placesS ?? 0) + windDownS,
    inFlight: m * SERVICES,
    chain: suite.chain,
    chainCheck: suite.chainCheck,
    criticalPathS,
    // No scheduler finishes these requests faster at this latency, whatever the deployment's own time.
    boundS: Math.max(criticalPathS, (requests * perRequestS) / (m * SERVICES), (mostReceived * perRequestS) / m),
    longest,
    longestShare: (longest[0]?.seconds ?? 0) / suite.wallS,
    costliest: [...suite.perCheck]
      .sort((a, b) => b.requests - a.requests)
      .slice(0, 8)
      .map((c) => ({ check: c.checkId, requests: c.requests })),
    lockBusy: occupancy.lockBusy.slice(from, to),
    suiteCpuS: suite.suiteCpuS,
    referenceCpuS: suite.referenceCpuS,
    suiteRssMb: suite.suiteRssMb,
    referenceRssMb: ref.peakRssMb,
    filesAtOnce: filesAtOnceLine(suite.head),
    cpuWait: suite.cpuWait,
    ...(suite.worker ? { worker: suite.worker } : {}),
    folder: suite.folder,
  };
}
