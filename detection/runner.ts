/**
 * Detection: runs the conformance suite against the embedded reference once cleanly and once
 * per catalogued fault, each fault's run restricted to the scenario files that hold checks
 * citing its requirement (learned from the clean run), and within them to the checks citing it
 * (RunInfo.only: the others are declared skipped and send nothing). All fault runs share one vitest process:
 * one project per fault, each with its own reference (detection/vitest.config.ts). A fault is caught when its run has a failing check whose failedRequirements include
 * the fault's requirement. Used by `npm run detection` and test/faults-detection.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DetectionRow } from './reporter.js';
import { FAULT_LIST, FAULT_SERVICES, type FaultDefinition } from '../reference/faults/catalogue.js';

export interface FaultOutcome {
  fault: FaultDefinition;
  files: string[];
  /** Check IDs that failed citing the fault's requirement. */
  caughtBy: string[];
  /** Every check that failed or errored in the fault's run. */
  failing: string[];
  runFailed: boolean;
  ms: number;
  problem?: string;
}

export interface DetectionReport {
  clean: { ms: number; checks: number; falsePositives: Array<{ checkId: string; verdict: string; message?: string }>; problem?: string };
  /** Every check row of the fault runs (project = bundle name), for timing analysis. */
  rows?: DetectionRow[];
  faults: FaultOutcome[];
  caught: number;
  ms: number;
}

const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const CONFIG = join(import.meta.dirname, 'vitest.config.ts');

/**
 * Runs one vitest process with one project per plan entry (a fault, or "clean"), each against its
 * own embedded reference, and returns one row per check.
 */
export function runProjects(plan: ProjectPlan[], workers = 2, timeoutMs = 600000): Promise<{ rows: DetectionRow[]; code: number | null; output: string; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'cf-detect-'));
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (/^(ORG|PERSON|PROVIDER|CONFORMANCE|REFERENCE)_/.test(k)) delete env[k];
  Object.assign(env, { DETECTION_DIR: dir, DETECTION_WORKERS: String(workers), FORCE_COLOR: '0' });
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VITEST, 'run', '--config', CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
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
 * One vitest project of a detection run: its name, the scenario files it loads, the faults its
 * reference switches on (default: the one named like the project; none for "clean") and the
 * requirement IDs whose checks it runs (default: all).
 */
export interface ProjectPlan {
  name: string;
  include: string[];
  faults?: string[];
  only?: string[];
  /** Variants of one project: each check citing a variant's `only` runs once per such variant, against that variant's own reference. */
  variants?: Array<{ name: string; faults: string[]; only: string[] }>;
}

/**
 * Bundles faults into projects: at most one fault per service in a project. Faults act on their
 * own service only, and a check talks to its own service only, so each fault's checks run against
 * a reference where exactly that fault is on for their service.
 */
export function bundle(faults: Array<{ fault: FaultDefinition; files: string[] }>): Array<ProjectPlan & { faults: string[] }> {
  const queues = new Map<string, Array<{ fault: FaultDefinition; files: string[] }>>();
  for (const f of faults) (queues.get(f.fault.service) ?? queues.set(f.fault.service, []).get(f.fault.service)!).push(f);
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
  /** Only these faults (default: all). */
  only?: string[];
  onProgress?: (o: FaultOutcome) => void;
}

export async function detect(options: DetectionOptions = {}): Promise<DetectionReport> {
  const started = Date.now();
  const workers = options.concurrency ?? 2;
  const clean = await runProjects([{ name: 'clean', include: scenarioFolders().map((f) => `${f}/**/*.test.ts`) }], workers);
  const report: DetectionReport = { clean: { ms: clean.ms, checks: clean.rows.length, falsePositives: [] }, faults: [], caught: 0, ms: 0 };
  if (!clean.rows.length) {
    report.clean.problem = `the clean run reported no checks (exit ${clean.code}):\n${clean.output.slice(-3000)}`;
    report.ms = Date.now() - started;
    return report;
  }
  report.clean.falsePositives = clean.rows.filter((c) => c.verdict === 'fail' || c.verdict === 'error').map((c) => ({ checkId: c.checkId, verdict: c.verdict, message: c.message }));
  const filesOf = new Map<string, Set<string>>();
  for (const c of clean.rows) for (const id of c.verifies) (filesOf.get(id) ?? filesOf.set(id, new Set()).get(id)!).add(c.file);

  const faults = FAULT_LIST.filter((f) => !options.only || options.only.includes(f.name));
  // Each fault's run holds only the checks citing its requirement (RunInfo.only): the other checks
  // of those files are declared skipped and send nothing.
  const filesFor = (f: FaultDefinition) => [...(filesOf.get(f.requirement) ?? [])].sort();
  // Faults of different services share a project (bundle), each judged by its own service's checks.
  const withFiles = faults.map((fault) => ({ fault, files: filesFor(fault) }));
  const projects = bundle(withFiles.filter((f) => f.files.length));
  const projectOf = new Map(projects.flatMap((p) => p.faults.map((name) => [name, p.name] as const)));
  // One vitest project whose checks run once per bundle (RunInfo.variants): workers load each file once.
  const single: ProjectPlan = { name: 'faults', include: [...new Set(projects.flatMap((p) => p.include))].sort(), variants: projects.map(({ name, faults, only }) => ({ name, faults, only: only ?? [] })) };
  const run = projects.length ? await runProjects([single], workers) : { rows: [] as DetectionRow[], ms: 0, output: '', code: 0 };
  report.faults = withFiles.map(({ fault, files }): FaultOutcome => {
    if (!files.length) return { fault, files, caughtBy: [], failing: [], runFailed: false, ms: 0, problem: `no check cites ${fault.requirement}` };
    const checks = run.rows.filter((r) => r.project === projectOf.get(fault.name) && r.checkId.startsWith(`${fault.service}/`));
    const failing = checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error');
    const o: FaultOutcome = {
      fault,
      files,
      caughtBy: checks.filter((c) => c.verdict === 'fail' && c.failedRequirements.includes(fault.requirement)).map((c) => c.checkId),
      failing: failing.map((c) => c.checkId),
      runFailed: failing.length > 0,
      ms: run.ms,
      ...(checks.length ? {} : { problem: `its project reported no checks: ${run.output.slice(-1500)}` }),
    };
    options.onProgress?.(o);
    return o;
  });
  report.rows = run.rows;
  report.caught = report.faults.filter((f) => f.caughtBy.length > 0 && f.runFailed).length;
  report.ms = Date.now() - started;
  return report;
}
