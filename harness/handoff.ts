/**
 * Every value the suite's processes hand to each other in the environment, declared once: its variable, its type, the
 * files that set it (setBy) and read it (readBy), with a typed reader and writer. test/handoffs.test.ts holds the code
 * to this list. A user's settings are parsed by their owners (harness/config.ts, reference/settings.ts); one a command
 * fixes and hands on to its child (the run ID, the seed) is declared here too, `handedOn`, and its owner still parses
 * it.
 *
 * Imports nothing: vitest.config.ts imports it, and vitest hashes everything its configuration imports for every module
 * of a run (test/vitest-plan.test.ts).
 */

/** An environment: process.env, or one a child process is started with. */
export type Env = Record<string, string | undefined>;

/** One variable handed between processes. */
export interface Handoff<T> {
  name: string;
  /** Files that set it ([] for a knob set by hand and passed through). */
  setBy: string[];
  readBy: string[];
  /** A user setting a command hands on (its owner parses it), rather than an internal variable. */
  handedOn: boolean;
  /** Its value in `env` (process.env by default); undefined when unset or empty. */
  read(env?: Env): T | undefined;
  /** Its value in `env`. @throws Error naming the variable and its setters when unset */
  need(env?: Env): T;
  write(env: Env, value: T): void;
  /** `{ name: value }`, to spread into a child's environment. */
  entry(value: T): Record<string, string>;
}

/** What vitest.config.ts needs of a conformance run (run/run-settings.ts vitestPlan builds it). */
export interface VitestPlan {
  /** The run ID (report folder name, native-ID namespace). */
  runId: string;
  /** Where run folders go. */
  reportDir: string;
  /** Where Allure requirement links point, `%s` = requirement ID. */
  requirementUrl: string;
  /** Timeout of one request, ms: a check's time limit follows from it. */
  timeoutMs: number;
  /** Scenario files run side by side (harness/config.ts filesAtOnceFor, with the preflight's round trip). */
  filesAtOnce: number;
  /**
   * Isolation group of each configured service (run/vitest-plan.ts); a service not named is a group of its own.
   */
  isolationGroups: Record<string, string>;
}

type Places = Pick<Handoff<unknown>, 'setBy' | 'readBy'> & { handedOn?: true };

function variable<T>(
  name: string,
  at: Places,
  parse: (text: string) => T,
  format: (value: T) => string = String,
): Handoff<T> {
  const read = (env: Env = process.env) => (env[name] ? parse(env[name]) : undefined);
  return {
    name,
    setBy: at.setBy,
    readBy: at.readBy,
    handedOn: at.handedOn ?? false,
    read,
    need(env) {
      const value = read(env);
      if (value === undefined) throw new Error(`${name}: not set (${at.setBy.join(', ') || 'nothing'} sets it)`);
      return value;
    },
    write: (env, value) => void (env[name] = format(value)),
    entry: (value) => ({ [name]: format(value) }),
  };
}

const text = (name: string, at: Places) => variable(name, at, (t) => t);
/** A number; what is no number, or 0, reads as unset (the readers' defaults apply). */
const count = (name: string, at: Places) => variable(name, at, (t) => Number(t) || undefined);
/** On when `1`. */
const flag = (name: string, at: Places) =>
  variable<boolean>(
    name,
    at,
    (t) => t === '1',
    (on) => (on ? '1' : ''),
  );

const isPlan = (p: Partial<VitestPlan> | null): p is VitestPlan =>
  typeof p === 'object' &&
  p !== null &&
  typeof p.runId === 'string' &&
  typeof p.reportDir === 'string' &&
  typeof p.requirementUrl === 'string' &&
  Number.isFinite(p.timeoutMs) &&
  Number.isInteger(p.filesAtOnce) &&
  (p.filesAtOnce ?? 0) >= 1 &&
  typeof p.isolationGroups === 'object' &&
  p.isolationGroups !== null &&
  Object.values(p.isolationGroups).every((g) => typeof g === 'string');

