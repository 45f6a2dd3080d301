/**
 * Detection: runs the conformance suite against the embedded reference once cleanly, once per catalogued fault, and
 * once per catalogued legitimate variant.
 * - Faults: each fault's run is restricted to the scenario files that hold checks citing its requirement (learned from
 *   the clean run), and within them to the checks citing it (RunInfo.only: the others are declared skipped and send
 *   nothing). All fault runs share one vitest process. A fault is caught when its run has a failing check whose
 *   failedRequirements include the fault's requirement.
 * - Variants (reference/variants): every check runs against a reference with the variant on, under the profile its
 *   users would set. Compatible variants share a reference (bundles, detection/variants.ts); a bundle with a gating
 *   failure is re-run variant by variant so each false positive is attributed to the variant that provokes it. A
 *   variant passes when its run has no gating failure (judge 'no-fail': no `fail` verdict).
 * Used by `npm run detection` and test/faults-detection.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HANDOFF } from '../harness/handoff.js';
import { type DetectionRow, FILE_DONE } from './reporter.js';
import { FAULT_LIST, FAULT_SERVICES, type FaultDefinition } from '../reference/faults/catalogue.js';
import {
  DEFAULT_RUN_SEED,
  type FalsePositive,
  type PlannedVariant,
  bundleVariants,
  judgeVariantRun,
} from './variants.js';
import { type DrawnDeployment, judgeDrawnRun } from './drawn.js';
import type { DetectionReport, FaultOutcome, VariantOutcome, VariantsReport } from './outcomes.js';
import { withoutSettings } from '../harness/setting-names.js';

const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

/** Drawn deployments sharing one vitest process at most (detectVariants). */
export const DRAWN_PER_PROCESS = 12;

/** Process groups of the vitest processes under way: an interrupted detection run ends them with itself. */
const running = new Set<number>();
function endRunning(signal: NodeJS.Signals): void {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.exit(signal === 'SIGTERM' ? 143 : 130);
}
let signalsHandled = false;
const CONFIG = join(import.meta.dirname, 'vitest.config.ts');

/** What one vitest process of a detection run gives: a row per check, its exit code, its output, how long it took. */
type Pass = { rows: DetectionRow[]; code: number | null; output: string; ms: number };

/** The plan's seed of generated data, when one is given (else the default RunInfo.seed). */
const seeded = (seed: number | undefined) => (seed !== undefined ? { seed } : {});

/**
 * Runs one vitest process with one project per plan entry (a fault, or "clean"), each against its own embedded
 * reference, and returns one row per check; `onFileDone` is called as each scenario file ends (with all the runs it
 * holds).
 */
export function runProjects(
  plan: ProjectPlan[],
  workers = 2,
  timeoutMs = 7200000,
  onFileDone?: () => void,
): Promise<Pass> {
  const dir = mkdtempSync(join(tmpdir(), 'cf-detect-'));
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  const env = Object.assign(withoutSettings(process.env), {
    ...HANDOFF.detectionDir.entry(dir),
    ...HANDOFF.detectionWorkers.entry(workers),
    FORCE_COLOR: '0',
  });
  const started = Date.now();
  return new Promise((resolve) => {
    // A group of its own, so that an interrupt ends its workers too (they outlived a killed vitest process).
    const child = spawn(process.execPath, [VITEST, 'run', '--config', CONFIG], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (child.pid) running.add(child.pid);
    if (!signalsHandled) {
      signalsHandled = true;
      process.once('SIGINT', endRunning);
      process.once('SIGTERM', endRunning);
    }
    let output = '';
    let partial = '';
    child.stdout.on('data', (d) => {
      output += d;
      const lines = (partial + d).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (line.startsWith(FILE_DONE)) onFileDone?.();
    });
    child.stderr.on('data', (d) => (output += d));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (child.pid) running.delete(child.pid);
      const limit = `${Math.round(timeoutMs / 1000)} s`;
      if (killed) output += `\n[detection] the vitest process was stopped after ${limit} (its time limit)`;
      let rows: DetectionRow[] = [];
      try {
        rows = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as DetectionRow[];
      } catch {
        rows = [];
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ rows, code, output, ms: Date.now() - started });
    });
  });
}

