/**
 * What one mutant's conformance run says about the mutant. A mutant is **killed** exactly when
 * `npm run conformance` against the mutated reference ends with a non-zero exit code, as a CI gate
 * sees it, and each kill says how: a gating failure (exit 1 with a summary), the run unable to
 * start or to finish its report (exit 1 without one: a crash, in Stryker's sense a kill), the
 * settings refused (2), the preflight failing (3), the teardown leaving records (4), checks that
 * could not judge (5, INCOMPLETE). A run ended at its time limit is a **timeout**, counted as
 * killed as Stryker counts it (a reference that stops answering is a deployment no run passes),
 * and listed apart. Exit code 0 is a **survivor**.
 */
import type { RunResult } from './conformance-run.js';

export type KillKind = 'gate' | 'crash' | 'settings' | 'preflight' | 'teardown' | 'incomplete';

export type Verdict =
  | { status: 'killed'; kind: KillKind; reason: string }
  | { status: 'timeout'; reason: string }
  | { status: 'survived'; reason: string };

const BY_CODE: Record<number, [KillKind, string]> = {
  2: ['settings', 'the run refused its settings (exit 2)'],
  3: ['preflight', 'the preflight failed: the reference did not answer (exit 3)'],
  4: ['teardown', 'the teardown could not remove what the run created (exit 4)'],
  5: ['incomplete', 'INCOMPLETE: checks could not judge (exit 5)'],
};

/** What a crash says: its first error message, else the last line of its output that says something. */
function crashLine(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^(at |❯ |⎯)/.test(l));
  const error = lines.find((l) => /\b(?:[A-Z]\w*)?Error\b.*: /.test(l));
  return (error ?? lines.at(-1) ?? 'no output').slice(0, 200);
}

/** True when vitest's bail ended the run at a failure that does not gate, so the checks it skipped were not judged. */
export const bailedOnNonGating = (run: RunResult): boolean =>
  run.code === 0 && !!run.summary && run.summary.expectOnly.length > 0 && run.summary.skipped > 0;

/** The verdict of a finished run. */
export function verdictOf(run: RunResult, limitMs: number): Verdict {
  if (run.timedOut) return { status: 'timeout', reason: `ended at its time limit of ${Math.round(limitMs / 1000)} s` };
  if (run.code === 0) return { status: 'survived', reason: 'gate PASS (exit 0)' };
  const known = run.code === null ? undefined : BY_CODE[run.code];
  if (known) return { status: 'killed', kind: known[0], reason: known[1] };
  if (run.code === 1 && run.summary) {
    const s = run.summary;
    const first = s.gating[0] ?? s.incomplete[0];
    const reqs = s.failedRequirements.length ? s.failedRequirements.join(', ') : 'no requirement';
    return { status: 'killed', kind: 'gate', reason: `gate FAIL: ${reqs}${first ? ` (${first})` : ''}` };
  }
  return {
    status: 'killed',
    kind: 'crash',
    reason: `the run ended (exit ${run.code}) without a report: ${crashLine(run.output)}`,
  };
}
