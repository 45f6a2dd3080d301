/**
 * Global setup of a conformance run: validates settings, opens the run (id, report folder, ledger), starts the embedded
 * reference when no service URL is configured, and hands the targets to the test workers. While the run goes on, the
 * records of each file whose checks have ended are removed (run/vitest/early-removal.ts); the returned teardown
 * (run/vitest/teardown.ts) hard-deletes everything else the run created (ledger) and writes the reports, also when
 * checks failed.
 */
import { oauthShown } from '../../harness/oauth.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { serviceNames } from '../../specs/services.js';
import { type Deployments, openDeployments } from '../deployments.js';
import type { EarlyRemoval, EarlyRemovalOptions } from './early-removal.js';
import type { Settings } from '../../harness/config.js';
import type { Profile } from '../../harness/profile.js';
import { HANDOFF } from '../../harness/handoff.js';
import { resolveBudgets } from '../../harness/config.js';
import { RunContext } from '../../harness/run.js';
import { runSettings } from '../run-settings.js';
import type { Interruption, RunDescription } from '../../report/summary.js';
import { targetStatement } from '../../report/target.js';
import { newRedactionKey } from '../../harness/redact-foreign.js';
import { sharedTokenCell } from '../../harness/oauth.js';
import type { RunInfo } from '../../harness/targets.js';
import { sharedCounters } from '../../harness/shared-limit.js';
import { sharedPacing } from '../../harness/pacing.js';
import { afterFirstFileEnds, anyCheckEnded, detachFileListener } from './file-events.js';
import { INTERRUPTED_EXIT } from '../../report/outcome.js';
import { onStopRequest } from '../interrupt.js';
import { teardown } from './teardown.js';
import { guardStackTraces } from './stack-guard.js';

export default async function setup(project: TestProject) {
  guardStackTraces();
  // An interrupt (run/interrupt.ts): vitest cancels the run, then the teardown below removes what the run created and
  // writes the reports marked INTERRUPTED.
  const state: StopState = {};
  const stopListening = listenForStop(project, state);
  const plan = runSettings();
  const { settings, embedded } = plan;
  const runId = plan.runId();
  const profile = plan.resolvedProfile();
  const run = new RunContext(runId, settings.reportDir);
  state.opened = run;
  // The conformance reporter runs in this process and writes into the run's folder.
  HANDOFF.runFolder.write(process.env, run.folder);

  const deployments = await openDeployments(settings, profile);
  const { targets } = deployments;

  const { workers, shareable } = workerPool(project, settings.maxInFlight);
  const tokenCells = tokenCellsFor(targets);
  const info = runInfoOf({ runId, settings, embedded, targets, profile, workers, shareable, tokenCells });
  const description = describeRun(runId, settings.seed, embedded, deployments, profile);
  writeFileSync(join(run.folder, 'run.json'), JSON.stringify(description, null, 2));
  printOpening(description, settings.verbose);
  project.provide('conformance', info);
  // The side-by-side runner starts files of services with room in their bound before those of a service whose requests
  // already wait for a place (run/vitest/side-by-side-runner.mjs).
  if (info.inFlightCounters)
    project.provide('serviceLoad', {
      services: serviceNames(),
      counters: info.inFlightCounters,
      bound: info.maxInFlightPerWorker,
    });
  // A file's records are removed once its checks have ended (run/vitest/early-removal.ts); loaded in the background,
  // the file ends before it are kept until it attaches (run/vitest/file-events.ts). Only where its requests count in the bound
  // and the pacing the workers share (its requests then pause with theirs, and take their share of the rate): otherwise
  // the teardown removes everything.
  const { inFlightCounters: counters, pacing } = info;
  state.early =
    counters && pacing
      ? startEarlyRemoval(project.name, run, deployments, profile, {
          ...plan.removal,
          counters,
          pacing,
          ...(tokenCells ? { tokenCells } : {}),
        })
      : undefined;

  // What only the teardown needs (the removals, and the reports with Vega and Graphviz) is not loaded before the first
  // check, but once the first file has ended: the main process mostly waits on the checks then, and the wind-down is
  // shorter by the loading time (docs/performance.md, item 27).
  let teardownModules: ReturnType<typeof loadTeardownModules> | undefined;
  afterFirstFileEnds(project.name, () => void (teardownModules ??= loadTeardownModules()).catch(() => undefined));

  return async () => {
    guardStackTraces();
    try {
      await teardown(
        {
          run,
          reportDir: settings.reportDir,
          description,
          targets,
          profile,
          removal: plan.removal,
          ...(pacing ? { pacing } : {}),
          ...(tokenCells ? { tokenCells } : {}),
          ...(state.early ? { early: state.early } : {}),
          detach: () => detachFileListener(project.name),
          interrupted: () => state.interrupted,
        },
        await (teardownModules ??= loadTeardownModules()),
      );
    } finally {
      stopListening();
      await deployments.stop();
    }
  };
}

