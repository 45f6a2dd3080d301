/**
 * Run-to-run comparison (vendor upgrade, configuration change): which checks newly fail or newly pass, which
 * requirements changed outcome, and how latency per operation and the match-score distributions shifted. The verdict:
 *   regressed  a MUST requirement that held (or was not failing) in the baseline fails or errors now,
 *              or a check newly fails citing a MUST requirement: exit code 1;
 *   changed    outcomes changed without a MUST regression: exit code 0;
 *   unchanged  every check and requirement has the same outcome: exit code 0.
 * A change of either run's gate (its verdict and exit code, report/outcome.ts) is a change too, and the headline says
 * it. Latency and score shifts are reported but never decide the verdict (timing noise and seed-dependent data would
 * make the gate flaky). An operation's latency shifted only when its per-request times differ significantly
 * (Mann-Whitney U test, Holm-corrected over the operations compared at LATENCY_ALPHA) with at least a medium effect
 * (|Cliff's delta| >= LATENCY_MIN_EFFECT): two runs of one unchanged deployment differ in their p95s by chance, most of
 * all where an operation has few requests. Only what changed is listed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict } from '../harness/verdict.js';
import type { CheckResult } from './results.js';
import { computeStats, readExchanges, type RunStats } from './stats.js';
import type { Summary } from './summary.js';
import { mdTable } from './md-table.js';
import { type RunVerdict, exitCodeOf, runVerdict } from './outcome.js';
import { DELTA_BOUNDS, holm, mannWhitney } from './rank-test.js';

type Outcome = string;
const FAILING = new Set<Outcome>(['fail', 'error']);

export interface CheckChange {
  checkId: string;
  title: string;
  from: Verdict | 'absent';
  to: Verdict | 'absent';
  failedRequirements: string[];
  /** The change breaks a MUST requirement. */
  must: boolean;
}

export interface RequirementChange {
  id: string;
  level: string;
  text: string;
  from: Outcome;
  to: Outcome;
  regression: boolean;
}

export interface LatencyShift {
  service: string;
  operation: string;
  baseline?: { p50: number; p95: number; n: number };
  current?: { p50: number; p95: number; n: number };
  /**
   * slower or faster: the per-request times differ significantly with at least a medium effect (see the file's
   * comment); steady otherwise; new or gone: in one run only; untested: a run has no per-request times of it (a summary
   * before schema 6) or fewer than LATENCY_MIN_REQUESTS; withheld: it would be slower or faster, but a run was degraded
   * (Comparison.degraded), so no shift is called.
   */
  shift: 'slower' | 'faster' | 'steady' | 'new' | 'gone' | 'untested' | 'withheld';
  /** The rank test of the per-request times: p (before the Holm correction) and Cliff's delta (> 0: slower now). */
  test?: { p: number; delta: number };
}

/** Family-wise error rate of the latency tests of one comparison (Holm's correction over the operations tested). */
export const LATENCY_ALPHA = 0.01;
/** Least |Cliff's delta| of a latency shift: a medium effect (report/rank-test.ts DELTA_BOUNDS). */
export const LATENCY_MIN_EFFECT = DELTA_BOUNDS.small;
/**
 * Fewest requests per run an operation needs for its times to be tested (the normal approximation holds from about 8).
 */
export const LATENCY_MIN_REQUESTS = 8;

/** How a run ended at its gate: the one word and the exit code every report gives (report/outcome.ts). */
export interface GateOutcome {
  verdict: RunVerdict;
  exitCode: number;
}

export interface ScoreShift {
  service: string;
  baseline?: { n: number; p50: number; mean: number };
  current?: { n: number; p50: number; mean: number };
  /** Two-sample Kolmogorov-Smirnov distance between the score distributions (0 = identical, 1 = disjoint). */
  ks?: number;
  shifted: boolean;
}

export interface Comparison {
  baseline: { runId: string; seed: number; startedAt: string };
  current: { runId: string; seed: number; startedAt: string };
  verdict: 'unchanged' | 'changed' | 'regressed';
  /** Each run's gate; a change of it makes the comparison at least `changed`. */
  gate: { baseline: GateOutcome; current: GateOutcome; changed: boolean };
  newlyFailing: CheckChange[];
  newlyPassing: CheckChange[];
  otherChanges: CheckChange[];
  added: CheckChange[];
  removed: CheckChange[];
  requirements: RequirementChange[];
  mustRegressions: string[];
  latency: LatencyShift[];
  scores: ScoreShift[];
  /**
   * What makes either run's figures no measure of its deployment (degradation): each run's reasons, and `order` when
   * the baseline started after the current run. While any is given, no latency shift is called (`withheld`).
   */
  degraded: { baseline: string[]; current: string[]; order?: string };
}

