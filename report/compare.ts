/**
 * Run-to-run comparison (vendor upgrade, configuration change): which checks newly fail or
 * newly pass, which requirements changed outcome, and how latency per operation and the
 * match-score distributions shifted. The verdict:
 *   regressed  a MUST requirement that held (or was not failing) in the baseline fails or errors now,
 *              or a check newly fails citing a MUST requirement: exit code 1;
 *   changed    outcomes changed without a MUST regression: exit code 0;
 *   unchanged  every check and requirement has the same outcome: exit code 0.
 * Latency and score shifts are reported but never decide the verdict (timing noise and
 * seed-dependent data would make the gate flaky).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict } from '../harness/verdict.js';
import type { CheckResult } from './results.js';
import { computeStats, readExchanges, type RunStats } from './stats.js';
import type { Summary } from './summary.js';
import { mdTable } from './md-table.js';

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
  /** slower or faster when p95 moved by more than x2 and 100 ms; else steady. */
  shift: 'slower' | 'faster' | 'steady' | 'new' | 'gone';
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
  newlyFailing: CheckChange[];
  newlyPassing: CheckChange[];
  otherChanges: CheckChange[];
  added: CheckChange[];
  removed: CheckChange[];
  requirements: RequirementChange[];
  mustRegressions: string[];
  latency: LatencyShift[];
  scores: ScoreShift[];
}

/**
 * Reads a run's summary from a run folder or a summary.json file; adds stats from the
 * exchanges when the summary predates schema 2.
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
  if (!s.stats)
    s.stats = existsSync(path) && statSync(path).isDirectory() ? computeStats(readExchanges(path)) : { latency: [], matchScores: [] };
  return s;
}

/**
 * Two-sample Kolmogorov-Smirnov distance of two ascending samples: the largest gap between their
 * empirical distribution functions, rounded to 0.001. (simple-statistics, which the report uses
 * for percentiles, has no two-sample KS statistic, so it is computed here.)
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

function latencyShifts(a: RunStats, b: RunStats): LatencyShift[] {
  const key = (l: { service: string; operation: string }) => `${l.service}/${l.operation}`;
  const keys = [...new Set([...a.latency.map(key), ...b.latency.map(key)])].sort();
  return keys.map((k) => {
    const x = a.latency.find((l) => key(l) === k);
    const y = b.latency.find((l) => key(l) === k);
    const [service, operation] = k.split('/') as [string, string];
    let shift: LatencyShift['shift'] = 'steady';
    if (!x) shift = 'new';
    else if (!y) shift = 'gone';
    else if (y.p95 > 2 * x.p95 && y.p95 - x.p95 > 100) shift = 'slower';
    else if (x.p95 > 2 * y.p95 && x.p95 - y.p95 > 100) shift = 'faster';
    const pick = (l?: { p50: number; p95: number; n: number }) => (l ? { p50: l.p50, p95: l.p95, n: l.n } : undefined);
    return { service, operation, baseline: pick(x), current: pick(y), shift };
  });
}

function scoreShifts(a: RunStats, b: RunStats): ScoreShift[] {
  const services = [...new Set([...a.matchScores.map((s) => s.service), ...b.matchScores.map((s) => s.service)])].sort();
  return services.map((service) => {
    const x = a.matchScores.find((s) => s.service === service);
    const y = b.matchScores.find((s) => s.service === service);
    const ks = x && y ? ksDistance(x.scores, y.scores) : undefined;
    const pick = (s?: { n: number; p50: number; mean: number }) => (s ? { n: s.n, p50: s.p50, mean: s.mean } : undefined);
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
  const out: Comparison = {
    baseline: { runId: base.run.runId, seed: base.run.seed, startedAt: base.run.startedAt },
    current: { runId: cur.run.runId, seed: cur.run.seed, startedAt: cur.run.startedAt },
    verdict: 'unchanged',
    newlyFailing: [],
    newlyPassing: [],
    otherChanges: [],
    added: [],
    removed: [],
    requirements: [],
    mustRegressions: [],
    latency: latencyShifts(base.stats, cur.stats),
    scores: scoreShifts(base.stats, cur.stats),
  };
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
  const baseReqs = new Map(base.requirements.map((r) => [r.id, r]));
  for (const r of cur.requirements) {
    const from = baseReqs.get(r.id)?.outcome ?? 'absent';
    if (from === r.outcome) continue;
    const regression = FAILING.has(r.outcome) && !FAILING.has(from);
    out.requirements.push({ id: r.id, level: r.level, text: r.text, from, to: r.outcome, regression });
    if (regression && r.level === 'MUST') out.mustRegressions.push(r.id);
  }
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
    0;
  out.verdict = out.mustRegressions.length ? 'regressed' : changed ? 'changed' : 'unchanged';
  return out;
}

/** The comparison as Markdown (printed by `npm run compare`, fit for a CI job summary). */
export function comparisonMarkdown(c: Comparison): string {
  const L: string[] = [];
  L.push(
    `# Comparison: ${c.verdict.toUpperCase()}`,
    '',
    `Baseline ${c.baseline.runId} (seed ${c.baseline.seed}, ${c.baseline.startedAt}) → current ${c.current.runId} (seed ${c.current.seed}, ${c.current.startedAt})`,
    '',
  );
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
  const moved = c.latency.filter((l) => l.shift !== 'steady');
  const arrow = (a: unknown, b: unknown) => `${a ?? '-'} → ${b ?? '-'}`;
  L.push(`## Latency per operation (${moved.length} shifted of ${c.latency.length})`, '');
  L.push(
    mdTable(
      ['operation', 'p50 was → now (ms)', 'p95 was → now (ms)', 'shift'],
      c.latency.map((l) => [
        `${l.service}/${l.operation}`,
        arrow(l.baseline?.p50, l.current?.p50),
        arrow(l.baseline?.p95, l.current?.p95),
        l.shift,
      ]),
    ),
  );
  if (c.scores.length) {
    L.push('', '## Match-score distributions', '');
    L.push(
      mdTable(
        ['service', 'results was → now', 'median was → now', 'mean was → now', 'KS distance', 'shifted'],
        c.scores.map((s) => [
          s.service,
          arrow(s.baseline?.n, s.current?.n),
          arrow(s.baseline?.p50, s.current?.p50),
          arrow(s.baseline?.mean, s.current?.mean),
          s.ks ?? '-',
          s.shifted ? 'yes' : 'no',
        ]),
      ),
    );
  }
  return `${L.join('\n')}\n`;
}
