/**
 * Builds the run's reports from the collected check results: `summary.json` (the versioned,
 * machine-readable result; schema in reports/README.md), `summary.md`, `report.html`,
 * `junit.xml` (fail as <failure>, error as <error>, skip and omit as <skipped> with the reason),
 * and the console summary.
 */
import { cpSync, existsSync, lstatSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import junitModule, { type Builder } from 'junit-report-builder';
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES } from '../specs/services.js';
import type { CleanupResult } from '../harness/cleanup.js';
import type { Verdict } from '../harness/verdict.js';
import { type Gate, type KnownFailures, judge } from './known-failures.js';
import type { CheckResult } from './results.js';
import type { RunStats } from './stats.js';
import { targetStatement } from './target.js';

/** Version 2 added `gate` (known failures, MUST-level gating) and `stats` (latency, match scores). */
export const SUMMARY_SCHEMA_VERSION = 2;

export type RequirementOutcome = Verdict | 'uncovered' | 'untestable';

export interface RunDescription {
  runId: string;
  seed: number;
  startedAt: string;
  embedded: boolean;
  targets: Array<{ service: ServiceName; status: 'embedded' | 'configured' | 'not configured'; baseUrl?: string; servicePath?: string; auth?: string; sources?: string[] }>;
  profile: unknown;
  /** Set on a merged report: the shard runs it joins. */
  shards?: Array<{ runId: string; shard?: string; startedAt: string; finishedAt?: string }>;
  /** Set on a shard's run: "index/count" from vitest --shard. */
  shard?: string;
}

export interface Summary {
  schemaVersion: number;
  run: RunDescription & { finishedAt: string; durationMs: number };
  overall: 'pass' | 'fail' | 'incomplete';
  totals: Record<Verdict, number> & { checks: number };
  requirements: Array<{ id: string; service: ServiceName; level: string; section: string; text: string; outcome: RequirementOutcome; checks: string[]; untestable?: string }>;
  coverage: Record<string, { requirements: number; covered: number; untestable: number; uncovered: string[]; mustCovered: number; must: number }>;
  operations: Array<{ service: ServiceName; operation: string; checks: number; exercised: boolean }>;
  checks: CheckResult[];
  cleanup?: CleanupResult;
  lags: Array<{ checkId: string; what: string; ms: number }>;
  /** What decides the exit code: MUST-level failures and errors not listed as known failures. */
  gate: Gate;
  stats: RunStats;
}

export interface SummaryOptions {
  stats?: RunStats;
  known?: KnownFailures;
  finishedAt?: Date;
}

const LEVELS = new Map(Object.values(SERVICES).flatMap((spec) => spec.requirements.map((r) => [r.id, r.level] as const)));

const ORDER: RequirementOutcome[] = ['fail', 'error', 'skip', 'pass', 'omit'];

export function buildSummary(run: RunDescription, results: CheckResult[], cleanup: CleanupResult | undefined, options: SummaryOptions = {}): Summary {
  const finishedAt = options.finishedAt ?? new Date();
  const totals = { checks: results.length, pass: 0, fail: 0, error: 0, skip: 0, omit: 0 };
  for (const r of results) totals[r.verdict]++;
  const active = new Set(run.targets.filter((t) => t.status !== 'not configured').map((t) => t.service));

  const requirements: Summary['requirements'] = [];
  const coverage: Summary['coverage'] = {};
  for (const spec of Object.values(SERVICES)) {
    const cov = (coverage[spec.name] = { requirements: 0, covered: 0, untestable: 0, uncovered: [] as string[], mustCovered: 0, must: 0 });
    for (const req of spec.requirements) {
      const citing = results.filter((r) => r.verifies.includes(req.id));
      const outcomes = citing.flatMap((r): RequirementOutcome[] => (r.verdict === 'fail' ? (r.failedRequirements.includes(req.id) ? ['fail'] : []) : [r.verdict]));
      let outcome: RequirementOutcome = req.untestable ? 'untestable' : 'uncovered';
      if (citing.length) outcome = ORDER.find((o) => outcomes.includes(o)) ?? 'pass';
      cov.requirements++;
      if (req.level === 'MUST') cov.must++;
      if (req.untestable) cov.untestable++;
      else if (citing.length) {
        cov.covered++;
        if (req.level === 'MUST') cov.mustCovered++;
      } else cov.uncovered.push(req.id);
      requirements.push({ id: req.id, service: spec.name, level: req.level, section: req.section, text: req.text, outcome, checks: citing.map((r) => r.checkId), ...(req.untestable ? { untestable: req.untestable } : {}) });
    }
  }
  const operations = Object.values(SERVICES).flatMap((spec) =>
    spec.operations.map((op) => {
      const n = results.filter((r) => r.service === spec.name && r.operations.includes(op.name)).length;
      return { service: spec.name, operation: op.name, checks: n, exercised: n > 0 };
    }),
  );
  const overall: Summary['overall'] = totals.fail || totals.error ? 'fail' : totals.skip || !results.length ? 'incomplete' : 'pass';
  const started = Date.parse(run.startedAt);
  void active;
  return {
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    run: { ...run, finishedAt: finishedAt.toISOString(), durationMs: finishedAt.getTime() - started },
    overall,
    totals,
    requirements,
    coverage,
    operations,
    checks: results,
    cleanup,
    lags: results.flatMap((r) => (r.lags ?? []).map((l) => ({ checkId: r.checkId, ...l }))),
    gate: judge(results, (id) => LEVELS.get(id), options.known),
    stats: options.stats ?? { latency: [], matchScores: [] },
  };
}

