/**
 * The one outcome of a finished run, from its summary: the exit code of `npm run conformance` and the words every
 * report heads with (report/headline.ts) come from here, so the headline, the gate and the exit code cannot disagree:
 *   4 the teardown left records on the deployment: this wins over everything else, because records of the run stay on a
 *     shared deployment until someone removes them (its ledger stays too);
 *   1 no check ran (the filters matched none, or every check that matched was omitted): the run leaves no run folder
 *     and does not move reports/latest (run/cli/conformance-finish.ts);
 *   1 the gate fails (a MUST requirement failed, not listed as a known failure, or a check errored other than
 *     could-not-judge);
 *   130 / 143 INTERRUPTED by SIGINT / SIGTERM (run/interrupt.ts): the run stopped early, so its
 *     verdicts cover only the checks that ended first; the teardown still removed what it created;
 *   5 INCOMPLETE: nothing failed, but checks could not judge because the deployment did not answer;
 *   else 0 (known failures, EXPECT-only failures and pending checks are reported, not gating).
 * A run asked for an evidence bundle (`--evidence`) that was not written exits 6 instead
 * (run/evidence.ts), unless 4 or an interrupt's code says more.
 */
import type { CheckResult } from './results.js';
import type { Summary } from './summary.js';

/** Exit code of a run whose gate failed, or in which no check ran. */
export const FAIL_EXIT = 1;
/** Exit code of a run whose teardown could not remove everything it created. */
export const LEFTOVERS_EXIT = 4;
/** Exit code of an INCOMPLETE run: no gating failure, but checks that could not judge. */
export const INCOMPLETE_EXIT = 5;
/** Exit code of a run whose evidence bundle (`--evidence`) was not written: 4 and the interrupts' codes win over it. */
export const EVIDENCE_MISSING_EXIT = 6;
/** Exit codes of an interrupted run, by signal (128 + the signal's number, as a shell reports it). */
export const INTERRUPTED_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/** The exit code of a run asked for an evidence bundle that was not written, from the run's own code. */
export const evidenceMissingExit = (code: number) =>
  code === LEFTOVERS_EXIT || code === INTERRUPTED_EXIT.SIGINT || code === INTERRUPTED_EXIT.SIGTERM
    ? code
    : EVIDENCE_MISSING_EXIT;

/** True when a check's body ran: it reached a verdict, or stopped itself as could-not-verify; not a check vitest filtered out. */
export const checkRan = (c: CheckResult) =>
  c.verdict === 'pass' ||
  c.verdict === 'fail' ||
  c.verdict === 'error' ||
  (c.verdict === 'skip' && c.service !== 'unknown');

/** True when at least one check of the run ran (see checkRan). */
export const anyCheckRan = (s: Pick<Summary, 'checks'>) => s.checks.some(checkRan);

/** How the run ended, in one word: the gate's verdict, or what overrides it. */
export type RunVerdict = 'pass' | 'fail' | 'incomplete' | 'leftovers' | 'nothing ran' | 'interrupted';

type Outcome = Pick<Summary, 'checks' | 'cleanup' | 'gate' | 'totals' | 'interrupted'>;

export function runVerdict(s: Outcome): RunVerdict {
  if (s.cleanup?.failures.length) return 'leftovers';
  if (s.interrupted) return 'interrupted';
  if (!anyCheckRan(s)) return 'nothing ran';
  // summary.json before schema 2 has no gate: any failure or error gates.
  if (!s.gate) return s.totals.fail + s.totals.error > 0 ? 'fail' : 'pass';
  return s.gate.verdict;
}

/**
 * The class a report draws the run's verdict in (report.html's banner and Gate badge): the run's
 * verdict, so that only a run that passed is drawn green; an interrupted run, an INCOMPLETE one or
 * one that left records behind never is, whatever the gate of the checks that ended says.
 */
export function drawnVerdict(s: Outcome): 'pass' | 'fail' | 'incomplete' | 'interrupted' | 'leftovers' | 'nothing-ran' {
  const v = runVerdict(s);
  return v === 'nothing ran' ? 'nothing-ran' : v;
}

/** The exit code of `npm run conformance` for a finished run (see the file's comment). */
export function exitCodeOf(s: Outcome): number {
  const v = runVerdict(s);
  if (v === 'interrupted') return INTERRUPTED_EXIT[s.interrupted!.signal];
  return v === 'pass' ? 0 : v === 'incomplete' ? INCOMPLETE_EXIT : v === 'leftovers' ? LEFTOVERS_EXIT : FAIL_EXIT;
}
