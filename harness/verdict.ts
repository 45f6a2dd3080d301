/**
 * Verdicts richer than pass/fail, and the failure types that carry them.
 * - pass: the requirement held.
 * - fail: the deployment broke a requirement (ConformanceFailure).
 * - error: the suite could not judge: network, timeout, guard refusal, a bug of ours. An error because the deployment
 *   did not answer (CouldNotJudge: transient replies after the retry budget, no reply) is marked `couldNotJudge`: it
 *   makes the run INCOMPLETE (exit 5), not failed.
 * - skip: could not verify (data missing): reported, does not gate.
 * - omit: not applicable under the profile or not configured: does not block.
 * The exit code gates on fail and on errors other than could-not-judge (report/known-failures.ts judge). Source:
 * docs/reports.md, "Verdicts and exit codes".
 */
import type { Finding } from '../specs/common/clause.js';

export type Verdict = 'pass' | 'fail' | 'error' | 'skip' | 'omit';

/** A clause's finding as a failure carries it: the clause's words about what it rejects beside what was observed. */
export interface ClauseFinding extends Finding {
  rejects: string;
}

/** Why a check the run's interrupt cut short was not judged (its note; run/interrupt.ts): a skip, no finding. */
export const INTERRUPTED_NOTE = 'the run was interrupted before this check ended';

/**
 * What a failure found, beyond its words, for the failure's text (harness/failure.ts) and the reports: what was
 * checked, the expected and the actual value (rendered as text), and where in the check's exchanges it came from. A
 * model-based walk adds its replay command, its numbered steps and the range of the failing step's exchanges.
 */
export interface FailureDetail {
  /** What was checked, in words (an assertion's own message). */
  what?: string;
  expected?: string;
  got?: string;
  /** Index, in the check's exchanges, of the exchange the failure came from. */
  exchange?: number;
  replay?: string;
  steps?: string[];
  /** [from, to) indexes of the failing walk step's exchanges in the check's exchanges. */
  stepExchanges?: [number, number];
  /** The operation whose step failed (a walk's or scripted check's step): reports file the failure under it. */
  operation?: string;
  /**
   * The clauses that rejected what the deployment did, each with its forbidding sentence and the observation
   * (specs/common/clause.ts).
   */
  findings?: ClauseFinding[];
  /**
   * The set-up step that failed, when a scripted check failed before the step it is about (it never sent that step).
   */
  setUp?: string;
}

/** The deployment broke the named requirements. */
export class ConformanceFailure extends Error {
  constructor(
    readonly requirements: string[],
    message: string,
    readonly detail: FailureDetail = {},
  ) {
    super(`[${requirements.join(', ')}] ${message}`);
    this.name = 'ConformanceFailure';
  }
}

/**
 * A failure as reports show it (CheckMeta.failure, results.json, summary.json): the failed requirement IDs, the
 * finding, expected and actual, the exchange it came from, and for a walk its replay command and steps. Built by
 * harness/failure.ts.
 */
export interface FailureReport {
  requirements: string[];
  /** What was checked or found, in words. */
  what: string;
  expected?: string;
  got?: string;
  /** The exchange the failure came from, by its position among the check's exchanges (1-based). */
  exchange?: { number: number; of: number; operation: string; outcome: string };
  replay?: string;
  steps?: string[];
  /** 1-based [first, last] numbers of the failing walk step's exchanges. */
  stepExchanges?: [number, number];
  /**
   * The operation the failure happened at: the failing step's (a walk or a scripted check), else the operation of the
   * exchange it came from. Reports group failures by it (root causes first) and Allure files the check under it.
   */
  operation?: string;
  /** The clauses that rejected what the deployment did: clause ID, requirement, forbidding sentence, observation. */
  findings?: ClauseFinding[];
  /**
   * The set-up step that failed, when the check failed before the step it is about (reports say so beside its title).
   */
  setUp?: string;
}

/** The suite could not reach a judgement (transport failure, unusable reply for a precondition). */
export class CouldNotJudge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CouldNotJudge';
  }
}

/** A check whose time to send ran out (harness/check.ts Check.sendBy): it could not judge what it had not sent. */
export class TimeRanOut extends CouldNotJudge {}

/** Metadata every check leaves on its vitest task for the reporters. */
export interface CheckMeta {
  checkId: string;
  service: string;
  area: string;
  verifies: string[];
  verdict?: Verdict;
  failedRequirements?: string[];
  /** Set on a fail: what the failure found (harness/failure.ts). */
  failure?: FailureReport;
  note?: string;
  operations?: string[];
  exchangesFile?: string;
  /** Reads that were satisfied only after polling, with the lag in ms. */
  lags?: Array<{ what: string; ms: number }>;
  /**
   * Requests of the check that were retried (harness/client.ts retryReason); a pass with retries is "passed with
   * retries".
   */
  retries?: number;
  /** Requests the check sent, every attempt counted: what it cost the deployment (the run's request budget). */
  requests?: number;
  /**
   * Categories of its requirements it exercised and judged, `<requirement>#<category>` (specs/common/categories.ts).
   */
  categories?: string[];
  /**
   * Set on an error thrown as CouldNotJudge: the deployment did not answer, so the run is incomplete rather than
   * failed.
   */
  couldNotJudge?: boolean;
}

/**
 * What a check is, declared when it is registered (harness/register.ts) and carried to the reporter as data, also for a
 * check a name filter leaves out: its ID, service, area, the requirement IDs it verifies and its title as written
 * (vitest's test name adds the IDs).
 */
export interface CheckDeclaration {
  checkId: string;
  service: string;
  area: string;
  verifies: string[];
  title: string;
}

// TaskMeta is declared by @vitest/runner (vitest re-exports it): augmented there, so test options and task.meta know
// both.
declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckMeta;
    declared?: CheckDeclaration;
    /** Detection: the variant whose reference the check ran against (harness/register.ts). */
    variant?: string;
  }
}