/** @throws Error naming the variable when `text` is not a plan (only the command sets it) */
function parsePlan(text: string): VitestPlan {
  let parsed: Partial<VitestPlan> | null = null;
  try {
    parsed = JSON.parse(text);
  } catch {}
  if (!isPlan(parsed))
    throw new Error(
      `${HANDOFF.vitestPlan.name}: not a plan of npm run conformance (it sets this variable itself; unset it)`,
    );
  return parsed;
}

const PREPARE = 'run/cli/conformance-prepare.ts';
const CONFIG = 'harness/config.ts';

export const HANDOFF = {
  /**
   * The run folder the conformance reporter writes results.json into, in the same vitest process or the merge step's.
   */
  runFolder: text('CONFORMANCE_ACTIVE_RUN_FOLDER', {
    setBy: ['run/vitest/global-setup.ts', 'report/merge.ts'],
    readBy: ['report/reporter.ts'],
  }),
  /** The run's plan for vitest.config.ts, so that it imports no settings module. */
  vitestPlan: variable(
    'CONFORMANCE_VITEST_PLAN',
    { setBy: [PREPARE], readBy: ['vitest.config.ts'] },
    parsePlan,
    JSON.stringify,
  ),
  /**
   * File descriptor of the stop pipe of the run's vitest process: in the plan from run/interrupt.ts stopPipe, set by
   * the command.
   */
  stopFd: count('CONFORMANCE_STOP_FD', {
    setBy: ['run/interrupt.ts', 'run/cli/conformance.mjs'],
    readBy: ['run/interrupt.ts'],
  }),
  /** The shard of a sharded run, `i/n` (--shard): its blob report and run.json. */
  shard: text('CONFORMANCE_SHARD', {
    setBy: [PREPARE],
    readBy: ['run/vitest/reporters.ts', 'run/vitest/global-setup.ts'],
  }),
  /** On in the merge step's vitest process, which replays the shards through the conformance reporter only. */
  merge: flag('CONFORMANCE_MERGE', { setBy: ['report/merge.ts'], readBy: ['run/vitest/reporters.ts'] }),
  /** The run ID a command fixed, so its child names the same run. */
  runId: text('CONFORMANCE_RUN_ID', {
    setBy: [PREPARE, 'run/run-settings.ts', 'report/merge.ts'],
    readBy: ['run/run-settings.ts', CONFIG],
    handedOn: true,
  }),
  /** The seed the command drew, so the vitest process generates the same data. */
  seed: variable('CONFORMANCE_SEED', { setBy: [PREPARE], readBy: [CONFIG], handedOn: true }, Number),
  /** --verbose, for the command's own settings and its vitest process's. */
  verbose: flag('CONFORMANCE_VERBOSE', { setBy: [PREPARE], readBy: [CONFIG], handedOn: true }),
  /** `all` with --evidence unless the user chose: a bundle keeps every exchange. */
  exchanges: text('CONFORMANCE_EXCHANGES', { setBy: [PREPARE], readBy: [CONFIG], handedOn: true }),
  /** The folder of a detection run's vitest process: plan.json in, results.json out. */
  detectionDir: text('DETECTION_DIR', {
    setBy: ['detection/runner.ts'],
    readBy: ['detection/vitest.config.ts', 'detection/setup.ts', 'detection/reporter.ts'],
  }),
  /** Test workers of a detection run's vitest process. */
  detectionWorkers: count('DETECTION_WORKERS', {
    setBy: ['detection/runner.ts'],
    readBy: ['detection/vitest.config.ts'],
  }),
  /** `1`: detection projects isolate their files (a knob for measurements). */
  detectionIsolate: flag('DETECTION_ISOLATE', { setBy: [], readBy: ['detection/vitest.config.ts'] }),
  /** Most checks of one file at once in a detection project (a knob for measurements). */
  detectionChecksPerFile: count('DETECTION_CHECKS_PER_FILE', { setBy: [], readBy: ['detection/vitest.config.ts'] }),
};

/** Every hand-off. */
export const HANDOFFS: Handoff<unknown>[] = Object.values(HANDOFF);
