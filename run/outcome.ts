/**
 * The exit code of a finished conformance run, from its summary.json (report/outcome.ts decides it, and every report's
 * headline says the same), and the lines that say why when the gate alone does not:
 *   4 the teardown left records on the deployment: one line per record (source name and native ID, or relationship ID)
 *     and the cleanup command;
 *   1 no check ran: the filters matched no check, or every check that matched was omitted (its service not configured,
 *     or the profile switches it off); one line says which, and the run leaves no report behind
 *     (run/cli/conformance-finish.ts);
 *   1 the gate fails (a MUST requirement failed, or a check errored other than could-not-judge);
 *   130 / 143 interrupted (SIGINT / SIGTERM): one line says by what, after how many checks, and what the teardown
 *       removed;
 *   5 INCOMPLETE: nothing failed, but checks could not judge because the deployment did not answer (transient replies
 *     after the retry budget, no reply); one line says how many and why;
 *   else 0.
 */
import { FAIL_EXIT, INCOMPLETE_EXIT, LEFTOVERS_EXIT, anyCheckRan, exitCodeOf } from '../report/outcome.js';
import type { Summary } from '../report/summary.js';

export { INCOMPLETE_EXIT, LEFTOVERS_EXIT };
/** Leftover records listed one per line on the console; the rest are counted (summary.json lists all). */
export const LEFTOVERS_LISTED = 50;

export interface RunOutcome {
  code: number;
  /** Lines for stderr (empty when the gate alone decides). */
  lines: string[];
  /** True when no check ran: the run leaves no report behind. */
  nothingRan?: boolean;
}

/** Why no check ran, or undefined when some did. `filters` are the arguments passed to vitest. */
export function noCheckReason(s: Summary, filters: string[]): string | undefined {
  if (anyCheckRan(s)) return undefined;
  const shown = filters.length ? ` (${filters.join(' ')})` : '';
  const omitted = s.checks.filter((c) => c.verdict === 'omit');
  // Checks a name filter left out are counted in the selection (report/results.ts RunSelection), not among the checks.
  const selectable = s.checks.length + (s.scope?.notRunChecks ?? 0);
  if (!omitted.length)
    return selectable
      ? `the filters${shown} matched none of the ${selectable} checks`
      : `no check matched the filters${shown}`;
  const notes = [...new Set(omitted.map((c) => c.note).filter(Boolean))];
  return `every check that matched was omitted (${notes.slice(0, 3).join('; ')}${notes.length > 3 ? '; ...' : ''})`;
}

export function runOutcome(s: Summary, filters: string[], runId: string): RunOutcome {
  const code = exitCodeOf(s);
  if (code === LEFTOVERS_EXIT) {
    const leftovers = s.cleanup!.failures;
    const lines = [
      `conformance: the teardown could not remove ${leftovers.length} record(s) of run ${runId} from the ` +
        `deployment; remove them with npm run cleanup -- --run ${runId}:`,
    ];
    for (const f of leftovers.slice(0, LEFTOVERS_LISTED)) lines.push(`  ${f.service} ${f.what}: ${f.reason}`);
    if (leftovers.length > LEFTOVERS_LISTED)
      lines.push(`  ... and ${leftovers.length - LEFTOVERS_LISTED} more (summary.json, cleanup.failures)`);
    return { code, lines };
  }
  if (s.interrupted) {
    const removed = s.cleanup ? s.cleanup.sources.deleted + s.cleanup.sources.alreadyGone : 0;
    const attempted = s.cleanup?.sources.attempted ?? 0;
    const what = attempted
      ? `the teardown removed ${removed}/${attempted} sources the run created`
      : 'nothing was created on the deployment';
    // Before any check ended there is nothing to report: one line, and no run folder is left (nothingRan).
    if (!anyCheckRan(s))
      return {
        code,
        lines: [
          `conformance: run ${runId} interrupted (${s.interrupted.reason}) before any check ended; ` +
            `${what}; no report written`,
        ],
        nothingRan: true,
      };
    return {
      code,
      lines: [
        `conformance: run ${runId} interrupted (${s.interrupted.reason}); ${what}; its report, marked INTERRUPTED, ` +
          'holds the checks that ended before',
      ],
    };
  }
  const reason = noCheckReason(s, filters);
  if (reason) return { code: FAIL_EXIT, lines: [`conformance: no check ran: ${reason}`], nothingRan: true };
  if (code === INCOMPLETE_EXIT) {
    const n = s.gate.incomplete.length;
    return {
      code,
      lines: [
        `conformance: INCOMPLETE: nothing failed, but ${n} check(s) could not judge: the deployment did not ` +
          `answer them within the retries allowed (CONFORMANCE_RETRY_BUDGET_MS, CONFORMANCE_RETRIES); the report ` +
          `lists them, and per service its throttling and transient failures`,
      ],
    };
  }
  return { code, lines: [] };
}
