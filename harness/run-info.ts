/**
 * The run's settings as the global setup hands them to the test workers (harness/targets.ts) and a listing gives them
 * (harness/check-list.ts): a types-only module, so the listing needs nothing of the client.
 */
import type { ServiceName } from '../specs/common/model.js';
import type { ExchangesKept, RunBudgets, ServiceTarget } from './config.js';
import type { Profile } from './profile.js';

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