export function writeJunit(s: Summary, file: string): void {
  // The package is CommonJS with a default export; under ESM interop it may arrive wrapped once more.
  const root = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as unknown as Builder;
  const builder = root.newBuilder();
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  for (const c of s.checks) {
    const key = `${c.service}.${c.area}`;
    let suite = suites.get(key);
    if (!suite) suites.set(key, (suite = builder.testSuite().name(key).property('target', targetStatement(s.run))));
    const tc = suite.testCase().className(key).name(c.title).time(c.durationMs / 1000);
    tc.property('requirements', c.verifies.join(' '));
    tc.property('verdict', c.verdict);
    if (c.verdict === 'fail') tc.failure(c.message ?? 'failed', c.failedRequirements.join(' '));
    else if (c.verdict === 'error') tc.error(c.message ?? c.note ?? 'error', 'error');
    else if (c.verdict === 'skip' || c.verdict === 'omit') {
      tc.skipped();
      tc.standardOutput(`${c.verdict}: ${c.note ?? ''}`);
    }
  }
  builder.writeTo(file);
}

/** Points reports/latest at a run folder (a copy where symlinks are not allowed). */
export function pointLatest(reportDir: string, folder: string): void {
  const latest = join(reportDir, 'latest');
  try {
    if (existsSync(latest) || lstatSync(latest, { throwIfNoEntry: false })) rmSync(latest, { recursive: true, force: true });
    symlinkSync(resolve(folder), latest, 'dir');
  } catch {
    cpSync(folder, latest, { recursive: true });
  }
}

/** The short console summary a run ends with. */
export function consoleSummary(s: Summary, folder: string): string {
  const out: string[] = [];
  out.push('', `Conformance run ${s.run.runId} (seed ${s.run.seed}): ${s.overall.toUpperCase()}`, `  ${targetStatement(s.run)}`);
  for (const t of s.run.targets) {
    const c = s.coverage[t.service];
    const checks = s.checks.filter((x) => x.service === t.service);
    const n = (v: Verdict) => checks.filter((x) => x.verdict === v).length;
    if (t.status === 'not configured') out.push(`  ${t.service}: not configured`);
    else
      out.push(
        `  ${t.service} (${t.status}${t.baseUrl ? ` ${t.baseUrl}${t.servicePath ?? ''}` : ''}): ${checks.length} checks, ${n('pass')} passed, ${n('fail')} failed, ${n('error')} errors, ${n('skip')} skipped, ${n('omit')} omitted; requirements covered ${c?.covered}/${(c?.requirements ?? 0) - (c?.untestable ?? 0)}`,
      );
  }
  if (s.cleanup) out.push(`  cleanup: ${s.cleanup.sources.deleted + s.cleanup.sources.alreadyGone}/${s.cleanup.sources.attempted} sources removed, ${s.cleanup.failures.length} failures`);
  const g = s.gate;
  if (g.expected.length || g.pending.length || g.unexpectedPasses.length || g.expectOnly.length)
    out.push(`  gate: ${g.verdict.toUpperCase()}; ${g.gating.length} gating, ${g.expected.length} known failures, ${g.pending.length} pending, ${g.expectOnly.length} EXPECT-only failures, ${g.unexpectedPasses.length} unexpected passes`);
  out.push(`  report: ${folder}/report.html (also summary.md, summary.json, junit.xml, allure-results/, exchanges/)`, '');
  return out.join('\n');
}

export function readResults(folder: string): CheckResult[] | undefined {
  const file = join(folder, 'results.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CheckResult[]) : undefined;
}
