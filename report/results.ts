/** The raw result of one check, as the reporter collects it from vitest. */
import type { FailureReport, Verdict } from '../harness/verdict.js';

export interface CheckResult {
  checkId: string;
  /** The check's title as written (harness/register.ts CheckDeclaration); the requirement IDs are in `verifies`. */
  title: string;
  file: string;
  service: string;
  area: string;
  verifies: string[];
  verdict: Verdict;
  failedRequirements: string[];
  /** The failure's text (harness/failure.ts): rule, checked, expected, got, exchange. */
  message?: string;
  /** Structured failure of a fail (rule IDs, expected, got, exchange; walks: replay and steps). */
  failure?: FailureReport;
  note?: string;
  durationMs: number;
  operations: string[];
  exchangesFile?: string;
  lags?: Array<{ what: string; ms: number }>;
  /** Retried requests; verdict pass with retries > 0 = passed with retries. */
  retries?: number;
  /** Requests the check sent, every attempt counted. */
  requests?: number;
  /** Categories of its requirements it exercised and judged, `<requirement>#<category>`. */
  categories?: string[];
  /** An error because the deployment did not answer (harness/verdict.ts CouldNotJudge): incomplete, not failed. */
  couldNotJudge?: boolean;
}

/**
 * What the run selected (selection.json, written by the reporter): every test file of the suite, the files this run
 * loaded (file filters and shards select them), and the checks of those files a name filter (`-t`) left out. Coverage
 * counts only what was selected; the rest is "not run".
 */
export interface RunSelection {
  suiteFiles: string[];
  selectedFiles: string[];
  notRun: Array<{ title: string; file: string; verifies: string[] }>;
}

/** The service a scenario file belongs to (scenarios/<service>/...), if any. */
export const serviceOfFile = (file: string): string | undefined => /(?:^|\/)scenarios\/([^/]+)\//.exec(file)?.[1];
