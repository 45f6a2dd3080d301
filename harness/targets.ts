/**
 * What the run's global setup hands to the test workers (through vitest's provide/inject), and
 * the per-worker clients built from it.
 */
import { inject } from 'vitest';
import type { ServiceName } from '../specs/common/model.js';
import { ServiceClient } from './client.js';
import type { ServiceTarget } from './config.js';
import type { Profile } from './profile.js';
import { RunContext } from './run.js';

export interface RunInfo {
  runId: string;
  reportDir: string;
  seed: number;
  timeoutMs: number;
  maxInFlightPerWorker: number;
  /** One entry per service: the target, or null when the service is not configured for this run. */
  targets: Partial<Record<ServiceName, ServiceTarget | null>>;
  profile: Profile;
  embedded: boolean;
  /**
   * Requirement IDs: when set, only the checks citing one of them are registered to run (the
   * others are declared skipped and send nothing). Detection runs use it to test one fault.
   */
  only?: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: RunInfo;
  }
}

let cached: { info: RunInfo; run: RunContext; clients: Map<ServiceName, ServiceClient> } | undefined;

/** The run's settings as provided by the global setup. @throws when the suite runs without it. */
export function runInfo(): RunInfo {
  const info = inject('conformance');
  if (!info) throw new Error('The conformance global setup did not run: start the suite with `npm run conformance`.');
  return info;
}

function state() {
  // A worker that runs files of several runs (detection projects with isolate: false) starts afresh per run.
  if (cached && cached.info.runId !== runInfo().runId) {
    for (const c of cached.clients.values()) void c.close();
    cached = undefined;
  }
  if (!cached) {
    const info = runInfo();
    cached = { info, run: new RunContext(info.runId, info.reportDir), clients: new Map() };
  }
  return cached;
}

export const runContext = () => state().run;

/** The worker's client for a service, or undefined when the service is not configured. */
export function clientFor(service: ServiceName): ServiceClient | undefined {
  const s = state();
  const target = s.info.targets[service];
  if (!target) return undefined;
  let c = s.clients.get(service);
  if (!c) {
    c = new ServiceClient(target, s.info.profile, s.run, { timeoutMs: s.info.timeoutMs, maxInFlight: s.info.maxInFlightPerWorker });
    s.clients.set(service, c);
  }
  return c;
}
