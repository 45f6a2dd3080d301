/**
 * The run's teardown, which the global setup returns (run/vitest/global-setup.ts): removes what the run created, from
 * its ledger (harness/cleanup.ts), and writes the reports (report/write.ts), also when checks failed.
 *
 * - A run that ended: the reports' figures are drawn while the records are removed; first the removals under way end
 *   (so the teardown counts them and does not ask again), then the rest go; the reports are written once.
 * - An interrupted run has seconds before the command ends it (run/cli/conformance.mjs, WIND_DOWN_MS): its report is
 *   written first, marked INTERRUPTED, before any removal; each service is probed before its records are removed, and
 *   one that does not answer within PROBE_MS is taken as gone: its records are listed, none is asked for (the others'
 *   removals go on as after any run: a deployment that answers gets its records removed, however busy); then the
 *   reports are written again with what the removals did. So a deployment that went away mid-run costs seconds, not
 *   every request's timeout, and the run still leaves its report and the list of what stays on the deployment (exit
 *   code 4).
 *   A deployment that dies during the removals is left to the command, which ends the run and probes again.
 */
import type { CleanupResult } from '../../harness/cleanup.js';
import type { ServiceTarget } from '../../harness/config.js';
import type { ClientOptions } from '../../harness/client.js';
import { pacingFigures } from '../../harness/pacing.js';
import type { Profile } from '../../harness/profile.js';
import type { RunContext } from '../../harness/run.js';
import type { ServiceName } from '../../specs/common/model.js';
import { serviceNames } from '../../specs/services.js';
import { checkRan } from '../../report/outcome.js';
import type { Interruption, RunDescription } from '../../report/summary.js';
import type * as CleanupModule from '../../harness/cleanup.js';
import type * as ConsoleSummaryModule from '../../report/console-summary.js';
import type * as SummaryModule from '../../report/summary.js';
import type * as WriteModule from '../../report/write.js';
import type { Drawn } from '../../report/write.js';
import type { EarlyRemoval } from './early-removal.js';

/** After an interrupt, the longest the teardown waits for the early removals under way to end, ms. */
export const EARLY_FINISH_MS = 3_000;

export interface Teardown {
  run: RunContext;
  reportDir: string;
  description: RunDescription;
  targets: Partial<Record<ServiceName, ServiceTarget | null>>;
  profile: Profile;
  removal: Pick<ClientOptions, 'timeoutMs' | 'maxInFlight'> & Partial<ClientOptions>;
  /** The run's pacing shared with the workers (harness/pacing.ts), when there is one. */
  pacing?: SharedArrayBuffer;
  tokenCells?: ClientOptions['tokenCells'];
  /** The removal of ended files' records while the run went on, if it started (run/vitest/early-removal.ts). */
  early?: Promise<EarlyRemoval | undefined>;
  /** Stops handing file ends to the early removal. */
  detach: () => void;
  /** The interrupt that stopped the run, if one came (it may come during the teardown). */
  interrupted: () => Interruption | undefined;
}

/** The modules the teardown needs, loaded once the first file has ended (global-setup.ts loadTeardownModules). */
type Modules = [
  typeof CleanupModule,
  typeof SummaryModule,
  typeof WriteModule,
  typeof ConsoleSummaryModule,
  ...unknown[],
];

export async function teardown(t: Teardown, modules: Modules): Promise<void> {
  const [{ cleanupRun, PROBE_MS }, { readResults }, { writeRunReports }, { consoleSummary }] = modules;
  const results = readResults(t.run.folder) ?? [];
  const transportNow = () => (t.pacing ? pacingFigures(t.pacing, serviceNames()) : undefined);
  const removeAll = async (bounds: { probeMs?: number; deadline?: number } = {}, earlyLimitMs?: number) => {
    try {
      await (await t.early)?.finish(earlyLimitMs);
    } catch {
      // whatever early removal left, the teardown removes
    }
    t.detach();
    return cleanupRun(t.run, t.targets, t.profile, {
      ...t.removal,
      ...(t.pacing ? { pacing: t.pacing } : {}),
      ...(t.tokenCells ? { tokenCells: t.tokenCells } : {}),
      ...bounds,
    });
  };
  const write = (cleanup: CleanupResult | undefined | Promise<CleanupResult | undefined>, figures?: Promise<Drawn>) =>
    writeRunReports(t.run.folder, t.reportDir, t.description, results, cleanup, {
      transport: Promise.resolve(cleanup).then(transportNow),
      interrupted: t.interrupted,
      ...(figures ? { figures } : {}),
    });
  const stopped = t.interrupted();
  let summary: Awaited<ReturnType<typeof write>>['summary'];
  if (!stopped) ({ summary } = await write(removeAll()));
  else {
    // The report first, marked INTERRUPTED, then the bounded removals, then the report with what they did.
    const first = await write(undefined);
    const cleanup = await removeAll({ probeMs: PROBE_MS }, EARLY_FINISH_MS);
    ({ summary } = await write(cleanup, first.figures));
  }
  // A run in which no check ran prints one line at its end instead (run/outcome.ts), unless it left records behind.
  if (summary.checks.some(checkRan) || summary.cleanup?.failures.length)
    console.log(consoleSummary(summary, t.run.folder));
}
