/**
 * The summary of a run (`summary.json`, the versioned, machine-readable result; schema in reports/README.md) built from
 * the collected check results and what the run selected: verdict totals, every requirement's outcome, coverage per
 * service within the run's scope, the operations exercised, the gate (exit code) and the figures.
 */
import type { OAuthShown } from '../harness/oauth.js';
import { type ServiceSituations, situationsOf, withoutSituationKeys } from './situations.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES, categoriesOf } from '../specs/services.js';
import { categoryKey } from '../specs/common/categories.js';
import type { CleanupResult } from '../harness/cleanup.js';
import type { Verdict } from '../harness/verdict.js';
import type { PacingFigures } from '../harness/pacing.js';
import { type Gate, type KnownFailures, judge } from './known-failures.js';
import { type CheckResult, type RunSelection, serviceOfFile } from './results.js';
import type { RunStats } from './stats.js';

/**
 * Version 2 added `gate` (known failures, MUST-level gating) and `stats` (latency, match scores); version 3 added
 * `scope`, the outcome `not-run`, `coverage.{scope,inScope,notRun}` and `checks[].failure`; version 4 added the gate
 * verdict `incomplete` with `gate.incomplete`, `checks[].couldNotJudge` (such an error makes `overall` incomplete, not
 * fail) and `transport`; version 5 made `gate.unexpectedPasses[]` one per known-failures entry (`entry`, `reason`,
 * `checks[]`), flagged only when every check it covers passed; Version 6 added `interrupted` (the run was stopped by a
 * signal: its checks are those that ended first).
 */
export const SUMMARY_SCHEMA_VERSION = 6;

/**
 * A requirement's outcome: the worst verdict of the checks citing it, `uncovered` (the suite has no check for it yet),
 * `untestable` (no black-box check can observe it) or `not-run` (this run did not select the checks that could cover
 * it).
 */
export type RequirementOutcome = Verdict | 'uncovered' | 'untestable' | 'not-run';

/**
 * How much of a service the run selected: `all` its test files and checks, `part` of them (a file filter, a name filter
 * or a shard), `none`, or `not configured` (its checks are omitted).
 */
export type ServiceScope = 'all' | 'part' | 'none' | 'not configured';

export interface RunDescription {
  runId: string;
  seed: number;
  startedAt: string;
  embedded: boolean;
  targets: Array<{
    service: ServiceName;
    status: 'embedded' | 'configured' | 'not configured';
    baseUrl?: string;
    servicePath?: string;
    auth?: string;
    /** The OAuth2 client a bearer token came from (client credentials), when it came from one; never the secret. */
    oauth?: OAuthShown;
    sources?: string[];
  }>;
  profile: unknown;
  /** Set on a merged report: the shard runs it joins. */
  shards?: Array<{ runId: string; shard?: string; startedAt: string; finishedAt?: string }>;
  /** Set on a shard's run: "index/count" from vitest --shard. */
  shard?: string;
  /** Faults switched on in the embedded reference (REFERENCE_FAULTS), so a replay can switch them on too. */
  faults?: string[];
}

/**
 * A run stopped by a signal (run/interrupt.ts): which one (it decides the exit code, 130 or 143), what sent it, and
 * when. Its checks are those that ended before it; checks the interrupt cut short are skipped ("the run was interrupted
 * ..."), checks not started are not run.
 */
export interface Interruption {
  signal: 'SIGINT' | 'SIGTERM';
  reason: string;
  at: string;
}

export interface Summary {
  schemaVersion: number;
  /** Set when the run was interrupted (schema 6). */
  interrupted?: Interruption;
  run: RunDescription & { finishedAt: string; durationMs: number };
  overall: 'pass' | 'fail' | 'incomplete';
  totals: Record<Verdict, number> & { checks: number };
  requirements: Array<{
    id: string;
    service: ServiceName;
    level: string;
    section: string;
    text: string;
    outcome: RequirementOutcome;
    checks: string[];
    untestable?: string;
    /**
     * The categories its sentence implies (specs/common/categories.ts), each with the checks that exercised and judged
     * it in this run (none: not reached, and why where a run may not reach it).
     */
    categories?: Array<{ id: string; what: string; by: string[]; reach?: string }>;
  }>;
  /** Per service; `inScope` requirements are those the run's selection could cover (not `not-run`). */
  coverage: Record<
    string,
    {
      scope: ServiceScope;
      requirements: number;
      inScope: number;
      covered: number;
      untestable: number;
      uncovered: string[];
      notRun: string[];
      mustCovered: number;
      must: number;
    }
  >;
  /** What the run selected: test files of the suite and of the run, checks a name filter left out. */
  scope: { suiteFiles: number; selectedFiles: string[]; notRunChecks: number };
  operations: Array<{ service: ServiceName; operation: string; checks: number; exercised: boolean }>;
  checks: CheckResult[];
  cleanup?: CleanupResult;
  lags: Array<{ checkId: string; what: string; ms: number }>;
  /**
   * What decides the exit code: MUST-level failures and errors not listed as known failures; checks that could not
   * judge.
   */
  gate: Gate;
  stats: RunStats;
  /**
   * Per service, how its requests were paced (harness/pacing.ts): attempts, throttled and transient failures, time
   * paused, in-flight bound and rate (lowest and final). Absent when the run's threads shared no pacing state (a pool
   * other than threads).
   */
  transport?: Record<string, PacingFigures>;
  /**
   * Requests the checks sent per service, every attempt counted (per check: checks[].requests); the run's removals are
   * not counted.
   */
  requests?: Record<string, number>;
  /**
   * Per service whose walks ran, the state-table situations (specs/state/situations.ts) of the run's scope: enumerated,
   * reached and judged, and those not reached with why (report/situations.ts).
   */
  situations?: Record<string, ServiceSituations>;
}