/** Share of a service's attempts that failed transiently (throttling aside) from which its run counts as degraded. */
export const DEGRADED_TRANSIENT_SHARE = 0.02;

const secondsText = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Why a run's latency figures do not measure its deployment: it was INTERRUPTED; it is INCOMPLETE (checks could not
 * judge); requests were kept from being sent by an open circuit breaker, or timed out; a service throttled it (HTTP
 * 429, or 503 with Retry-After) or failed transiently in a share of its attempts of DEGRADED_TRANSIENT_SHARE or more.
 * @returns one reason per finding, empty for a run that was not degraded
 */
export function degradation(s: Summary): string[] {
  const out: string[] = [];
  if (s.interrupted) out.push(`INTERRUPTED (${s.interrupted.signal})`);
  const unjudged = s.gate?.incomplete?.length ?? 0;
  if (unjudged) out.push(`INCOMPLETE: ${unjudged} check${unjudged > 1 ? 's' : ''} could not judge`);
  for (const n of s.stats?.noReply ?? []) {
    if (n.circuitOpen) out.push(`circuit open: ${n.circuitOpen} ${n.service} requests not sent`);
    if (n.timeout) out.push(`${n.timeout} ${n.service} requests timed out`);
  }
  for (const [service, t] of Object.entries(s.transport ?? {})) {
    if (t.throttled)
      out.push(
        `throttled: ${t.throttled} of ${t.attempts} ${service} attempts answered "not now"` +
          `${t.pausedMs ? `, paused ${secondsText(t.pausedMs)}` : ''}`,
      );
    const transient = t.transientFailures - t.throttled;
    if (t.attempts && transient / t.attempts >= DEGRADED_TRANSIENT_SHARE)
      out.push(`${transient} of ${t.attempts} ${service} attempts failed transiently`);
  }
  return out;
}

/**
 * Reads a run's summary from a run folder or a summary.json file; adds stats from the exchanges when the summary
 * predates schema 2, and per-request times when it predates schema 6.
 * @throws Error naming the path when it holds no readable summary
 */