/** Scenario folders of the services with faults in the catalogue. */
export const scenarioFolders = () => FAULT_SERVICES.map((s) => `scenarios/${s}`);

/**
 * One vitest project of a detection run: its name, the scenario files it loads, the faults its reference switches on
 * (default: the one named like the project; none for "clean") and the requirement IDs whose checks it runs (default:
 * all).
 */
export interface ProjectPlan {
  name: string;
  include: string[];
  faults?: string[];
  only?: string[];
  /** Seed of the generated data (RunInfo.seed; default 12345). */
  seed?: number;
  /**
   * Variants of one project: each check citing a variant's `only` (every check when it has none) runs once per such
   * variant, against that variant's own reference (its faults, or its deployment variants `name[=value]` under the
   * profile their users would set).
   */
  variants?: Array<{ name: string; faults?: string[]; only?: string[]; variants?: string[] }>;
}

/**
 * Bundles faults into projects: at most one fault per service in a project. Faults act on their own service only, and a
 * check talks to its own service only, so each fault's checks run against a reference where exactly that fault is on
 * for their service.
 */
export function bundle(
  faults: Array<{ fault: FaultDefinition; files: string[] }>,
): Array<ProjectPlan & { faults: string[] }> {
  const queues = new Map<string, Array<{ fault: FaultDefinition; files: string[] }>>();
  for (const f of faults)
    (queues.get(f.fault.service) ?? queues.set(f.fault.service, []).get(f.fault.service)!).push(f);
  const out: Array<ProjectPlan & { faults: string[] }> = [];
  for (let i = 0; [...queues.values()].some((q) => q.length > i); i++) {
    const members = [...queues.values()].map((q) => q[i]).filter((m) => m !== undefined);
    out.push({
      name: `faults-${i + 1}`,
      faults: members.map((m) => m.fault.name),
      include: [...new Set(members.flatMap((m) => m.files))].sort(),
      only: members.map((m) => m.fault.requirement),
    });
  }
  return out;
}

export interface DetectionOptions {
  concurrency?: number;
  /** Only these faults (default: all; [] for none). */
  only?: string[];
  /** The variants to run (default: none). */
  variants?: PlannedVariant[];
  /** Seed of the generated data of every run (default 12345). */
  seed?: number;
  /** Most variants per shared reference (default BUNDLE_SIZE; 1: every variant alone). */
  bundleSize?: number;
  onProgress?: (o: FaultOutcome) => void;
  /** Called when a variant's verdict is known. */
  onVariant?: (o: VariantOutcome) => void;
  /** Drawn deployments to run beside the variants (detection/drawn.ts drawnSpecs; default none). */
  drawn?: DrawnDeployment[];
  /** Called as each scenario file of a pass ends: the pass, files ended, files in the pass. */
  onFiles?: FileProgress;
}

/** Progress of one pass (one vitest process): `done` of its `total` scenario files have ended. */
export type FileProgress = (pass: string, done: number, total: number) => void;

/** A runProjects callback counting the ended files of one pass. */
function counter(onFiles: FileProgress | undefined, pass: string, total: number): (() => void) | undefined {
  if (!onFiles) return undefined;
  let done = 0;
  return () => onFiles(pass, ++done, total);
}

/** How many scenario files a full run loads (the clean run's and every variant run's files). */
export function scenarioFileCount(): number {
  return scenarioFolders()
    .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    .filter((f) => f.endsWith('.test.ts')).length;
}

/** The scenario files holding checks that cite each requirement, as the clean run's rows show them. */
function filesByRequirement(rows: DetectionRow[]): Map<string, Set<string>> {
  const filesOf = new Map<string, Set<string>>();
  for (const c of rows)
    for (const id of c.verifies) (filesOf.get(id) ?? filesOf.set(id, new Set()).get(id)!).add(c.file);
  return filesOf;
}