export interface SummaryOptions {
  stats?: RunStats;
  known?: KnownFailures;
  finishedAt?: Date;
  /** What the run selected (selection.json); without it every configured service counts as wholly selected. */
  selection?: RunSelection;
  /** How each service's requests were paced (Summary.transport). */
  transport?: Record<string, PacingFigures>;
  /** The interrupt that stopped the run, if any (Summary.interrupted). */
  interrupted?: Interruption;
}

const LEVELS = new Map(
  Object.values(SERVICES).flatMap((spec) => spec.requirements.map((r) => [r.id, r.level] as const)),
);
const SERVICE_OF = new Map(
  Object.values(SERVICES).flatMap((spec) => spec.requirements.map((r) => [r.id, spec.name] as const)),
);

const ORDER: RequirementOutcome[] = ['fail', 'error', 'skip', 'pass', 'omit'];

/**
 * The outcome of a requirement from the checks citing it (at least one): the worst of their verdicts, a failed check
 * counting only when it failed this requirement. A check that failed another of its requirements ended without showing
 * this one kept: where no other check passed, failed or errored on it, the requirement is `skip` (not verified), never
 * `pass`. The evidence verifier asks the same of a bundle's junit.xml (report/evidence/cross-check.ts).
 */
export function outcomeOfChecks(
  id: string,
  citing: ReadonlyArray<Pick<CheckResult, 'verdict' | 'failedRequirements'>>,
): RequirementOutcome {
  const passed = citing.some((r) => r.verdict === 'pass');
  const outcomes = citing.flatMap((r): RequirementOutcome[] =>
    r.verdict !== 'fail' ? [r.verdict] : r.failedRequirements.includes(id) ? ['fail'] : passed ? [] : ['skip'],
  );
  return ORDER.find((o) => outcomes.includes(o)) ?? 'pass';
}

/** How much of each service a run selected (see ServiceScope). */
export function serviceScopes(
  run: RunDescription,
  results: CheckResult[],
  selection?: RunSelection,
): Record<string, { scope: ServiceScope; filesComplete: boolean }> {
  const out: Record<string, { scope: ServiceScope; filesComplete: boolean }> = {};
  for (const spec of Object.values(SERVICES)) {
    const status = run.targets.find((t) => t.service === spec.name)?.status ?? 'not configured';
    if (!selection) {
      out[spec.name] = { scope: status === 'not configured' ? 'not configured' : 'all', filesComplete: true };
      continue;
    }
    const mine = (f: string) => serviceOfFile(f) === spec.name;
    const suite = selection.suiteFiles.filter(mine);
    const selected = new Set(selection.selectedFiles.filter(mine));
    const filesComplete = suite.every((f) => selected.has(f));
    const ran = selected.size > 0 || results.some((r) => r.service === spec.name);
    const scope: ServiceScope = !ran
      ? 'none'
      : status === 'not configured'
        ? 'not configured'
        : filesComplete && !selection.notRun.some((n) => mine(n.file))
          ? 'all'
          : 'part';
    out[spec.name] = { scope, filesComplete };
  }
  return out;
}

