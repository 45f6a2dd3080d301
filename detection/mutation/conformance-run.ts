/**
 * One `npm run conformance` in a mutation sandbox (detection/mutation/sandbox.ts), as a user runs
 * it against the embedded reference: the scenario folders of the services asked for, the run's
 * seed fixed, vitest's `--bail 1` (the run stops at its first failing check), and the mutant to
 * switch on in `__STRYKER_ACTIVE_MUTANT__`, which the instrumented reference reads in the process
 * that hosts it (the vitest process, through the command's environment). The user's own settings
 * are left out: the run is of the embedded reference only.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pidtree from 'pidtree';
import type { ServiceName } from '../../specs/common/model.js';
import { withoutSettings } from '../../harness/setting-names.js';

/** The variable Stryker's instrumented code reads the active mutant from. */
export const ACTIVE_MUTANT_VARIABLE = '__STRYKER_ACTIVE_MUTANT__';

export interface RunRequest {
  sandbox: string;
  services: readonly ServiceName[];
  /** Seed of the run's generated data (CONFORMANCE_SEED). */
  seed: number;
  /** Stryker's switch number of the mutant to switch on; none: the reference as it is. */
  activeMutant?: string;
  /** Stop the run at its first failing check (vitest --bail 1). */
  bail: boolean;
  /** Record the mutants the run reaches (detection/mutation/coverage-dump.mjs). */
  coverage?: boolean;
  /** The run is ended (every process of it killed) after this long, ms. */
  timeLimitMs: number;
  /** A name for the run's ID (up to 30 letters, digits and dashes). */
  label: string;
}

/** What the run's summary.json says, in short. */
export interface RunSummary {
  verdict: string;
  /** Gating failures: check IDs. */
  gating: string[];
  /** Failing checks citing only EXPECT requirements (reported, not gating). */
  expectOnly: string[];
  /** Checks that could not judge. */
  incomplete: string[];
  /** Requirements the failing checks failed. */
  failedRequirements: string[];
  /** Checks skipped (vitest's bail skips the checks left). */
  skipped: number;
}

export interface RunResult {
  /** The command's exit code; null when it was ended at its time limit. */
  code: number | null;
  timedOut: boolean;
  ms: number;
  /** The summary, when the run wrote one. */
  summary?: RunSummary;
  /** Its output (stdout and stderr, the last 20,000 characters): a crash's message. */
  output: string;
}

const COVERAGE_DUMP = pathToFileURL(join(import.meta.dirname, 'coverage-dump.mjs')).href;

/** The command's environment: ours less the suite's and the reference's settings, plus the run's. */
function runEnv(req: RunRequest, runId: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = withoutSettings(process.env, [], [ACTIVE_MUTANT_VARIABLE]);
  Object.assign(env, {
    CONFORMANCE_TARGET: 'embedded',
    CONFORMANCE_SEED: String(req.seed),
    CONFORMANCE_RUN_ID: runId,
    CONFORMANCE_EXCHANGES: 'none',
    FORCE_COLOR: '0',
  });
  if (req.activeMutant !== undefined) env[ACTIVE_MUTANT_VARIABLE] = req.activeMutant;
  if (req.coverage) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import ${COVERAGE_DUMP}`.trim();
  return env;
}

function readSummary(file: string): RunSummary | undefined {
  let s: any;
  try {
    s = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const failing = (s.checks ?? []).filter((c: any) => c.verdict === 'fail' || c.verdict === 'error');
  return {
    verdict: s.gate?.verdict ?? s.overall,
    gating: s.gate?.gating ?? [],
    expectOnly: s.gate?.expectOnly ?? [],
    incomplete: s.gate?.incomplete ?? [],
    failedRequirements: [...new Set<string>(failing.flatMap((c: any) => c.failedRequirements ?? []))].sort(),
    skipped: s.totals?.skip ?? 0,
  };
}

/** Kills the process and every process under it. */
async function killTree(pid: number): Promise<void> {
  let pids: number[] = [];
  try {
    pids = await pidtree(pid, { root: true });
  } catch {
    pids = [pid];
  }
  for (const p of pids.reverse())
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
}

/** The processes of runs under way, ended when the measure is interrupted. */
export const RUNNING = new Set<number>();

/** Runs the conformance command once; resolves when it has ended (or was ended at its time limit). */
export function runConformance(req: RunRequest): Promise<RunResult> {
  const runId = `mut-${req.label}`.slice(0, 40);
  const folder = join(req.sandbox, 'reports', runId);
  rmSync(folder, { recursive: true, force: true });
  const args = [join(req.sandbox, 'run', 'cli', 'conformance.mjs'), ...req.services.map((s) => `scenarios/${s}`)];
  if (req.bail) args.push('--bail', '1');
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: req.sandbox,
    env: runEnv(req, runId),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid) RUNNING.add(child.pid);
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString('utf8')).slice(-20000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid) void killTree(child.pid);
  }, req.timeLimitMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      if (child.pid) RUNNING.delete(child.pid);
      const summary = timedOut ? undefined : readSummary(join(folder, 'summary.json'));
      rmSync(folder, { recursive: true, force: true });
      resolve({
        code: timedOut ? null : code,
        timedOut,
        ms: Date.now() - started,
        ...(summary ? { summary } : {}),
        output,
      });
    });
  });
}
