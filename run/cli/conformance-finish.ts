/**
 * Step 3 of `npm run conformance` (run/cli/conformance.mjs is the command, and documents it), loaded by the command
 * once the run's vitest process has ended. Light on purpose: what only an interrupted run needs (settings, profile, the
 * ledger teardown) is loaded only then.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RunContext, ledgerPath, readLedger } from '../../harness/run.js';
import type { CleanupResult } from '../../harness/cleanup.js';
import type { Interruption, RunDescription, Summary } from '../../report/summary.js';
import { INTERRUPTED_EXIT, evidenceMissingExit } from '../../report/outcome.js';
import { LEFTOVERS_EXIT, runOutcome } from '../outcome.js';
import { removeRunTrace } from '../run-folder.js';
import type { RunPlan } from './conformance-prepare.js';

/** How the run's vitest process ended, and the interrupt the command passed on to it, if any. */
export interface RunExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The signal the command received (or SIGTERM when its parent ended). */
  interrupted?: NodeJS.Signals;
  /** What sent it, in words. */
  reason?: string;
  /** Why the command ended the vitest process hard instead of letting it wind down, when it did. */
  hard?: string;
}

/**
 * The command's exit code from the run's summary.json, with the lines that say why when the gate alone does not
 * (run/outcome.ts). After an interrupt the run has wound down itself (its summary is marked interrupted: it wrote its
 * report, removed what it created and wrote the report again); when it could not (ended hard before its removals
 * ended, or it wrote no summary), what it created is removed here from its ledger, bounded, and a report the run wrote
 * first is written again with what that removed. A run in which no check ran leaves no run folder, unless interrupted.
 * With `--evidence` the bundle is written once the run has ended with a report; a bundle that is not (the scan refused
 * it, no check ran, the run was interrupted) is named on the console and the command exits 6 (report/outcome.ts
 * evidenceMissingExit).
 * @returns the command's exit code: 130 / 143 after an interrupt (4 if records stay behind)
 */
export async function finish(plan: RunPlan, exit: RunExit): Promise<number> {
  const bundle: Bundle = { missing: 'the run ended before it wrote a report' };
  const code = await finishRun(plan, exit, bundle);
  return plan.evidence && bundle.missing ? noEvidence(plan.evidence.dir, bundle.missing, code) : code;
}

/** Why the evidence bundle asked for is missing (undefined: written). */
interface Bundle {
  missing: string | undefined;
}

/** The run's exit code; the evidence bundle is written when asked for and the run ended with a report. */
async function finishRun(plan: RunPlan, exit: RunExit, bundle: Bundle): Promise<number> {
  const { runId } = plan;
  const summary = existsSync(plan.summaryFile)
    ? (JSON.parse(readFileSync(plan.summaryFile, 'utf8')) as Summary)
    : undefined;
  const signal = exit.interrupted ?? exit.signal ?? undefined;
  // The run wound down itself when its summary holds what its removals did.
  if (signal && !summary?.cleanup) {
    bundle.missing = 'the run was interrupted';
    return afterHardEnd(plan, exit, signal, summary);
  }
  if (summary?.interrupted) {
    bundle.missing = 'the run was interrupted';
    return interruptedOutcome(plan, summary);
  }
  if (!summary) {
    console.error(`conformance: the run ended (exit ${exit.code}) without writing ${plan.summaryFile}`);
    // A run that judged nothing and created nothing on the deployment leaves no folder behind; a ledger (for npm run
    // cleanup) or collected results stay.
    const ledger = ledgerPath(plan.before.reportDir, runId);
    const judged = existsSync(join(dirname(plan.summaryFile), 'results.json'));
    if (!judged && (!existsSync(ledger) || !readFileSync(ledger, 'utf8').trim())) removeRunTrace(plan.before);
    return exit.code && exit.code !== 0 ? exit.code : 1;
  }
  const outcome = runOutcome(summary, plan.vitestArgs, runId);
  for (const line of outcome.lines) console.error(line);
  // A run in which no check ran wrote no report (report/write.ts) and leaves no run folder behind.
  if (outcome.nothingRan) {
    removeRunTrace(plan.before);
    bundle.missing = 'no check ran';
  } else if (plan.evidence) return writeEvidence(plan, outcome.code, bundle);
  return outcome.code;
}