/** A fault's outcome from the rows of its project: caught by the checks that fail citing its requirement. */
function faultOutcome(fault: FaultDefinition, files: string[], project: string | undefined, run: Pass): FaultOutcome {
  if (!files.length)
    return {
      fault,
      files,
      caughtBy: [],
      failing: [],
      runFailed: false,
      ms: 0,
      problem: `no check cites ${fault.requirement}`,
    };
  const checks = run.rows.filter((r) => r.project === project && r.checkId.startsWith(`${fault.service}/`));
  const failing = checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error');
  return {
    fault,
    files,
    caughtBy: checks
      .filter((c) => c.verdict === 'fail' && c.failedRequirements.includes(fault.requirement))
      .map((c) => c.checkId),
    failing: failing.map((c) => c.checkId),
    runFailed: failing.length > 0,
    ms: run.ms,
    ...(checks.length ? {} : { problem: `its project reported no checks: ${run.output.slice(-1500)}` }),
  };
}

/**
 * Runs the faults (options.only, default all) in one vitest process and judges each. Each fault's run holds only the
 * checks citing its requirement (RunInfo.only), in the files `filesOf` gives for it: the other checks of those files
 * are declared skipped and send nothing. Faults of different services share a project (bundle), each judged by its own
 * service's checks.
 */
async function detectFaults(filesOf: Map<string, Set<string>>, options: DetectionOptions, workers: number) {
  const faults = FAULT_LIST.filter((f) => !options.only || options.only.includes(f.name));
  const withFiles = faults.map((fault) => ({ fault, files: [...(filesOf.get(fault.requirement) ?? [])].sort() }));
  const projects = bundle(withFiles.filter((f) => f.files.length));
  const projectOf = new Map(projects.flatMap((p) => p.faults.map((name) => [name, p.name] as const)));
  // One vitest project whose checks run once per bundle (RunInfo.variants): workers load each file once.
  const single: ProjectPlan = {
    name: 'faults',
    include: [...new Set(projects.flatMap((p) => p.include))].sort(),
    ...seeded(options.seed),
    variants: projects.map(({ name, faults, only }) => ({ name, faults, only: only ?? [] })),
  };
  const run: Pass = projects.length
    ? await runProjects([single], workers, undefined, counter(options.onFiles, 'fault runs', single.include.length))
    : { rows: [], ms: 0, output: '', code: 0 };
  const outcomes = withFiles.map(({ fault, files }) => {
    const o = faultOutcome(fault, files, projectOf.get(fault.name), run);
    if (files.length) options.onProgress?.(o);
    return o;
  });
  return { outcomes, rows: run.rows };
}

export async function detect(options: DetectionOptions = {}): Promise<DetectionReport> {
  const started = Date.now();
  const workers = options.concurrency ?? 2;
  const seed = options.seed;
  const files = scenarioFileCount();
  const clean = await runProjects(
    [{ name: 'clean', include: allScenarioFiles(), ...seeded(seed) }],
    workers,
    undefined,
    counter(options.onFiles, 'clean run', files),
  );
  const report: DetectionReport = {
    clean: { ms: clean.ms, checks: clean.rows.length, falsePositives: [] },
    faults: [],
    caught: 0,
    ms: 0,
  };
  if (!clean.rows.length) {
    report.clean.problem = `the clean run reported no checks (exit ${clean.code}):\n${clean.output.slice(-3000)}`;
    report.ms = Date.now() - started;
    return report;
  }
  report.clean.falsePositives = clean.rows
    .filter((c) => c.verdict === 'fail' || c.verdict === 'error')
    .map((c) => ({ checkId: c.checkId, verdict: c.verdict, message: c.message }));
  const faults = await detectFaults(filesByRequirement(clean.rows), options, workers);
  report.faults = faults.outcomes;
  report.rows = faults.rows;
  report.caught = report.faults.filter((f) => f.caughtBy.length > 0 && f.runFailed).length;
  const cleanSkips = new Set(clean.rows.filter((r) => r.verdict === 'skip').map((r) => r.checkId));
  if (options.variants?.length || options.drawn?.length)
    report.variants = await detectVariants(
      options.variants ?? [],
      workers,
      seed,
      options.onVariant,
      cleanSkips,
      options.bundleSize,
      options.drawn,
      options.onFiles,
    );
  report.ms = Date.now() - started;
  return report;
}

