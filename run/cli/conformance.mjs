/**
 * `npm run conformance -- [options] [vitest filters and options]`: validates the settings (one
 * message and exit code 2 on a bad one, before any request), states the run's target, fixes the
 * run id and seed, runs the suite with vitest (filters such as a folder or `-t merge` pass
 * through; everything after `--` goes to vitest unread), and exits from the run's outcome
 * (run/outcome.ts):
 *   0 every MUST requirement checked held (failures of EXPECT requirements, known failures and
 *     pending checks listed in CONFORMANCE_KNOWN_FAILURES are reported but do not gate);
 *   1 conformance failures (a MUST requirement failed, a check errored other than could not
 *     judge), or no check ran;
 *   2 bad settings or arguments; 3 preflight failed (deployment unreachable or credentials rejected);
 *   4 the teardown left records of the run on the deployment (listed; npm run cleanup removes them);
 *   5 INCOMPLETE: nothing failed, but checks could not judge (the deployment did not answer them
 *     within the retry budget, CONFORMANCE_RETRY_BUDGET_MS);
 *   130 / 143 interrupted by SIGINT / SIGTERM (the ledger teardown runs first: test/interrupt-teardown.test.ts).
 * With `--shard=i/n` the run id gets the suffix `-s<i>of<n>` (its own namespace and report
 * folder) and a vitest blob report is written for `npm run report:merge`.
 *
 * Three steps, so that the process that waits for the whole run holds neither a TypeScript loader
 * nor the suite's modules (about 45 MB instead of 120: docs/performance.md, item 28):
 *   1. run/cli/conformance-prepare.ts, in a process of its own: arguments, settings, preflight;
 *      it hands over the run's plan (vitest's arguments and environment) on file descriptor 3;
 *   2. the vitest process, with that plan;
 *   3. run/cli/conformance-finish.ts, loaded here once vitest has ended: the exit code, and the
 *      ledger teardown after an interrupt.
 * Plain JavaScript for that reason; tsx's loader is registered only for step 3.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The signal passed on to the running step, if any; a second one ends the step hard. */
let interrupted;
/** The step running now (step 1 or the vitest process). */
let step;

/** SIGINT / SIGTERM: passed to the running step (vitest's global teardown cleans up); a second signal, or the step still running 15 s later, ends it hard. */
const passOn = (signal) => () => {
  if (interrupted) return void step?.kill('SIGKILL');
  interrupted = signal;
  step?.kill(signal);
  setTimeout(() => step?.kill('SIGKILL'), 15000).unref();
};
process.on('SIGINT', passOn('SIGINT'));
process.on('SIGTERM', passOn('SIGTERM'));

/** Starts a child process and resolves with how it ended, once `until` ('exit', or 'close': its output read too). */
function run(args, options, until = 'exit') {
  step = spawn(process.execPath, args, options);
  return new Promise((resolve) => step.once(until, (code, signal) => resolve({ code, signal })));
}

/** Step 1: the plan, or the exit code that ends the command (help, bad settings, failed preflight, interrupt). */
async function prepare() {
  let plan = '';
  const script = fileURLToPath(new URL('./conformance-prepare.ts', import.meta.url));
  const ended = run(['--import', 'tsx', script, ...process.argv.slice(2)], { stdio: ['inherit', 'inherit', 'inherit', 'pipe'] }, 'close');
  step.stdio[3].setEncoding('utf8').on('data', (d) => (plan += d));
  const { code, signal } = await ended;
  if (interrupted || signal) return interrupted === 'SIGTERM' || signal === 'SIGTERM' ? 143 : 130;
  if (code !== 0 || !plan) return code ?? 1;
  return JSON.parse(plan);
}

const plan = await prepare();
if (typeof plan === 'number') process.exit(plan);

const env = { ...process.env, ...plan.set };
for (const name of plan.unset) if (!(name in plan.set)) delete env[name];
const exit = await run(plan.nodeArgs, { stdio: 'inherit', env });
step = undefined;

const { tsImport } = await import('tsx/esm/api');
const { finish } = await tsImport('./conformance-finish.ts', import.meta.url);
process.exit(await finish(plan, { ...exit, ...(interrupted ? { interrupted } : {}) }));
