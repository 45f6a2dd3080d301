/**
 * What the run's global setup hands to the test workers (through vitest's provide/inject), and the per-worker clients
 * built from it.
 */
import { inject } from 'vitest';
import type { ServiceName } from '../specs/common/model.js';
import { ServiceClient } from './client.js';
import { registerOwn } from './foreign-values.js';
import { setRedactionKey } from './redact-foreign.js';
import { RunContext } from './run.js';
import { SharedLimit } from './shared-limit.js';
import { listingInfo } from './check-list.js';
import { serviceNames } from '../specs/services.js';
import type { RunInfo, RunVariant } from './run-info.js';

export type { RunInfo, RunVariant } from './run-info.js';

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