/** Every scenario file of the services with a reference (a full run). */
const allScenarioFiles = () => scenarioFolders().map((f) => `${f}/**/*.test.ts`);

/**
 * Runs suites against variant references, one vitest project; each entry a RunVariant (every check, or those citing
 * `only`).
 */
async function runVariantProjects(
  entries: Array<{ name: string; variants: string[]; only?: string[] }>,
  workers: number,
  seed: number | undefined,
  onFileDone?: () => void,
) {
  return runProjects(
    [{ name: 'variants', include: allScenarioFiles(), ...seeded(seed), variants: entries }],
    workers,
    7200000,
    onFileDone,
  );
}

/**
 * Runs the variants: bundles of compatible ones first (every check); a bundle with a false positive is re-run variant
 * by variant, each alone, on the checks citing the requirements its failing checks verify, so each false positive is
 * attributed to the variant that provokes it alone. A bundle whose variants all pass alone is reported as an
 * interaction. Drawn deployments run in the first pass's process, each on a reference of its own, every check; a drawn
 * deployment's gating failure is a false positive of that draw (not re-run).
 */
export async function detectVariants(
  variants: PlannedVariant[],
  workers: number,
  seed?: number,
  onVariant?: (o: VariantOutcome) => void,
  cleanSkips: Set<string> = new Set(),
  bundleSize?: number,
  drawn: DrawnDeployment[] = [],
  onFiles?: FileProgress,
): Promise<VariantsReport> {
  const started = Date.now();
  const bundles = bundleVariants(variants, bundleSize).map((members, i) => ({ name: `variants-${i + 1}`, members }));
  const passes = await bundlePasses(bundles, drawn, workers, seed, onFiles);
  const first = passes[0]!;
  const bundleMs = passes.reduce((ms, p) => ms + p.ms, 0);
  const outcomes = new Map<string, VariantOutcome>();
  const judged = (
    v: PlannedVariant,
    bundle: string,
    run: VariantOutcome['run'],
    rows: DetectionRow[],
    output: string,
  ) => {
    const o = variantOutcome(v, bundle, run, rows, output, cleanSkips);
    outcomes.set(v.spec, o);
    onVariant?.(o);
  };
  const again: Array<{ bundle: string; v: PlannedVariant; only: string[] }> = [];
  const failed: Array<{ bundle: string; variants: string[]; falsePositives: FalsePositive[] }> = [];
  for (const b of bundles) {
    const rows = rowsOf(first.rows, b.name);
    const j = judgeVariantRun(rows, judgeOf(b.members[0]!));
    if (rows.length && j.falsePositives.length && b.members.length > 1) {
      failed.push({ bundle: b.name, variants: b.members.map((m) => m.spec), falsePositives: j.falsePositives });
      const failing = new Set(j.falsePositives.map((f) => f.checkId));
      const only = [...new Set(rows.filter((r) => failing.has(r.checkId)).flatMap((r) => r.verifies))].sort();
      for (const v of b.members) again.push({ bundle: b.name, v, only });
      continue;
    }
    for (const v of b.members) judged(v, b.name, b.members.length === 1 ? 'alone' : 'bundle', rows, first.output);
  }
  if (again.length) {
    // One project per spec: two values of one variant (clock-skew=2000, clock-skew=-2000) are two runs.
    const runIdOf = (v: PlannedVariant) => `v-${v.spec}`;
    const second = await runVariantProjects(
      again.map(({ v, only }) => ({ name: runIdOf(v), variants: [v.spec], only })),
      workers,
      seed,
      counter(onFiles, 'variants alone', scenarioFileCount()),
    );
    for (const { bundle, v } of again)
      judged(v, bundle, 'failing checks alone', rowsOf(second.rows, runIdOf(v)), second.output);
  }
  const list = variants.map((v) => outcomes.get(v.spec)!);
  const runSeed = seed ?? DEFAULT_RUN_SEED;
  const drawnOutcomes = drawn.map((d, i) => {
    const pass = passes[Math.floor(i / DRAWN_PER_PROCESS)]!;
    return judgeDrawnRun(d, rowsOf(pass.rows, d.name), runSeed, pass.output);
  });
  const interactions = failed.filter((f) => f.variants.every((spec) => outcomes.get(spec)?.passed));
  return {
    outcomes: list,
    passed: list.filter((o) => o.passed).length,
    interactions,
    bundles: bundles.map((b) => ({ name: b.name, variants: b.members.map((m) => m.spec) })),
    bundleMs,
    aloneMs: Date.now() - started - bundleMs,
    ms: Date.now() - started,
    ...(drawn.length
      ? { drawn: { outcomes: drawnOutcomes, passed: drawnOutcomes.filter((o) => o.passed).length, runSeed } }
      : {}),
  };
}