/**
 * The line that says the evidence bundle asked for is missing, and the command's exit code: 6, unless records were left
 * behind (4) or the run was interrupted (130 / 143).
 */
function noEvidence(dir: string, why: string, code: number): number {
  const exitCode = evidenceMissingExit(code);
  console.error(
    `conformance: NO EVIDENCE BUNDLE: ${dir} was not written (${why}); exit code ${exitCode}${exitCode !== code ? ` (the run's own: ${code})` : ''}`,
  );
  return exitCode;
}

/** Writes the evidence bundle asked for (run/evidence.ts), loaded only then. @returns the command's exit code */
async function writeEvidence(plan: RunPlan, code: number, bundle: Bundle): Promise<number> {
  const [{ writeRunEvidence }, { runSettings }] = await Promise.all([
    import('../evidence.js'),
    import('../run-settings.js'),
  ]);
  // The run's settings are those the vitest process had: the environment with the plan's hand-offs (run ID, seed,
  // exchanges kept).
  Object.assign(process.env, plan.set);
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of plan.unset) if (!(name in plan.set)) delete env[name];
  const written = await writeRunEvidence(plan.evidence!, dirname(plan.summaryFile), runSettings().settings, env, code);
  bundle.missing = written.missing;
  return written.code;
}

/**
 * After a hard end, the longest the command's own removals from the ledger may take, ms (a probe of each service first:
 * a service that does not answer it is not asked for anything).
 */
export const LEDGER_REMOVAL_MS = 30_000;

/**
 * Teardown after an interrupted run the command had to end (or one that wrote no summary): removes, from the run's
 * ledger, everything the run created on the configured deployments (records the run's own teardown removed count as
 * removed before), bounded: a service that does not answer its probe is taken as gone and its records are listed, and
 * the rest end by LEDGER_REMOVAL_MS. The embedded reference keeps nothing after the run, so there is nothing to do
 * without targets.
 * @returns one line saying what was removed, and the removals' result when there were any
 */
async function cleanupAfterInterrupt(
  runId: string,
): Promise<{ line: string; result?: CleanupResult; failed?: boolean }> {
  const { runSettings } = await import('../run-settings.js');
  const { settings, profile, removal } = runSettings();
  if (!Object.keys(settings.configured).length)
    return { line: 'embedded reference: nothing left (it ended with the run)' };
  if (!existsSync(ledgerPath(settings.reportDir, runId))) return { line: 'no ledger: nothing was created' };
  try {
    const [{ cleanupRun, PROBE_MS, removalText }, { resolveProfile }] = await Promise.all([
      import('../../harness/cleanup.js'),
      import('../../harness/profile.js'),
    ]);
    const targets = Object.fromEntries(
      Object.entries(settings.configured).map(([k, v]) => [k, { ...v, embedded: false }]),
    );
    const result = await cleanupRun(
      new RunContext(runId, settings.reportDir),
      targets,
      resolveProfile(profile, false),
      {
        ...removal,
        probeMs: PROBE_MS,
        deadline: Date.now() + LEDGER_REMOVAL_MS,
      },
    );
    return { line: `cleanup from the ledger: ${removalText(result)}`, result };
  } catch (e) {
    return {
      line: `cleanup from the ledger failed (${(e as Error).message}); run npm run cleanup -- --run ${runId}`,
      failed: true,
    };
  }
}

/**
 * An interrupted run the command had to end before its teardown had removed what it created (or that wrote no
 * summary): the removals from the ledger (cleanupAfterInterrupt), then, when the run had written its report first
 * (run/vitest/teardown.ts), that report again with what they did, and the run's outcome from it.
 * @returns the command's exit code: 4 when records stay behind, else 130 / 143
 */
