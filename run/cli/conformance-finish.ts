/**
 * Step 3 of `npm run conformance` (run/cli/conformance.mjs is the command, and documents it), loaded by the command
 * once the run's vitest process has ended. Light on purpose: what only an interrupted run needs (settings, profile, the
 * ledger teardown) is loaded only then.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RunContext, ledgerPath } from '../../harness/run.js';
import type { Summary } from '../../report/summary.js';
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
 * (run/outcome.ts). After an interrupt the run has wound down itself (its summary is marked interrupted: it removed
 * what it created and wrote its report); when it could not (ended hard, or it wrote no summary), what it created is
 * removed here from its ledger. A run in which no check ran leaves no run folder, unless interrupted. With `--evidence`
 * the bundle is written once the run has ended with a report; a bundle that is not (the scan refused it, no check ran,
 * the run was interrupted) is named on the console and the command exits 6 (report/outcome.ts evidenceMissingExit).
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
  if (signal && !(summary?.interrupted && !exit.hard)) {
    const { line, leftovers } = await cleanupAfterInterrupt(runId);
    console.error(`conformance: run ${runId} interrupted (${exit.reason ?? signal}); ${line}`);
    console.error(`conformance: no report: the run was ended before it wrote one${exit.hard ? ` (${exit.hard})` : ''}`);
    return leftovers ? LEFTOVERS_EXIT : signal === 'SIGTERM' ? INTERRUPTED_EXIT.SIGTERM : INTERRUPTED_EXIT.SIGINT;
  }
  if (summary?.interrupted) {
    const outcome = runOutcome(summary, plan.vitestArgs, runId);
    for (const line of outcome.lines) console.error(line);
    bundle.missing = 'the run was interrupted';
    return outcome.code;
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
 * Teardown after an interrupted run: removes, from the run's ledger, everything the run created on the configured
 * deployments (records already removed by vitest's own teardown count as gone). The embedded reference keeps nothing
 * after the run, so there is nothing to do without targets.
 * @returns one line saying what was removed
 */
async function cleanupAfterInterrupt(runId: string): Promise<{ line: string; leftovers?: boolean }> {
  const { runSettings } = await import('../run-settings.js');
  const { settings, profile, removal } = runSettings();
  if (!Object.keys(settings.configured).length) return { line: 'embedded reference: nothing to clean up' };
  if (!existsSync(ledgerPath(settings.reportDir, runId))) return { line: 'no ledger: nothing was created' };
  try {
    const [{ cleanupRun }, { resolveProfile }] = await Promise.all([
      import('../../harness/cleanup.js'),
      import('../../harness/profile.js'),
    ]);
    const targets = Object.fromEntries(
      Object.entries(settings.configured).map(([k, v]) => [k, { ...v, embedded: false }]),
    );
    const r = await cleanupRun(
      new RunContext(runId, settings.reportDir),
      targets,
      resolveProfile(profile, false),
      removal,
    );
    const failed = r.failures.length
      ? `; ${r.failures.length} records could not be removed (npm run cleanup -- --run ${runId} ` +
        `retries):\n${r.failures.map((f) => `  ${f.service} ${f.what}: ${f.reason}`).join('\n')}`
      : '';
    return {
      line:
        `cleanup from the ledger: sources ${r.sources.deleted} deleted, ${r.sources.alreadyGone} already gone; ` +
        `relationships ${r.relationships.deleted} deleted, ${r.relationships.alreadyGone} already gone${failed}`,
      leftovers: r.failures.length > 0,
    };
  } catch (e) {
    return {
      line: `cleanup from the ledger failed (${(e as Error).message}); run npm run cleanup -- --run ${runId}`,
      leftovers: true,
    };
  }
}
