/**
 * `npm run conformance -- [options] [vitest filters and options]`: validates the settings (one message and exit code 2
 * on a bad one, before any request), states the run's target, fixes the run id and seed, runs the suite with vitest
 * (filters such as a folder or `-t merge` pass through; everything after `--` goes to vitest unread), and exits from
 * the run's outcome (run/outcome.ts):
 *   0 every MUST requirement checked held (failures of EXPECT requirements, known failures and pending checks listed in
 *     CONFORMANCE_KNOWN_FAILURES are reported but do not gate);
 *   1 conformance failures (a MUST requirement failed, a check errored other than could not judge), or no check ran;
 *   2 bad settings or arguments; 3 preflight failed (deployment unreachable or credentials rejected);
 *   4 the teardown left records of the run on the deployment (listed; npm run cleanup removes them);
 *   5 INCOMPLETE: nothing failed, but checks could not judge (the deployment did not answer them
 *     within the retry budget, CONFORMANCE_RETRY_BUDGET_MS);
 *   6 with --evidence: the evidence bundle was not written (run/cli/conformance-finish.ts says why;
 *     4, 130 and 143 win over it);
 *   130 / 143 interrupted by SIGINT / SIGTERM (to this process, to npm, to the process group) or by
 *     its parent ending: the run stops sending, removes what it created and writes its report
 *     marked INTERRUPTED (run/interrupt.ts; test/interrupt-teardown.test.ts).
 * With `--shard=i/n` the run id gets the suffix `-s<i>of<n>` (its own namespace and report folder) and a vitest blob
 * report is written for `npm run report:merge`.
 *
 * Three steps, so that the process that waits for the whole run holds neither a TypeScript loader nor the suite's
 * modules (about 45 MB instead of 120: docs/performance.md, item 28):
 *   1. run/cli/conformance-prepare.ts, in a process of its own: arguments, settings, preflight; it hands over the run's
 *      plan (vitest's arguments and environment) on file descriptor 3;
 *   2. the vitest process, with that plan;
 *   3. run/cli/conformance-finish.ts, loaded here once vitest has ended: the exit code, and the ledger teardown after
 *      an interrupt the run could not wind down itself.
 * The vitest process runs in a process group of its own, so that only this process hears a signal sent to the command's
 * group (a terminal's Ctrl-C) and the run winds down once, as told here. Plain JavaScript for that reason. Steps 1 and
 * 3 are TypeScript modules loaded compiled into one file each, kept between runs (run/cli/compiled.mjs), not through
 * tsx's loader.
 */
