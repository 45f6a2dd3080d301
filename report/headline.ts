/** The run's verdict as every report heads it (console summary, summary.md, report.html). */
import { exitCodeOf, runVerdict } from './outcome.js';
import type { Summary } from './summary.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The run's verdict as every report heads it, from the same outcome as the exit code
 * (report/outcome.ts): PASS (0), FAIL (1), INCOMPLETE (5, checks could not judge), or the gate's
 * word with "records left on the deployment (exit code 4)". A passing gate says in brackets what
 * it let through: known failures, pending checks, EXPECT-only failures, checks that could not verify.
 */
export function headline(s: Pick<Summary, 'gate' | 'overall' | 'totals' | 'checks' | 'cleanup'>): string {
  const verdict = runVerdict(s);
  if (verdict === 'nothing ran') return 'NO CHECK RAN (exit code 1)';
  const gateWord = (s.gate?.verdict ?? (s.totals.fail + s.totals.error > 0 ? 'fail' : 'pass')).toUpperCase();
  if (verdict === 'leftovers')
    return `${gateWord}, but ${count(s.cleanup!.failures.length, 'record')} left on the deployment (exit code ${exitCodeOf(s)})`;
  const notes: string[] = [];
  if (s.gate?.verdict === 'pass') {
    if (s.gate.expected.length) notes.push(count(new Set(s.gate.expected.map((x) => x.checkId)).size, 'known failure'));
    if (s.gate.pending.length) notes.push(count(s.gate.pending.length, 'pending check'));
    if (s.gate.expectOnly.length) notes.push(count(s.gate.expectOnly.length, 'EXPECT-only failure'));
  }
  if (verdict === 'pass' && s.totals.skip) notes.push(`${count(s.totals.skip, 'check')} could not verify`);
  return notes.length ? `${gateWord} (${notes.join(', ')})` : gateWord;
}

/** The gate's finding in one sentence, with the exit code it gives (report/outcome.ts). */
export function gateSentence(s: Pick<Summary, 'gate' | 'overall' | 'totals' | 'checks' | 'cleanup'>): string {
  const g = s.gate;
  const code = exitCodeOf(s);
  const finding =
    g.verdict === 'fail'
      ? `${count(g.gating.length, 'check')} fail the gate`
      : g.verdict === 'incomplete'
        ? `Nothing failed, but ${count(g.incomplete.length, 'check')} could not judge: the deployment did not answer them (INCOMPLETE)`
        : 'Every MUST requirement checked held';
  const left = runVerdict(s) === 'leftovers' ? `; the teardown left ${count(s.cleanup!.failures.length, 'record')} on the deployment` : '';
  return `${finding}${left} (exit code ${code}).`;
}
