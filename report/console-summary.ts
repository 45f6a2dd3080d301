/**
 * The summary a run ends with on the console, plain text: the verdict; per service its target, check counts and
 * coverage within the run's scope (report/coverage-text.ts), and the IDs of the requirements that failed (and of those
 * whose checks could not judge); the failures by cause, root causes first; cleanup; the gate when a known-failures list
 * changed it; what to do next (the replay command of the failing checks) and where the report is.
 */
import { situationsLine } from './situations.js';
import type { CheckResult } from './results.js';
import type { Summary } from './summary.js';
import { coverageText } from './coverage-text.js';
import { gateClass, gateMark, orderByCause, shownTitle } from './failure-order.js';
import { headline } from './headline.js';
import { expiredText } from './known-failures.js';
import { anyCheckRan, exitCodeOf } from './outcome.js';
import { existsSync } from 'node:fs';
import { reportFiles } from './formats.js';
import { join } from 'node:path';
import { pacingNotable, pacingPhrases } from './pacing-text.js';
import { targetStatement } from './target.js';

/** IDs a failing check broke (its failed requirements, else all it verifies). */
const broken = (c: CheckResult) => (c.failedRequirements.length ? c.failedRequirements : c.verifies);
const unique = (ids: string[]) => [...new Set(ids)].sort();

/**
 * The command that replays the failing checks with the run's data: the run's seed, the faults of the embedded reference
 * if any, and the test files of the failing checks.
 */
export function replayCommand(s: Summary): string | undefined {
  const files = unique(s.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error').map((c) => c.file));
  if (!files.length) return undefined;
  const faults = s.run.faults?.length ? `REFERENCE_FAULTS=${s.run.faults.join(',')} ` : '';
  return `${faults}CONFORMANCE_SEED=${s.run.seed} npm run conformance -- ${files.join(' ')}`;
}

/**
 * How a failed requirement stands at the gate, when it does not gate: its checks' mark when every check that failed it
 * has the same (report/failure-order.ts gateMark), " [not gating]" for a mix; nothing when a check failing it gates.
 */
function notGating(id: string, failing: CheckResult[], s: Summary): string {
  const classes = new Set(failing.filter((c) => broken(c).includes(id)).map((c) => gateClass(c.checkId, s.gate)));
  if (!classes.size || classes.has('gating')) return '';
  if (classes.size > 1) return ' [not gating]';
  return gateMark([...classes][0]!);
}

/** Causes listed on the console; the rest are counted (report.html lists them all). */
export const CAUSES_LISTED = 8;

/**
 * The failing checks by cause, root causes first (report/failure-order.ts): one line per cause, its root check's title,
 * and how many more checks fail the same way or downstream of it.
 */
export function causeLines(s: Summary): string[] {
  const ordered = orderByCause(
    s.checks,
    s.gate,
    s.run.targets.map((t) => t.service),
  );
  const roots = ordered.filter((x) => x.place.role === 'root');
  if (!roots.length) return [];
  const out = [`  failures by cause, root causes first (report.html shows each with its evidence):`];
  roots.slice(0, CAUSES_LISTED).forEach(({ check, gate, place }, i) => {
    const follow = ordered.filter((x) => x.place.cause?.checkId === check.checkId);
    const same = follow.filter((x) => x.place.role === 'same-cause').length;
    const down = follow.filter((x) => x.place.role === 'downstream').length;
    const more = [same ? `${same} more failing the same way` : '', down ? `${down} downstream of it` : '']
      .filter(Boolean)
      .join(', ');
    out.push(
      `    ${i + 1}. ${check.service} ` +
        `${place.requirement}${place.operation ? ` at ${place.operation}` : ''}${gateMark(gate)}: ` +
        `${shownTitle(check)}${more ? ` (+ ${more})` : ''}`,
    );
  });
  if (roots.length > CAUSES_LISTED) out.push(`    ... and ${roots.length - CAUSES_LISTED} more causes`);
  return out;
}

export function consoleSummary(s: Summary, folder: string): string {
  const out: string[] = [];
  out.push('', `Conformance run ${s.run.runId} (seed ${s.run.seed}): ${headline(s)}`, `  ${targetStatement(s.run)}`);
  for (const t of s.run.targets) {
    const c = s.coverage[t.service];
    const checks = s.checks.filter((x) => x.service === t.service);
    const n = (v: string) => checks.filter((x) => x.verdict === v).length;
    if (t.status === 'not configured') {
      out.push(`  ${t.service}: not configured`);
      continue;
    }
    if (c?.scope === 'none') {
      out.push(`  ${t.service}: not run (no test file of it selected)`);
      continue;
    }
    const covered = c ? `; ${coverageText(c, s)}` : '';
    out.push(
      `  ${t.service} (${t.status}${t.baseUrl ? ` ${t.baseUrl}${t.servicePath ?? ''}` : ''}): ${checks.length} ` +
        `checks, ${n('pass')} passed, ${n('fail')} failed, ${n('error')} errors, ${n('skip')} skipped, ` +
        `${n('omit')} omitted${covered}`,
    );
    const failing = checks.filter((x) => x.verdict === 'fail');
    const failed = unique(failing.flatMap(broken));
    const errored = unique(checks.filter((x) => x.verdict === 'error').flatMap((x) => x.verifies));
    if (failed.length)
      out.push(`    failed requirements: ${failed.map((id) => `${id}${notGating(id, failing, s)}`).join(', ')}`);
    if (errored.length) out.push(`    could not judge: ${errored.join(', ')}`);
    const situations = s.situations?.[t.service];
    if (situations) out.push(`    walks: ${situationsLine(situations)}`);
    const pacing = s.transport?.[t.service];
    if (pacing && pacingNotable(pacing)) out.push(`    transport: ${pacingPhrases(pacing).join('; ')}`);
  }
  out.push(...causeLines(s));
  if (s.cleanup)
    out.push(
      `  cleanup: ${s.cleanup.sources.deleted + s.cleanup.sources.alreadyGone}/${s.cleanup.sources.attempted} ` +
        `sources removed, ${s.cleanup.failures.length} failures`,
    );
  const g = s.gate;
  if (g.expected.length || g.pending.length || g.unexpectedPasses.length || g.expectOnly.length || g.expired?.length) {
    const knownChecks = new Set(g.expected.map((x) => x.checkId)).size;
    out.push(
      `  gate: ${g.verdict.toUpperCase()} (exit code ${exitCodeOf(s)}); ${g.gating.length} gating, ` +
        `${knownChecks} known failures, ${g.pending.length} pending, ${g.expectOnly.length} EXPECT-only failures, ` +
        `${g.unexpectedPasses.length} unexpected passes`,
    );
    for (const x of g.expired ?? []) out.push(`    expired known failure: ${expiredText(x)}`);
    for (const x of g.unexpectedPasses)
      out.push(
        `    unexpected pass: ${x.entry}: every check covering it passed (${x.checks.length}); remove it from ` +
          `${g.knownFailuresFile ?? 'the known-failures list'}`,
      );
  }
  const replay = replayCommand(s);
  if (replay) out.push(`  replay the failing checks: ${replay}`);
  if (!anyCheckRan(s)) out.push('  no report written: no check ran', '');
  else {
    // Only what the run folder holds: exchanges/ and allure-results/ are absent when no check kept any.
    const also = reportFiles().filter((f) => f !== 'report.html' && existsSync(join(folder, f)));
    out.push(`  report: ${folder}/report.html${also.length ? ` (also ${also.join(', ')})` : ''}`, '');
  }
  return out.join('\n');
}