export function buildSummary(
  run: RunDescription,
  results: CheckResult[],
  cleanup: CleanupResult | undefined,
  options: SummaryOptions = {},
): Summary {
  const finishedAt = options.finishedAt ?? new Date();
  const totals = { checks: results.length, pass: 0, fail: 0, error: 0, skip: 0, omit: 0 };
  for (const r of results) totals[r.verdict]++;
  const scopes = serviceScopes(run, results, options.selection);
  const leftOut = new Set((options.selection?.notRun ?? []).flatMap((n) => n.verifies));

  const { requirements, coverage } = requirementOutcomes(results, scopes, leftOut);
  const operations = Object.values(SERVICES).flatMap((spec) =>
    spec.operations.map((op) => {
      const n = results.filter((r) => r.service === spec.name && r.operations.includes(op.name)).length;
      return { service: spec.name, operation: op.name, checks: n, exercised: n > 0 };
    }),
  );
  // An error because the deployment did not answer leaves the run incomplete, not failed.
  const unjudged = results.filter((r) => r.verdict === 'error' && r.couldNotJudge).length;
  const overall: Summary['overall'] =
    totals.fail || totals.error > unjudged
      ? 'fail'
      : unjudged || totals.skip || !results.length
        ? 'incomplete'
        : 'pass';
  const started = Date.parse(run.startedAt);
  return {
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    ...(options.interrupted ? { interrupted: options.interrupted } : {}),
    run: { ...run, finishedAt: finishedAt.toISOString(), durationMs: finishedAt.getTime() - started },
    overall,
    totals,
    requirements,
    coverage,
    scope: {
      suiteFiles: options.selection?.suiteFiles.length ?? 0,
      selectedFiles: options.selection?.selectedFiles ?? [...new Set(results.map((r) => r.file))].sort(),
      notRunChecks: options.selection?.notRun.length ?? 0,
    },
    operations,
    checks: results.map(withoutSituationKeys),
    cleanup,
    lags: results.flatMap((r) => (r.lags ?? []).map((l) => ({ checkId: r.checkId, ...l }))),
    gate: judge(results, (id) => LEVELS.get(id), options.known, {
      // A requirement of a service the run selected only part of may still fail in the checks left out.
      partial: (id) => {
        const service = SERVICE_OF.get(id);
        return service === undefined || scopes[service]?.scope !== 'all';
      },
    }),
    stats: options.stats ?? { latency: [], matchScores: [] },
    ...(options.transport && Object.keys(options.transport).length ? { transport: options.transport } : {}),
    requests: requestsByService(results),
    ...(results.some((r) => r.situations) ? { situations: situationsOf(results) } : {}),
  };
}

/**
 * Every requirement's outcome (from the checks that cite it, or why none judged it) and each service's coverage: what
 * was in scope, covered, untestable, uncovered or not run.
 */
function requirementOutcomes(
  results: CheckResult[],
  scopes: ReturnType<typeof serviceScopes>,
  leftOut: Set<string>,
): Pick<Summary, 'requirements' | 'coverage'> {
  const requirements: Summary['requirements'] = [];
  const coverage: Summary['coverage'] = {};
  for (const spec of Object.values(SERVICES)) {
    const { scope, filesComplete } = scopes[spec.name]!;
    const cov = (coverage[spec.name] = {
      scope,
      requirements: 0,
      inScope: 0,
      covered: 0,
      untestable: 0,
      uncovered: [] as string[],
      notRun: [] as string[],
      mustCovered: 0,
      must: 0,
    });
    for (const req of spec.requirements) {
      const citing = results.filter((r) => r.verifies.includes(req.id));
      let outcome: RequirementOutcome;
      if (citing.length) outcome = outcomeOfChecks(req.id, citing);
      else if (scope === 'none') outcome = 'not-run';
      else if (req.untestable) outcome = 'untestable';
      else if (leftOut.has(req.id) || !filesComplete) outcome = 'not-run';
      else outcome = 'uncovered';
      cov.requirements++;
      if (outcome === 'not-run') {
        cov.notRun.push(req.id);
      } else {
        cov.inScope++;
        if (req.level === 'MUST') cov.must++;
        if (outcome === 'untestable') cov.untestable++;
        else if (outcome === 'uncovered') cov.uncovered.push(req.id);
        else {
          cov.covered++;
          if (req.level === 'MUST') cov.mustCovered++;
        }
      }
      requirements.push({
        id: req.id,
        service: spec.name,
        level: req.level,
        section: req.section,
        text: req.text,
        outcome,
        checks: citing.map((r) => r.checkId),
        ...(req.untestable ? { untestable: req.untestable } : {}),
        ...categoriesFor(req.id, citing),
      });
    }
  }
  return { requirements, coverage };
}

/** The categories of requirement `id` and the checks that exercised each (nothing when it implies none). */
function categoriesFor(id: string, citing: CheckResult[]): Pick<Summary['requirements'][number], 'categories'> {
  const implied = categoriesOf(id);
  if (!implied.length) return {};
  return {
    categories: implied.map((c) => ({
      id: c.id,
      what: c.what,
      by: citing.filter((r) => r.categories?.includes(categoryKey(id, c.id))).map((r) => r.checkId),
      ...(c.reach ? { reach: c.reach } : {}),
    })),
  };
}

/** Requests the checks of each service sent (CheckResult.requests; a check that recorded none counts 0). */
export function requestsByService(results: CheckResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) out[r.service] = (out[r.service] ?? 0) + (r.requests ?? 0);
  return out;
}

const readJson = <T>(file: string): T | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;

/** The check results a run folder holds (results.json), if any. */
export const readResults = (folder: string): CheckResult[] | undefined =>
  readJson<CheckResult[]>(join(folder, 'results.json'));

/** What a run folder's run selected (selection.json), if recorded. */
export const readSelection = (folder: string): RunSelection | undefined =>
  readJson<RunSelection>(join(folder, 'selection.json'));