import { spawn } from 'node:child_process';
import { openSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Runs a TypeScript step compiled (run/cli/compiled.mjs), without tsx's loader. */
const COMPILED = fileURLToPath(new URL('./compiled.mjs', import.meta.url));

/**
 * A second signal within this time (ms) is the same interrupt: npm passes on to this process a signal that a terminal's
 * Ctrl-C also sent it directly, as one of the process group.
 */
const SAME_INTERRUPT_MS = 1000;
/**
 * How long the run has to wind down after an interrupt (ms): stop its checks, remove what it created, write its report
 * (3-7 s here on two busy cores; the first attempt, 8 s, was too short with a load of 20 on them). Then, or at a second
 * signal (a CI runner's SIGTERM after its SIGINT), the vitest process is ended hard and the removals are finished here
 * from the ledger (what the run removed already is marked there).
 */
const WIND_DOWN_MS = 20000;
/** How often the parent process is looked for (ms): a command whose parent ended (npm killed) stops its run. */
const PARENT_POLL_MS = 500;

/** The interrupt: its signal, why, when; and `hard` once the wind-down was cut short. */
let interrupted;
/**
 * The step running now: `prepare` (step 1) or `vitest` (step 2), its child process, and the vitest process's stop pipe.
 */
let step;

/**
 * The controlling terminal, opened when an interrupt's lines must reach it past a pipe: behind `| tee` (as CI logs and
 * users often run it) a terminal's Ctrl-C ends the pipe's reader too, and the user would see only `^C`. Null when
 * stderr is the terminal itself (nothing to add), or when there is none (CI, a detached job).
 */
let terminal;
function toTerminal(text) {
  if (terminal === undefined) {
    terminal = null;
    if (!process.stderr.isTTY)
      try {
        terminal = openSync('/dev/tty', 'w');
      } catch {}
  }
  if (terminal !== null)
    try {
      writeSync(terminal, text);
    } catch {}
}

/**
 * From an interrupt on, everything the command writes to stderr (its own lines and step 3's: what the run removed, what
 * is left, where its report is) goes to the terminal too.
 */
function mirrorToTerminal() {
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk, ...rest) => {
    toTerminal(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return write(chunk, ...rest);
  };
}

/** Writes a line to stderr, never failing: the reader may have gone with the parent. */
const say = (line) => {
  try {
    process.stderr.write(`${line}\n`);
  } catch {}
};
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

/**
 * Ends the vitest process at once (the run could not wind down, or a second signal came); step 3 removes the rest from
 * the ledger.
 */
function endHard(why) {
  if (!interrupted || interrupted.hard) return;
  interrupted.hard = why;
  if (step?.kind === 'vitest') {
    say(`conformance: ${why}: ending the run now; what it created is removed from its ledger`);
    step.child.kill('SIGKILL');
  }
}

/**
 * SIGINT / SIGTERM, or the parent gone: the step running is told to stop (step 1 by the signal; the vitest process
 * through its stop pipe, so that it winds down); a later second signal, or the run still going WIND_DOWN_MS later, ends
 * it hard.
 */
function interrupt(signal, reason) {
  const now = Date.now();
  if (interrupted) {
    if (now - interrupted.at >= SAME_INTERRUPT_MS) endHard(`a second signal (${signal})`);
    return;
  }
  interrupted = { signal, reason, at: now };
  mirrorToTerminal();
  if (step?.kind !== 'vitest') {
    say(
      `\nconformance: ${signal} (${reason}): stopped before the run started (settings and preflight): nothing was ` +
        'created on the deployment; no report written',
    );
    return void step?.child.kill(signal);
  }
  say(
    `\nconformance: ${signal} (${reason}): stopping the run: no further request is sent and requests under way end; ` +
      `what it created is removed and its report, marked INTERRUPTED, written (within ${WIND_DOWN_MS / 1000} s; a ` +
      'second signal ends it at once and removes the rest from its ledger)',
  );
  if (step?.kind === 'vitest') {
    step.stop?.write(`${signal} ${reason}\n`);
    setTimeout(() => endHard(`the run did not wind down within ${WIND_DOWN_MS / 1000} s`), WIND_DOWN_MS).unref();
  }
}
process.on('SIGINT', () => interrupt('SIGINT', 'SIGINT to npm run conformance'));
process.on('SIGTERM', () => interrupt('SIGTERM', 'SIGTERM to npm run conformance'));
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  interrupt('SIGTERM', 'the parent process of npm run conformance ended');
}, PARENT_POLL_MS).unref();

/**
 * Starts a step's child process and resolves with how it ended, once `until` ('exit', or 'close': its output read too).
 */
function run(kind, args, options, until = 'exit') {
  const child = spawn(process.execPath, args, options);
  step = { kind, child };
  return new Promise((resolve) => child.once(until, (code, signal) => resolve({ code, signal })));
}

/** Step 1: the plan, or the exit code that ends the command (help, bad settings, failed preflight, interrupt). */
async function prepare() {
  let plan = '';
  const script = fileURLToPath(new URL('./conformance-prepare.ts', import.meta.url));
  const ended = run(
    'prepare',
    [COMPILED, script, ...process.argv.slice(2)],
    { stdio: ['inherit', 'inherit', 'inherit', 'pipe'] },
    'close',
  );
  step.child.stdio[3].setEncoding('utf8').on('data', (d) => (plan += d));
  const { code, signal } = await ended;
  if (interrupted || signal) return (interrupted?.signal ?? signal) === 'SIGTERM' ? 143 : 130;
  if (code !== 0 || !plan) return code ?? 1;
  return JSON.parse(plan);
}

const plan = await prepare();
if (typeof plan === 'number') process.exit(plan);

// The stop pipe (run/interrupt.ts): its file descriptor, and the variable naming it (HANDOFF.stopFd), come with the
// plan.
const env = { ...process.env, ...plan.set, ...plan.stopPipe.env };
for (const name of plan.unset) if (!(name in plan.set)) delete env[name];
const stdio = ['inherit', 'inherit', 'inherit'];
stdio[plan.stopPipe.fd] = 'pipe';
const ended = run('vitest', plan.nodeArgs, { stdio, env, detached: true });
step.stop = step.child.stdio[plan.stopPipe.fd];
// A vitest process already gone cannot be told anything.
step.stop.on('error', () => {});
// An interrupt that came between the steps is passed on now.
if (interrupted) step.stop.write(`${interrupted.signal} ${interrupted.reason}\n`);
const exit = await ended;
step = undefined;

const { importCompiled } = await import('./compiled.mjs');
const { finish } = await importCompiled(fileURLToPath(new URL('./conformance-finish.ts', import.meta.url)));
process.exit(
  await finish(plan, {
    ...exit,
    ...(interrupted ? { interrupted: interrupted.signal, reason: interrupted.reason, hard: interrupted.hard } : {}),
  }),
);
