/** The run's verdict as every report heads it (console summary, summary.md, report.html). */
import { INTERRUPTED_NOTE } from '../harness/verdict.js';
import { checkRan, exitCodeOf, runVerdict } from './outcome.js';
import { expiredText } from './known-failures.js';
import type { Summary } from './summary.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The run's verdict as every report heads it, from the same outcome as the exit code (report/outcome.ts): PASS (0),
 * FAIL (1), INCOMPLETE (5, checks could not judge), or the gate's word with "records left on the deployment (exit code
 * 4)". A passing gate says in brackets what it let through: known failures, pending checks, EXPECT-only failures,
 * checks that could not verify.
 */
export function headline(
  s: Pick<Summary, 'gate' | 'overall' | 'totals' | 'checks' | 'cleanup' | 'interrupted' | 'scope'>,
): string {
  const verdict = runVerdict(s);
  if (verdict === 'interrupted')
    return `INTERRUPTED by ${s.interrupted!.signal} (exit code ${exitCodeOf(s)}) ${ranSoFar(s)}`;
  if (verdict === 'nothing ran') return 'NO CHECK RAN (exit code 1)';
  const gateWord = (s.gate?.verdict ?? (s.totals.fail + s.totals.error > 0 ? 'fail' : 'pass')).toUpperCase();
  // An interrupted run that left records: both, never the gate of the few checks that ended.
  if (verdict === 'leftovers' && s.interrupted)
    return (
      `INTERRUPTED by ${s.interrupted.signal}, and ${count(s.cleanup!.failures.length, 'record')} left on the ` +
      `deployment (exit code ${exitCodeOf(s)}) ${ranSoFar(s)}`
    );
  if (verdict === 'leftovers')
    return (
      `${gateWord}, but ${count(s.cleanup!.failures.length, 'record')} left on the deployment (exit code ` +
      `${exitCodeOf(s)})`
    );
  const notes: string[] = [];
  if (s.gate?.verdict === 'pass') {
    if (s.gate.expected.length) notes.push(count(new Set(s.gate.expected.map((x) => x.checkId)).size, 'known failure'));
    if (s.gate.pending.length) notes.push(count(s.gate.pending.length, 'pending check'));
    if (s.gate.expectOnly.length) notes.push(count(s.gate.expectOnly.length, 'EXPECT-only failure'));
  }
  if (verdict === 'pass' && s.totals.skip) notes.push(`${count(s.totals.skip, 'check')} could not verify`);
  return notes.length ? `${gateWord} (${notes.join(', ')})` : gateWord;
}

/**
 * What an interrupted run judged before it stopped: the checks that ended (how many of them gate), those the interrupt
 * cut short and those it kept from starting.
 */
function ranSoFar(s: Pick<Summary, 'gate' | 'checks' | 'scope'>): string {
  const cut = s.checks.filter((c) => c.verdict === 'skip' && c.note?.includes(INTERRUPTED_NOTE)).length;
  const ended = s.checks.filter(checkRan).length - cut;
  const notStarted = s.scope?.notRunChecks ?? 0;
  const gating = s.gate?.gating.length ?? 0;
  const rest = [cut ? `${cut} cut short` : '', notStarted ? `${notStarted} not run` : ''].filter(Boolean).join(', ');
  return (
    `after ${ended} of ${count(s.checks.length + notStarted, 'check')} ` +
    `ended${gating ? ` (${gating} failing the gate)` : ''}${rest ? `; ${rest}` : ''}`
  );
}

/** The gate's finding in one sentence, with the exit code it gives (report/outcome.ts). */
export function gateSentence(
  s: Pick<Summary, 'gate' | 'overall' | 'totals' | 'checks' | 'cleanup' | 'interrupted' | 'scope'>,
): string {
  const g = s.gate;
  const code = exitCodeOf(s);
  if (s.interrupted)
    return `The run was interrupted (${s.interrupted.reason}) ${ranSoFar(s)}: its verdicts cover only the checks that ended; ${
      !s.cleanup
        ? 'this report was written before the removal of what the run created (the console, and the report once the ' +
          'removals have ended, say what stays on the deployment)'
        : s.cleanup.failures.length
          ? `the teardown left ${count(s.cleanup.failures.length, 'record')} on the deployment`
          : 'the teardown removed what it created, as after any run'
    } (exit code ${code}).`;
  const finding =
    g.verdict === 'fail'
      ? `${count(g.gating.length, 'check')} fail the gate`
      : g.verdict === 'incomplete'
        ? `Nothing failed, but ${count(g.incomplete.length, 'check')} could not judge: the deployment did not ` +
          `answer them (INCOMPLETE)`
        : 'Every MUST requirement checked held';
  const left =
    runVerdict(s) === 'leftovers'
      ? `; the teardown left ${count(s.cleanup!.failures.length, 'record')} on the deployment`
      : '';
  return `${finding}${left} (exit code ${code}).`;
}

/** How a report writes the parts of a gate list: a check ID (linked or quoted), an ID, run text, and a list entry. */
export interface GateFormat {
  check: (id: string) => string;
  code: (id: string) => string;
  text: (t: string) => string;
  plain: (t: string) => string;
  passEntry: (entry: string) => string;
}

/**
 * The gate's lists as every report shows them (summary.md, report.html): each with its anchor ID, title and rows in
 * the report's format `f`; empty lists included (a report leaves them out).
 */
export function gateLists(g: Summary['gate'], f: GateFormat): Array<{ id: string; title: string; rows: string[] }> {
  const ticket = (x: { ticket?: string }) => (x.ticket ? ` (ticket ${f.text(x.ticket)})` : '');
  const more = (ids: string[]) => `${ids.slice(0, 5).map(f.code).join(', ')}${ids.length > 5 ? ', ...' : ''}`;
  return [
    { id: 'gating', title: 'Gating failures', rows: g.gating.map(f.check) },
    {
      id: 'incomplete',
      title: 'Could not judge (the deployment did not answer; the run is incomplete)',
      rows: (g.incomplete ?? []).map(f.check),
    },
    {
      id: 'expect-only',
      title: 'Failures of EXPECT requirements only (reported, not gating)',
      rows: g.expectOnly.map(f.check),
    },
    {
      id: 'known',
      title: 'Known failures (expected)',
      rows: g.expected.map((x) => `${f.check(x.checkId)} via ${f.plain(x.entry)}: ${f.text(x.reason)}${ticket(x)}`),
    },
    {
      id: 'expired',
      title: 'Expired known failures: they gate again',
      rows: (g.expired ?? []).map((x) => f.text(expiredText(x))),
    },
    {
      id: 'pending',
      title: 'Pending checks (not yet passed on this deployment)',
      rows: g.pending.map((x) => `${f.check(x.checkId)}: ${f.text(x.reason)}`),
    },
    {
      id: 'unexpected-passes',
      title: 'Unexpected passes: remove these from the known-failures list',
      rows: g.unexpectedPasses.map(
        (x) =>
          `${f.passEntry(x.entry)}: every check covering it passed (${more(x.checks)}); listed because: ` +
          f.text(x.reason),
      ),
    },
    {
      id: 'graduated',
      title: 'Pending checks that passed for the first time (they gate from now on)',
      rows: g.graduated.map(f.code),
    },
  ];
}
