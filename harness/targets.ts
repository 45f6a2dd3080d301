/**
 * What the run's global setup hands to the test workers (through vitest's provide/inject), and the per-worker clients
 * built from it.
 */
import { inject } from 'vitest';
import type { ServiceName } from '../specs/common/model.js';
import { ServiceClient } from './client.js';
import type { ExchangesKept, RunBudgets, ServiceTarget } from './config.js';
import type { Profile } from './profile.js';
import { registerOwn } from './foreign-values.js';
import { setRedactionKey } from './redact-foreign.js';
import { RunContext } from './run.js';
import { SharedLimit } from './shared-limit.js';
import { listingInfo } from './check-list.js';
import { serviceNames } from '../specs/services.js';

export interface RunInfo {
  runId: string;
  reportDir: string;
  seed: number;
  timeoutMs: number;
  /**
   * Requests in flight per service in this worker: CONFORMANCE_MAX_IN_FLIGHT, divided among the workers unless
   * `inFlightCounters` bounds them together.
   */
  maxInFlightPerWorker: number;
  /**
   * One counter per service (in serviceNames() order) shared by the run's worker threads (harness/shared-limit.ts):
   * with it each worker may use the whole CONFORMANCE_MAX_IN_FLIGHT (`maxInFlightPerWorker`), and the counters keep the
   * run as a whole within it.
   */
  inFlightCounters?: SharedArrayBuffer;
  /**
   * Pacing state per service (serviceNames() order) shared by the run's threads with `inFlightCounters`
   * (harness/pacing.ts).
   */
  pacing?: SharedArrayBuffer;
  /** Longest a request is retried for, ms (CONFORMANCE_RETRY_BUDGET_MS). */
  retryBudgetMs: number;
  /** Most retries of a request besides the budget (CONFORMANCE_RETRIES); undefined: the budget alone. */
  retries?: number;
  /**
   * Requests per second per service for this worker (CONFORMANCE_RATE_LIMIT: whole with `pacing`, else shared among
   * workers); undefined: no limit.
   */
  ratePerSecondPerWorker?: number;
  /** Budgets resolved for this run's target (settings, else the default for embedded or configured). */
  budgets: RunBudgets;
  /** One entry per service: the target, or null when the service is not configured for this run. */
  targets: Partial<Record<ServiceName, ServiceTarget | null>>;
  profile: Profile;
  embedded: boolean;
  /** Which exchanges the checks keep in full (CONFORMANCE_EXCHANGES; default failing). */
  exchanges?: ExchangesKept;
  /** Routine internals on the console (CONFORMANCE_VERBOSE): walk seeds and coverage, bad-input lanes, ... */
  verbose?: boolean;
  /**
   * Per service authenticated by OAuth2 client credentials, the memory its token is shared through (harness/oauth.ts).
   */
  tokenCells?: Partial<Record<ServiceName, SharedArrayBuffer>>;
  /**
   * Key of the stable hashes in redaction stubs (harness/redact-foreign.ts), shared by the run's workers; never written
   * anywhere.
   */
  redactionKey?: string;
  /**
   * Requirement IDs: when set, only the checks citing one of them are registered to run (the others are declared
   * skipped and send nothing). Detection runs use it to test one fault.
   */
  only?: string[];
  /**
   * Detection: each check is registered once per variant whose `only` it cites (every check when the variant has no
   * `only`), and runs against that variant's targets (a reference with that variant's faults or deployment variants)
   * under that variant's run ID and profile.
   */
  variants?: RunVariant[];
}

/** One deployment variant of a detection run: its own targets, run ID and requirement filter. */
export interface RunVariant {
  name: string;
  runId: string;
  /** Requirement IDs whose checks run against this variant; absent: every check. */
  only?: string[];
  targets: RunInfo['targets'];
  /** The profile a user of this deployment variant would set (default: the run's). */
  profile?: Profile;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: RunInfo;
  }
}

/** Per run ID (the run's, or a detection variant's): its context and clients, in this worker. */
const states = new Map<string, { info: RunInfo; run: RunContext; clients: Map<ServiceName, ServiceClient> }>();

/** The run's settings as provided by the global setup. @throws when the suite runs without it. */
export function runInfo(): RunInfo {
  const info = listingInfo() ?? inject('conformance');
  if (!info) throw new Error('The conformance global setup did not run: start the suite with `npm run conformance`.');
  return info;
}

/**
 * Prints a line of routine internals (a walk check's seeds, the bad-input lanes, ...) only when the run is verbose
 * (CONFORMANCE_VERBOSE, `--verbose`); the check's note and the reports keep it anyway.
 */
export function verboseLine(text: string): void {
  if (runInfo().verbose) console.info(text);
}

function state(variant?: RunVariant) {
  const base = runInfo();
  const info = variant
    ? { ...base, runId: variant.runId, targets: variant.targets, profile: variant.profile ?? base.profile }
    : base;
  let s = states.get(info.runId);
  if (!s) {
    if (base.redactionKey) setRedactionKey(base.redactionKey);
    // The run's own words that failure texts and replay commands carry: never masked as foreign.
    registerOwn([info.runId, String(info.seed)]);
    states.set(info.runId, (s = { info, run: new RunContext(info.runId, info.reportDir), clients: new Map() }));
  }
  return s;
}

export const runContext = (variant?: RunVariant) => state(variant).run;

/** The worker's client for a service (of a detection variant), or undefined when the service is not configured. */
export function clientFor(service: ServiceName, variant?: RunVariant): ServiceClient | undefined {
  const s = state(variant);
  const target = s.info.targets[service];
  if (!target) return undefined;
  let c = s.clients.get(service);
  if (!c) {
    const counters = s.info.inFlightCounters;
    const sharedLimit = counters
      ? new SharedLimit(counters, serviceNames().indexOf(service), s.info.maxInFlightPerWorker)
      : undefined;
    c = new ServiceClient(target, s.info.profile, s.run, {
      timeoutMs: s.info.timeoutMs,
      maxInFlight: s.info.maxInFlightPerWorker,
      retryBudgetMs: s.info.retryBudgetMs,
      ...(s.info.retries !== undefined ? { retries: s.info.retries } : {}),
      ratePerSecond: s.info.ratePerSecondPerWorker,
      ...(sharedLimit ? { sharedLimit } : {}),
      ...(s.info.pacing ? { pacing: s.info.pacing } : {}),
      ...(s.info.tokenCells ? { tokenCells: s.info.tokenCells } : {}),
    });
    s.clients.set(service, c);
  }
  return c;
}
