/**
 * Verdicts richer than pass/fail, and the failure types that carry them.
 * - pass: the requirement held.
 * - fail: the deployment broke a requirement (ConformanceFailure).
 * - error: the suite could not judge: network, timeout, guard refusal, a bug of ours.
 * - skip: could not verify (data missing): blocks an overall pass.
 * - omit: not applicable under the profile or not configured: does not block.
 * The exit code gates on fail and error. Source: README, "Reading a report".
 */
export type Verdict = 'pass' | 'fail' | 'error' | 'skip' | 'omit';

/** The deployment broke the named requirements. */
export class ConformanceFailure extends Error {
  constructor(
    readonly requirements: string[],
    message: string,
  ) {
    super(`[${requirements.join(', ')}] ${message}`);
    this.name = 'ConformanceFailure';
  }
}

/** The suite could not reach a judgement (transport failure, unusable reply for a precondition). */
export class CouldNotJudge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CouldNotJudge';
  }
}

/** Metadata every check leaves on its vitest task for the reporters. */
export interface CheckMeta {
  checkId: string;
  service: string;
  area: string;
  verifies: string[];
  verdict?: Verdict;
  failedRequirements?: string[];
  note?: string;
  operations?: string[];
  exchangesFile?: string;
  /** Reads that were satisfied only after polling, with the lag in ms. */
  lags?: Array<{ what: string; ms: number }>;
  /** Requests of the check that were retried (harness/client.ts retryReason); a pass with retries is "passed with retries". */
  retries?: number;
}

declare module 'vitest' {
  interface TaskMeta {
    check?: CheckMeta;
  }
}