/** What an interrupt needs to know of the run: when it came, the early removal, the run once opened. */
interface StopState {
  interrupted?: Interruption;
  early?: Promise<EarlyRemoval | undefined>;
  opened?: RunContext;
}

/**
 * On an interrupt (run/interrupt.ts) vitest cancels the run: the checks' signals abort (nothing more is sent, requests
 * under way end, checks not started are skipped). Returns the function that stops listening.
 */
function listenForStop(project: TestProject, state: StopState): () => void {
  return onStopRequest((request) => {
    state.interrupted = { ...request, at: new Date().toISOString() };
    // The reader of the run's output may have gone with the command: a failed write must not end the teardown.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
    // Before any check has ended and before the run created anything (its ledger is written before a creating
    // request leaves), there is nothing to remove and nothing to report: the run ends at once instead of waiting for
    // the scenario files still loading. The command says so and removes the run folder
    // (run/cli/conformance-finish.ts).
    if (!anyCheckEnded(project.name) && !state.opened?.entries().length) process.exit(INTERRUPTED_EXIT[request.signal]);
    void project.vitest.cancelCurrentRun('interrupted' as never);
    // No check is left to keep slots of the in-flight bound for: removals take all of them now.
    void state.early?.then((removal) => removal?.finish()).catch(() => {});
  });
}

/**
 * The worker pool the run has: one worker runs the files side by side (vitest.config.ts); warns where the command line
 * asks for more workers, isolation or another pool, and what that costs. `shareable`: the workers share memory
 * (threads), so one counter per service bounds the whole run.
 */
function workerPool(project: TestProject, maxInFlight: number): { workers: number; shareable: boolean } {
  // vitest hands a worker all its files at once only with one worker and isolate off, so --maxWorkers or --isolate on
  // the command line make each worker run its files one after another.
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  if (workers > 1 || project.config.isolate)
    console.warn(
      `conformance: with ${workers > 1 ? `--maxWorkers ${workers}` : '--isolate'} each worker runs its scenario ` +
        `files one after another: CONFORMANCE_FILES_AT_ONCE has no effect`,
    );
  // Worker threads share memory, so one counter per service bounds the whole run; worker processes (another pool) would
  // each get a copy, so they divide the bound among themselves.
  const shareable = project.config.pool === 'threads';
  if (!shareable && workers > maxInFlight)
    console.warn(
      `conformance: with --pool ${project.config.pool} each of the ${workers} workers keeps its own in-flight ` +
        `count, so up to ${workers} requests per service may be in flight, more than ` +
        `CONFORMANCE_MAX_IN_FLIGHT=${maxInFlight}; run with the default pool (threads) or --maxWorkers at ` +
        `most ${maxInFlight}`,
    );
  return { workers, shareable };
}

/** One OAuth2 token per service for the whole run, shared by its threads (harness/oauth.ts); none without OAuth2. */
function tokenCellsFor(targets: RunInfo['targets']): RunInfo['tokenCells'] {
  const oauth = serviceNames().filter((s) => targets[s]?.auth.scheme === 'bearer' && targets[s]?.auth.oauth);
  return oauth.length ? Object.fromEntries(oauth.map((s) => [s, sharedTokenCell()])) : undefined;
}