const judgeOf = (v: PlannedVariant) => v.active.definition.judge ?? 'pass';
const rowsOf = (rows: DetectionRow[], project: string) => rows.filter((r) => r.project === project);

/** A variant's outcome from the rows of the run that judged it (`run` says which); checks skipped anew are listed. */
function variantOutcome(
  v: PlannedVariant,
  bundle: string,
  run: VariantOutcome['run'],
  rows: DetectionRow[],
  output: string,
  cleanSkips: Set<string>,
): VariantOutcome {
  const j = judgeVariantRun(rows, judgeOf(v));
  const problem = rows.length ? undefined : `its run reported no checks: ${output.slice(-1500)}`;
  return {
    variant: v.spec,
    name: v.active.definition.name,
    judge: judgeOf(v),
    bundle,
    run,
    passed: !problem && j.falsePositives.length === 0,
    ...j,
    newSkips: rows.filter((r) => r.verdict === 'skip' && !cleanSkips.has(r.checkId)).map((r) => r.checkId),
    ...(problem ? { problem } : {}),
  };
}

/**
 * The first pass: every bundle, with the first DRAWN_PER_PROCESS drawn deployments; then a pass per further chunk of
 * drawn deployments. At most DRAWN_PER_PROCESS drawn deployments share a vitest process: 12 took 7.7 min in one, in one
 * had not ended after 70 min (every reference, run and check of them in one heap).
 */
async function bundlePasses(
  bundles: Array<{ name: string; members: PlannedVariant[] }>,
  drawn: DrawnDeployment[],
  workers: number,
  seed: number | undefined,
  onFiles: FileProgress | undefined,
): Promise<Pass[]> {
  const chunks = Array.from({ length: Math.ceil(drawn.length / DRAWN_PER_PROCESS) }, (_, i) =>
    drawn.slice(i * DRAWN_PER_PROCESS, (i + 1) * DRAWN_PER_PROCESS),
  );
  const part = (i: number) => (chunks.length > 1 ? ` (${i + 1} of ${chunks.length})` : '');
  const asEntries = (ds: DrawnDeployment[]) => ds.map((d) => ({ name: d.name, variants: d.specs }));
  const passes = [
    await runVariantProjects(
      [
        ...bundles.map((b) => ({ name: b.name, variants: b.members.map((m) => m.spec) })),
        ...asEntries(chunks[0] ?? []),
      ],
      workers,
      seed,
      counter(
        onFiles,
        drawn.length ? `${bundles.length ? 'variant and drawn runs' : 'drawn runs'}${part(0)}` : 'variant runs',
        scenarioFileCount(),
      ),
    ),
  ];
  for (let i = 1; i < chunks.length; i++)
    passes.push(
      await runVariantProjects(
        asEntries(chunks[i]!),
        workers,
        seed,
        counter(onFiles, `drawn runs${part(i)}`, scenarioFileCount()),
      ),
    );
  return passes;
}