async function afterHardEnd(plan: RunPlan, exit: RunExit, signal: NodeJS.Signals, summary: Summary | undefined) {
  const { runId } = plan;
  const { line, result, failed } = await cleanupAfterInterrupt(runId);
  const interruptedExit = signal === 'SIGTERM' ? INTERRUPTED_EXIT.SIGTERM : INTERRUPTED_EXIT.SIGINT;
  const reason = exit.reason ?? signal;
  if (!summary?.interrupted) {
    const left = failed || Boolean(result?.failures.length);
    // Ended before any check did and before it created anything (run/vitest/global-setup.ts): one line, no run folder.
    if (!left && !existsSync(join(dirname(plan.summaryFile), 'results.json')) && (await nothingLeft(plan))) {
      removeRunTrace(plan.before);
      console.error(
        `conformance: run ${runId} interrupted (${reason}) before any check ended; nothing was created on the ` +
          'deployment; no report written',
      );
      return interruptedExit;
    }
    console.error(`conformance: run ${runId} interrupted (${reason}); ${line}`);
    // Checks had ended before the command ended the run (a busy machine, a slow wind-down): their report, marked
    // INTERRUPTED, is written here from the results they left.
    const interrupted: Interruption = {
      signal: signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT',
      reason,
      at: new Date().toISOString(),
    };
    const written = await writeReports(plan, interrupted, result);
    if (written) {
      const code = interruptedOutcome(plan, written);
      return failed ? LEFTOVERS_EXIT : code;
    }
    console.error(`conformance: no report: the run was ended before it wrote one${exit.hard ? ` (${exit.hard})` : ''}`);
    return left ? LEFTOVERS_EXIT : interruptedExit;
  }
  console.error(`conformance: run ${runId} interrupted (${reason}); ${line}`);
  const again = result ? await writeReports(plan, summary.interrupted, result, summary.transport) : undefined;
  const code = interruptedOutcome(plan, again ?? summary);
  return failed ? LEFTOVERS_EXIT : code;
}

/**
 * The lines and exit code of an interrupted run from its summary (run/outcome.ts runOutcome), and where its report is;
 * one that ended before any check did leaves no run folder (it created nothing, or removed all of it).
 */
function interruptedOutcome(plan: RunPlan, summary: Summary): number {
  const outcome = runOutcome(summary, plan.vitestArgs, plan.runId);
  for (const l of outcome.lines) console.error(l);
  if (outcome.nothingRan && outcome.code !== LEFTOVERS_EXIT) removeRunTrace(plan.before);
  const html = join(dirname(plan.summaryFile), 'report.html');
  if (!outcome.nothingRan && existsSync(html)) console.error(`conformance: its report, marked INTERRUPTED: ${html}`);
  return outcome.code;
}

/** True when the run's ledger lists nothing it created that is not marked removed (or there is no ledger). */
async function nothingLeft(plan: RunPlan): Promise<boolean> {
  const { removable, removalKey, removedOutcomes } = await import('../../harness/cleanup.js');
  const entries = readLedger(ledgerPath(plan.before.reportDir, plan.runId));
  const removed = removedOutcomes(entries);
  return removable(entries).every((e) => removed.has(removalKey(e)));
}

/**
 * The run's reports, marked INTERRUPTED, from the results its checks left, with the removals' result: written again
 * when the run wrote them first, before its removals, or for the first time when the command ended it before it could.
 * @returns the summary, or undefined when the run folder holds no run description or no result
 */
async function writeReports(
  plan: RunPlan,
  interrupted: Interruption,
  cleanup: CleanupResult | undefined,
  transport?: Summary['transport'],
): Promise<Summary | undefined> {
  const folder = dirname(plan.summaryFile);
  if (!existsSync(join(folder, 'run.json')) || !existsSync(join(folder, 'results.json'))) return undefined;
  const [{ writeRunReports }, { readResults }] = await Promise.all([
    import('../../report/write.js'),
    import('../../report/summary.js'),
  ]);
  const description = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')) as RunDescription;
  // The known-failures list and the other settings are those the vitest process had.
  Object.assign(process.env, plan.set);
  const written = await writeRunReports(
    folder,
    plan.before.reportDir,
    description,
    readResults(folder) ?? [],
    cleanup,
    { interrupted: () => interrupted, ...(transport ? { transport } : {}) },
  );
  return written.summary;
}