/** What the test workers are handed: the run's settings, targets, profile, shared counters and token cells. */
function runInfoOf(o: {
  runId: string;
  settings: Settings;
  embedded: boolean;
  targets: RunInfo['targets'];
  profile: Profile;
  workers: number;
  shareable: boolean;
  tokenCells: RunInfo['tokenCells'];
}): RunInfo {
  const { settings, shareable, workers, tokenCells } = o;
  return {
    runId: o.runId,
    reportDir: settings.reportDir,
    seed: settings.seed,
    timeoutMs: settings.timeoutMs,
    maxInFlightPerWorker: shareable ? settings.maxInFlight : Math.max(1, Math.floor(settings.maxInFlight / workers)),
    // The pacing (pause, learned rate and bound, CONFORMANCE_RATE_LIMIT) is shared with the counters.
    ...(shareable
      ? { inFlightCounters: sharedCounters(serviceNames().length), pacing: sharedPacing(serviceNames().length) }
      : {}),
    retryBudgetMs: settings.retryBudgetMs,
    ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
    ...(settings.rateLimit ? { ratePerSecondPerWorker: settings.rateLimit / (shareable ? 1 : workers) } : {}),
    budgets: resolveBudgets(settings, o.embedded),
    targets: o.targets,
    profile: o.profile,
    embedded: o.embedded,
    exchanges: settings.exchanges,
    verbose: settings.verbose,
    redactionKey: newRedactionKey(),
    ...(tokenCells ? { tokenCells } : {}),
  };
}

/** The run as run.json and the reports describe it: its seed, targets (no secrets), profile, shard and faults. */
function describeRun(
  runId: string,
  seed: number,
  embedded: boolean,
  deployments: Deployments,
  profile: Profile,
): RunDescription {
  const { targets } = deployments;
  const shard = HANDOFF.shard.read();
  return {
    runId,
    seed,
    startedAt: new Date().toISOString(),
    embedded,
    targets: serviceNames().map((service) => {
      const t = targets[service];
      return t
        ? {
            service,
            status: t.embedded ? ('embedded' as const) : ('configured' as const),
            baseUrl: t.baseUrl,
            servicePath: t.servicePath,
            auth: t.auth.scheme,
            ...(t.auth.scheme === 'bearer' && t.auth.oauth ? { oauth: oauthShown(t.auth.oauth) } : {}),
            sources: t.sources,
          }
        : { service, status: 'not configured' as const };
    }),
    profile,
    ...(shard ? { shard } : {}),
    ...(deployments.reference?.faults.length ? { faults: deployments.reference.faults } : {}),
  };
}

/**
 * The run's opening line: its ID and seed. The target was stated before anything started
 * (run/cli/conformance-prepare.ts) and heads the summary at the end; the opening block repeats it, with every service's
 * URL, only when verbose.
 */
function printOpening(description: RunDescription, verbose: boolean): void {
  const { runId, seed } = description;
  const where = description.targets
    .map((t) => `${t.service}: ${t.status === 'not configured' ? 'not configured' : `${t.baseUrl}${t.servicePath}`}`)
    .join('; ');
  console.log(
    verbose
      ? `\nConformance run ${runId}, seed ${seed}\n  ${targetStatement(description)}\n  ${where}\n  ` +
          `replay this run's data with CONFORMANCE_SEED=${seed}\n`
      : `Conformance run ${runId}, seed ${seed} (replay this run's data with CONFORMANCE_SEED=${seed})`,
  );
}

/**
 * Removes a file's records once its checks have ended (run/vitest/early-removal.ts), loaded in the background;
 * undefined when it cannot be loaded (the teardown then removes everything, as before).
 */
function startEarlyRemoval(
  project: string,
  run: RunContext,
  deployments: Deployments,
  profile: Profile,
  options: EarlyRemovalOptions,
): Promise<EarlyRemoval | undefined> {
  return import('./early-removal.js')
    .then(({ EarlyRemoval, attachEarlyRemoval }) => {
      const removal = new EarlyRemoval(run, deployments.targets, profile, options);
      attachEarlyRemoval(project, removal);
      return removal;
    })
    .catch(() => undefined);
}

/**
 * The modules of the teardown: removals, summary, reports (the charts and state diagrams the reports draw with Vega and
 * Graphviz too).
 */
function loadTeardownModules() {
  return Promise.all([
    import('../../harness/cleanup.js'),
    import('../../report/summary.js'),
    import('../../report/write.js'),
    import('../../report/console-summary.js'),
    import('../../report/charts.js'),
    import('../../report/state-diagram.js'),
  ]);
}
