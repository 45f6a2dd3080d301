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
 * What a failure found, as every report shows it (CheckResult.failure: results.json, summary.json, report.html; built
 * by harness/failure.ts): the failed requirement IDs, what was checked, the expected and the actual value (rendered as
 * text), the exchange it came from, and for a walk its replay command, numbered steps and the failing step's exchanges.
 * Positions among the check's exchanges are 1-based, wherever they are written.
 */
export interface Failure {
  requirements: string[];
  /** What was checked or found, in words (an assertion's own message). */
  what: string;
  expected?: string;
  got?: string;
  /** The exchange the failure came from, by its position among the check's exchanges. */
  exchange?: { number: number; of: number; operation: string; outcome: string };
  replay?: string;
  steps?: string[];
  /** [first, last] positions of the failing walk step's exchanges among the check's exchanges. */
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

/**
 * What a check throws its failure with (ConformanceFailure.detail): the failure's parts as far as the check knows them,
 * `exchange` the position (1-based) of the exchange it came from; harness/failure.ts completes it against the check's
 * exchanges.
 */
export type FailureDetail = Partial<Omit<Failure, 'requirements' | 'exchange'>> & { exchange?: number };

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

/** The suite could not reach a judgement (transport failure, unusable reply for a precondition). */
export class CouldNotJudge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CouldNotJudge';
  }
}

/** A check whose time to send ran out (harness/check.ts Check.sendBy): it could not judge what it had not sent. */
export class TimeRanOut extends CouldNotJudge {}

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

/** One check's result, as the reporter collects it (results.json) and every report reads it. */
export interface CheckResult extends CheckDeclaration {
  file: string;
  verdict: Verdict;
  failedRequirements: string[];
  /** The failure's text (harness/failure.ts): rule, checked, expected, got, exchange. */
  message?: string;
  /** Set on a fail: what the failure found. */
  failure?: Failure;
  note?: string;
  durationMs: number;
  operations: string[];
  exchangesFile?: string;
  /** Reads that were satisfied only after polling, with the lag in ms. */
  lags?: Array<{ what: string; ms: number }>;
  /**
   * Requests of the check that were retried (harness/retry-policy.ts retryReason); a pass with retries is "passed with
   * retries".
   */
  retries?: number;
  /** Requests the check sent, every attempt counted: what it cost the deployment (the run's request budget). */
  requests?: number;
  /**
   * Categories of its requirements it exercised and judged, `<requirement>#<category>` (specs/common/categories.ts).
   */
  categories?: string[];
  /** The state-table situations a walk check reached and judged, and those its walks aimed at and did not reach. */
  situations?: SituationsSeen;
  /** An error because the deployment did not answer (CouldNotJudge): the run is incomplete rather than failed. */
  couldNotJudge?: boolean;
}

/**
 * What a check leaves on its vitest task for the reporters while it runs: its declaration's IDs and the parts of its
 * result it knows (the reporter adds the title, file, duration and message).
 */
export type CheckMeta = Pick<CheckResult, 'checkId' | 'service' | 'area' | 'verifies'> &
  Partial<Omit<CheckResult, 'checkId' | 'service' | 'area' | 'verifies' | 'title' | 'file' | 'durationMs' | 'message'>>;

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

/**
 * The state-table situations (specs/state/situations.ts) a walk check reached and judged, by key: `enumerated` is the
 * number of situations of the service in the run's scope; `notReached` those its walks aimed at and did not reach
 * (and, for the first part, those the plan left out), each with why.
 */
export interface SituationsSeen {
  service: string;
  enumerated: number;
  reached: string[];
  judged: string[];
  notReached: Array<{ situation: string; why: string }>;
}