export function loadSummary(path: string): Summary {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'summary.json') : path;
  if (!existsSync(file)) throw new Error(`${path}: no summary.json found`);
  let s: Summary;
  try {
    s = JSON.parse(readFileSync(file, 'utf8')) as Summary;
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message})`);
  }
  if (typeof s.schemaVersion !== 'number' || !Array.isArray(s.checks) || !Array.isArray(s.requirements))
    throw new Error(`${file}: not a conformance summary`);
  const folder = existsSync(path) && statSync(path).isDirectory();
  if (!s.stats) s.stats = folder ? computeStats(readExchanges(path)) : { latency: [], matchScores: [] };
  // A summary before schema 6 has no per-request times; the run folder's exchanges have them.
  // One before the requests without a reply were counted (a circuit open, timeouts) has them in its exchanges too.
  if (folder && (!s.stats.latency.some((l) => l.durations) || !('noReply' in s.stats))) {
    const fresh = computeStats(readExchanges(path));
    if (fresh.latency.length && !s.stats.latency.some((l) => l.durations))
      s.stats = { ...s.stats, latency: fresh.latency };
    if (fresh.noReply) s.stats = { ...s.stats, noReply: fresh.noReply };
  }
  return s;
}

/**
 * Two-sample Kolmogorov-Smirnov distance of two ascending samples: the largest gap between their empirical distribution
 * functions, rounded to 0.001. (simple-statistics, which the report uses for percentiles, has no two-sample KS
 * statistic, so it is computed here.)
 */
export function ksDistance(a: number[], b: number[]): number {
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < a.length && j < b.length) {
    const x = Math.min(a[i]!, b[j]!);
    while (i < a.length && a[i]! <= x) i++;
    while (j < b.length && b[j]! <= x) j++;
    d = Math.max(d, Math.abs(i / a.length - j / b.length));
  }
  return Math.round(d * 1000) / 1000;
}

/**
 * Per operation: the shift of its per-request times from run `a` to run `b` (see LatencyShift): every operation with
 * enough requests in both is tested, and the p-values are corrected together.
 */
export function latencyShifts(a: RunStats, b: RunStats): LatencyShift[] {
  const key = (l: { service: string; operation: string }) => `${l.service}/${l.operation}`;
  const keys = [...new Set([...a.latency.map(key), ...b.latency.map(key)])].sort();
  const pick = (l?: { p50: number; p95: number; n: number }) => (l ? { p50: l.p50, p95: l.p95, n: l.n } : undefined);
  const rows: LatencyShift[] = keys.map((k) => {
    const x = a.latency.find((l) => key(l) === k);
    const y = b.latency.find((l) => key(l) === k);
    const [service, operation] = k.split('/') as [string, string];
    const row: LatencyShift = {
      service,
      operation,
      baseline: pick(x),
      current: pick(y),
      shift: !x ? 'new' : !y ? 'gone' : 'untested',
    };
    const enough = (d?: number[]) => (d?.length ?? 0) >= LATENCY_MIN_REQUESTS;
    if (x && y && enough(x.durations) && enough(y.durations)) {
      const t = mannWhitney(x.durations!, y.durations!);
      row.test = { p: t.p, delta: Math.round(t.delta * 1000) / 1000 };
    }
    return row;
  });
  const tested = rows.filter((r) => r.test);
  const significant = holm(
    tested.map((r) => r.test!.p),
    LATENCY_ALPHA,
  );
  tested.forEach((r, i) => {
    const large = Math.abs(r.test!.delta) >= LATENCY_MIN_EFFECT;
    r.shift = significant[i] && large ? (r.test!.delta > 0 ? 'slower' : 'faster') : 'steady';
  });
  return rows;
}

function scoreShifts(a: RunStats, b: RunStats): ScoreShift[] {
  const services = [
    ...new Set([...a.matchScores.map((s) => s.service), ...b.matchScores.map((s) => s.service)]),
  ].sort();
  return services.map((service) => {
    const x = a.matchScores.find((s) => s.service === service);
    const y = b.matchScores.find((s) => s.service === service);
    const ks = x && y ? ksDistance(x.scores, y.scores) : undefined;
    const pick = (s?: { n: number; p50: number; mean: number }) =>
      s ? { n: s.n, p50: s.p50, mean: s.mean } : undefined;
    return {
      service,
      baseline: pick(x),
      current: pick(y),
      ks,
      shifted: ks !== undefined ? ks > 0.2 && Math.min(x!.n, y!.n) >= 5 : Boolean(x) !== Boolean(y),
    };
  });
}

export function compareSummaries(base: Summary, cur: Summary): Comparison {
  const levels = new Map([...base.requirements, ...cur.requirements].map((r) => [r.id, r.level]));
  const isMust = (ids: string[]) => ids.some((id) => levels.get(id) === 'MUST');
  const baseChecks = new Map(base.checks.map((c) => [c.checkId, c]));
  const curChecks = new Map(cur.checks.map((c) => [c.checkId, c]));
  const change = (id: string, x?: CheckResult, y?: CheckResult): CheckChange => {
    const failed = y && FAILING.has(y.verdict) ? (y.failedRequirements.length ? y.failedRequirements : y.verifies) : [];
    return {
      checkId: id,
      title: (y ?? x)!.title,
      from: x?.verdict ?? 'absent',
      to: y?.verdict ?? 'absent',
      failedRequirements: failed,
      must: isMust(failed),
    };
  };
  const gateOf = (x: Summary): GateOutcome => ({ verdict: runVerdict(x), exitCode: exitCodeOf(x) });
  const gates = { baseline: gateOf(base), current: gateOf(cur) };
  const out: Comparison = {
    baseline: { runId: base.run.runId, seed: base.run.seed, startedAt: base.run.startedAt },
    current: { runId: cur.run.runId, seed: cur.run.seed, startedAt: cur.run.startedAt },
    verdict: 'unchanged',
    gate: {
      ...gates,
      changed: gates.baseline.verdict !== gates.current.verdict || gates.baseline.exitCode !== gates.current.exitCode,
    },
    newlyFailing: [],
    newlyPassing: [],
    otherChanges: [],
    added: [],
    removed: [],
    requirements: [],
    mustRegressions: [],
    latency: latencyShifts(base.stats, cur.stats),
    scores: scoreShifts(base.stats, cur.stats),
    degraded: {
      baseline: degradation(base),
      current: degradation(cur),
      ...(base.run.startedAt > cur.run.startedAt
        ? { order: `the baseline (started ${base.run.startedAt}) started after the current run (${cur.run.startedAt})` }
        : {}),
    },
  };
  // A degraded run's times say how it was served, not how fast the deployment is: no shift is called then.
  if (isDegraded(out))
    for (const l of out.latency) if (l.shift === 'slower' || l.shift === 'faster') l.shift = 'withheld';
  for (const id of [...new Set([...baseChecks.keys(), ...curChecks.keys()])].sort()) {
    const x = baseChecks.get(id);
    const y = curChecks.get(id);
    const c = change(id, x, y);
    if (!x) out.added.push(c);
    if (!y) {
      out.removed.push(c);
      continue;
    }
    if (x?.verdict === y.verdict) continue;
    if (FAILING.has(y.verdict) && !FAILING.has(x?.verdict ?? 'absent')) out.newlyFailing.push(c);
    else if (x && y.verdict === 'pass') out.newlyPassing.push(c);
    else if (x) out.otherChanges.push(c);
  }
  requirementChanges(base, cur, out);
  for (const c of out.newlyFailing)
    if (c.must)
      for (const id of c.failedRequirements)
        if (levels.get(id) === 'MUST' && !out.mustRegressions.includes(id)) out.mustRegressions.push(id);
  const changed =
    out.newlyFailing.length +
      out.newlyPassing.length +
      out.otherChanges.length +
      out.added.length +
      out.removed.length +
      out.requirements.length >
      0 || out.gate.changed;
  out.verdict = out.mustRegressions.length ? 'regressed' : changed ? 'changed' : 'unchanged';
  return out;
}

/** Each requirement whose outcome changed, in `out.requirements`; a MUST turned failing, in `out.mustRegressions`. */
function requirementChanges(base: Summary, cur: Summary, out: Comparison): void {
  const baseReqs = new Map(base.requirements.map((r) => [r.id, r]));
  for (const r of cur.requirements) {
    const from = baseReqs.get(r.id)?.outcome ?? 'absent';
    if (from === r.outcome) continue;
    const regression = FAILING.has(r.outcome) && !FAILING.has(from);
    out.requirements.push({ id: r.id, level: r.level, text: r.text, from, to: r.outcome, regression });
    if (regression && r.level === 'MUST') out.mustRegressions.push(r.id);
  }
}

/** True when either run was degraded, or the baseline started after the current run. */
export const isDegraded = (c: Pick<Comparison, 'degraded'>) =>
  Boolean(c.degraded.baseline.length || c.degraded.current.length || c.degraded.order);

/**
 * What was degraded, in one sentence, e.g. "the baseline was degraded (INCOMPLETE: 12 checks could not judge; ...)".
 */
export function degradedText(c: Pick<Comparison, 'degraded'>): string {
  const d = c.degraded;
  return [
    ...(d.baseline.length ? [`the baseline was degraded (${d.baseline.join('; ')})`] : []),
    ...(d.current.length ? [`the current run was degraded (${d.current.join('; ')})`] : []),
    ...(d.order ? [d.order] : []),
  ].join('; ');
}

/** The comparison as Markdown (printed by `npm run compare`, fit for a CI job summary). */
export function comparisonMarkdown(c: Comparison): string {
  const L: string[] = [];
  L.push(
    `# Comparison: ${comparisonHeadline(c)}`,
    '',
    `Baseline ${c.baseline.runId} (seed ${c.baseline.seed}, ${c.baseline.startedAt}) → current ` +
      `${c.current.runId} (seed ${c.current.seed}, ${c.current.startedAt})`,
    '',
  );
  if (isDegraded(c))
    L.push(`**Degraded:** ${degradedText(c)}. Latency shifts are not called while a run is degraded.`, '');
  if (c.mustRegressions.length) L.push(`**MUST requirements that newly fail:** ${c.mustRegressions.join(', ')}`, '');
  const checks = (title: string, rows: CheckChange[]) => {
    if (!rows.length) return;
    L.push(
      `## ${title} (${rows.length})`,
      '',
      mdTable(
        ['check', 'was', 'now', 'requirements'],
        rows.map((r) => [r.checkId, r.from, r.to, `${r.failedRequirements.join(' ')}${r.must ? ' (MUST)' : ''}`]),
      ),
      '',
    );
  };
  checks('Newly failing checks', c.newlyFailing);
  checks('Newly passing checks', c.newlyPassing);
  checks('Other outcome changes', c.otherChanges);
  checks('Checks only in the current run', c.added);
  checks('Checks only in the baseline', c.removed);
  if (c.requirements.length) {
    L.push(
      `## Requirements whose outcome changed (${c.requirements.length})`,
      '',
      mdTable(
        ['requirement', 'level', 'was', 'now', 'text'],
        c.requirements.map((r) => [r.id, r.level, r.from, r.to, r.text]),
      ),
      '',
    );
  }
  L.push(...latencyLines(c), ...scoreLines(c));
  return `${L.join('\n')}\n`;
}

