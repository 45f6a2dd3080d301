/**
 * The exit code of a finished conformance run, from its summary.json, and the lines that say why
 * when it is not the gate's:
 *   1 no check ran: the filters matched no check, or every check that matched was omitted (its
 *     service not configured, or the profile switches it off); one line says which;
 *   4 the teardown left records on the deployment: one line per record (source name and native
 *     ID, or relationship ID) and the cleanup command; this wins over the gate, because records of
 *     the run stay on a shared deployment until someone removes them;
 *   1 the gate fails (a MUST requirement failed, or a check errored other than could-not-judge);
 *   5 INCOMPLETE: nothing failed, but checks could not judge because the deployment did not answer
 *     (transient replies after the retry budget, no reply); one line says how many and why;
 *   else 0.
 */
import type { Summary } from '../report/summary.js';

/** Exit code of a run whose teardown could not remove everything it created. */
export const LEFTOVERS_EXIT = 4;
/** Exit code of an INCOMPLETE run: no gating failure, but checks that could not judge. */
export const INCOMPLETE_EXIT = 5;
/** Leftover records listed one per line on the console; the rest are counted (summary.json lists all). */
export const LEFTOVERS_LISTED = 50;

export interface RunOutcome {
  code: number;
  /** Lines for stderr (empty when the gate alone decides). */
  lines: string[];
}

/** True when a check's body ran: it reached a verdict, or stopped itself as could-not-verify; not a check vitest filtered out. */
const ran = (c: Summary['checks'][number]) =>
  c.verdict === 'pass' || c.verdict === 'fail' || c.verdict === 'error' || (c.verdict === 'skip' && c.service !== 'unknown');

/** Why no check ran, or undefined when some did. `filters` are the arguments passed to vitest. */
export function noCheckReason(s: Summary, filters: string[]): string | undefined {
  if (s.checks.some(ran)) return undefined;
  const shown = filters.length ? ` (${filters.join(' ')})` : '';
  const omitted = s.checks.filter((c) => c.verdict === 'omit');
  if (!s.checks.length) return `no check matched the filters${shown}`;
  if (!omitted.length) return `the filters${shown} matched none of the ${s.checks.length} checks`;
  const notes = [...new Set(omitted.map((c) => c.note).filter(Boolean))];
  return `every check that matched was omitted (${notes.slice(0, 3).join('; ')}${notes.length > 3 ? '; ...' : ''})`;
}

export function runOutcome(s: Summary, filters: string[], runId: string): RunOutcome {
  const leftovers = s.cleanup?.failures ?? [];
  if (leftovers.length) {
    const lines = [
      `conformance: the teardown could not remove ${leftovers.length} record(s) of run ${runId} from the deployment; remove them with npm run cleanup -- --run ${runId}:`,
    ];
    for (const f of leftovers.slice(0, LEFTOVERS_LISTED)) lines.push(`  ${f.service} ${f.what}: ${f.reason}`);
    if (leftovers.length > LEFTOVERS_LISTED)
      lines.push(`  ... and ${leftovers.length - LEFTOVERS_LISTED} more (summary.json, cleanup.failures)`);
    return { code: LEFTOVERS_EXIT, lines };
  }
  const reason = noCheckReason(s, filters);
  if (reason) return { code: 1, lines: [`conformance: no check ran: ${reason}`] };
  // summary.json before schema 2 has no gate: any failure or error gates.
  const gateFails = s.gate ? s.gate.verdict === 'fail' : s.totals.fail + s.totals.error > 0;
  if (gateFails) return { code: 1, lines: [] };
  if (s.gate?.verdict === 'incomplete') {
    const n = s.gate.incomplete.length;
    return {
      code: INCOMPLETE_EXIT,
      lines: [
        `conformance: INCOMPLETE: nothing failed, but ${n} check(s) could not judge: the deployment did not answer them within the retries allowed (CONFORMANCE_RETRY_BUDGET_MS, CONFORMANCE_RETRIES); the report lists them, and per service its throttling and transient failures`,
      ],
    };
  }
  return { code: 0, lines: [] };
}
