/** The run's verdict as every report heads it (console summary, summary.md, report.html). */
import type { Summary } from './summary.js';

/**
 * The run's verdict in one word, as every report heads it: the gate's (PASS, FAIL, or INCOMPLETE
 * when checks could not judge: the exit code, run/outcome.ts), with the checks that could not
 * verify (skip) in brackets when the gate passed. A summary before schema 2 has no gate: its raw outcome.
 */
export function headline(s: Pick<Summary, 'gate' | 'overall' | 'totals'>): string {
  if (!s.gate) return s.overall.toUpperCase();
  const word = s.gate.verdict.toUpperCase();
  return s.gate.verdict === 'pass' && s.totals.skip
    ? `${word} (${s.totals.skip} ${s.totals.skip === 1 ? 'check' : 'checks'} could not verify)`
    : word;
}