/** The comparison's verdict with each run's gate, e.g. "CHANGED: gate FAIL (exit code 1) → PASS (exit code 0)". */
export function comparisonHeadline(c: Pick<Comparison, 'verdict' | 'gate'>): string {
  const word = (g: GateOutcome) => `${g.verdict.toUpperCase()} (exit code ${g.exitCode})`;
  const { baseline, current } = c.gate;
  return (
    `${c.verdict.toUpperCase()}: gate ` +
    `${c.gate.changed ? `${word(baseline)} → ${word(current)}` : `${word(current)} in both runs`}`
  );
}

const arrow = (a: unknown, b: unknown) => `${a ?? '-'} → ${b ?? '-'}`;

/** The comparison's latency section: how the operations were tested, and the table of those that shifted. */
function latencyLines(c: Comparison): string[] {
  const moved = c.latency.filter((l) => l.shift !== 'steady' && l.shift !== 'untested' && l.shift !== 'withheld');
  const tested = c.latency.filter((l) => l.test).length;
  const untested = c.latency.filter((l) => l.shift === 'untested').length;
  const withheld = c.latency.filter((l) => l.shift === 'withheld').length;
  const differ = withheld === 1 ? '1 operation differs' : `${withheld} operations differ`;
  const L = [
    isDegraded(c) ? '## Latency per operation: not compared' : `## Latency per operation: ${moved.length} shifted`,
    '',
    ...(isDegraded(c)
      ? [
          `No shift is called: ${degradedText(c)}` +
            (withheld
              ? ` (${differ} significantly in their per-request times, which says how the degraded run was served, ` +
                'not how fast the deployment is)'
              : '') +
            '.',
          '',
        ]
      : []),
    `${tested} operations tested on their per-request times (Mann-Whitney U, Holm-corrected at α ` +
      `${LATENCY_ALPHA}; a shift needs |Cliff's δ| ≥ ${LATENCY_MIN_EFFECT})` +
      (untested
        ? `; ${untested} not tested (fewer than ${LATENCY_MIN_REQUESTS} requests in a run, or a run without ` +
          'per-request times)'
        : '') +
      '.',
  ];
  if (moved.length)
    L.push(
      '',
      mdTable(
        ['operation', 'p50 was → now (ms)', 'p95 was → now (ms)', 'shift', 'p', "Cliff's δ"],
        moved.map((l) => [
          `${l.service}/${l.operation}`,
          arrow(l.baseline?.p50, l.current?.p50),
          arrow(l.baseline?.p95, l.current?.p95),
          l.shift,
          l.test ? l.test.p.toPrecision(2) : '-',
          l.test ? String(l.test.delta) : '-',
        ]),
      ),
    );
  return L;
}

/** The comparison's match-score section: how many services' distributions shifted, and the table of those. */
function scoreLines(c: Comparison): string[] {
  if (!c.scores.length) return [];
  const shifted = c.scores.filter((s) => s.shifted);
  const L = ['', `## Match-score distributions: ${shifted.length} of ${c.scores.length} services shifted`];
  if (shifted.length)
    L.push(
      '',
      mdTable(
        ['service', 'results was → now', 'median was → now', 'mean was → now', 'KS distance'],
        shifted.map((s) => [
          s.service,
          arrow(s.baseline?.n, s.current?.n),
          arrow(s.baseline?.p50, s.current?.p50),
          arrow(s.baseline?.mean, s.current?.mean),
          s.ks ?? '-',
        ]),
      ),
    );
  return L;
}
