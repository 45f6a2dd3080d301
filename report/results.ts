/** The raw result of one check, as the reporter collects it from vitest. */
import type { Verdict } from '../harness/verdict.js';

export interface CheckResult {
  checkId: string;
  title: string;
  file: string;
  service: string;
  area: string;
  verifies: string[];
  verdict: Verdict;
  failedRequirements: string[];
  message?: string;
  note?: string;
  durationMs: number;
  operations: string[];
  exchangesFile?: string;
  lags?: Array<{ what: string; ms: number }>;
  /** Retried requests; verdict pass with retries > 0 = passed with retries. */
  retries?: number;
}
