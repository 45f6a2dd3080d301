/**
 * The walks over a service's state table: the tours (fixed chains of rows every run takes, commands.ts TOURS) and the
 * planned walks, which reach every situation of the run's scope enumerated from the state engine
 * (specs/state/situations.ts, planned by plan.ts). Each walk starts from a few identities posted together (one start
 * step, commands.ts postStart), is judged after every step by the whole-state oracle (oracle.ts) and, at its end, on
 * the notification feed (feed.ts). A walk check runs its walks side by side (each walk owns its records); a failing
 * walk is reported alone, as numbered steps, with the exchanges of the failing step and one command that replays it.
 *
 * The plan is a function of the service, the run's scope (CONFORMANCE_SCOPE and the target's sources), its budgets
 * (CONFORMANCE_WALKS x CONFORMANCE_WALK_STEPS against a configured deployment) and the run seed, so
 * `CONFORMANCE_SEED=<run seed>` replays the same walks; each walk's data comes from a Faker seeded from the check's.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import type { Check } from '../../../harness/check.js';
import type { RunBudgets } from '../../../harness/config.js';
import type { scenario } from '../../../harness/register.js';
import type { Exchange } from '../../../harness/reply.js';
import { runInfo, verboseLine } from '../../../harness/targets.js';
import { ConformanceFailure, CouldNotJudge, TimeRanOut } from '../../../harness/verdict.js';
import { seededFaker } from '../../../generators/seed.js';
import { type SituationGraph, scopeOf } from '../../../specs/state/situations.js';
import { IdentityModel } from '../../../specs/state/identity-model.js';
import { type WalkConfig, walkRequirementIds } from '../walk-config.js';
import { type Tour, observeWalkEnd, postStart, runNamedStep, toursFor } from './commands.js';
import { feedBaseline, judgeFeed } from './feed.js';
import { type PlannedWalk, dealWalks } from './plan.js';
import { SituationTally, TIME_RAN_OUT, runPlannedSteps, situationNow, startRecords } from './planned.js';
import { findingsFailure } from './run-step.js';
import { type RunPlanned, graphFor, planFor, tourSituations } from './walk-plan.js';
import { WalkReal } from './walk-real.js';

/**
 * Share of a walk check's time to send (Check.sendBy) in which steps start. Past it no step begins: the walks under way
 * end and their feed is judged, so a deployment slow to answer gets shorter walks, judged, instead of a check stopped
 * by its time limit.
 */
export const WALK_STEPS_SHARE = 0.6;

const clip = (text: string, n = 1500) =>
  text.length > n ? `${text.slice(0, n)}... [${text.length - n} more characters]` : text;
const exchangeText = (e: Exchange) =>
  `${e.operation} ${JSON.stringify((e.request.body as { content?: unknown })?.content ?? e.request.body)}` +
  '\n    -> HTTP ' +
  `${e.reply?.status ?? '-'} ${clip(JSON.stringify(e.reply?.body ?? e.reply?.text ?? e.error ?? null), 800)}`;

/**
 * A walk or tour that broke the model (or could not be judged): its steps, how many were its start, the failing step's
 * exchanges.
 */
interface FailedWalk {
  steps: string[];
  setup: number;
  exchanges: Exchange[];
  error: unknown;
  /** Which walk it was, in words. */
  how: string;
}

/** One walk as runSideBySide runs it: what it is in words, how it starts, its steps, and whether its feed is judged. */
type WalkOf = [
  how: string,
  start: (m: IdentityModel, w: WalkReal) => Promise<void>,
  steps: (m: IdentityModel, w: WalkReal) => Promise<void>,
  feed?: boolean,
];

/** What the walks of one check share: the check, its walk settings, and what its walks found. */
interface WalkRun {
  readonly t: Check;
  readonly config: WalkConfig;
  /** No step begins past this time, ms since the epoch (WALK_STEPS_SHARE). */
  readonly stepsUntil: number;
  /** The command that replays the check. */
  readonly replay: string;
  /** Identities generated far apart that the deployment joined, in words. */
  readonly findings: string[];
  /** How often each step kind went each way (step:verdict:outcome). */
  readonly tally: Map<string, number>;
}

/**
 * The failure of a walk or tour that broke the model, read in this order (harness/failure.ts): replay command, numbered
 * steps, finding, the failing step's exchanges. A could-not-judge (or any other error) passes through unchanged.
 */
function walkFailure(t: Check, failed: FailedWalk, replay: string): Error {
  const { error } = failed;
  if (error instanceof CouldNotJudge) return error;
  if (!(error instanceof ConformanceFailure)) return error instanceof Error ? error : new Error(String(error));
  const from = t.exchanges.length;
  t.exchanges.push(...failed.exchanges);
  const listing = [
    // The start (one step posting every starting identity) is listed apart when it succeeded.
    ...(failed.setup ? [`  start: ${failed.steps[0]}`] : []),
    ...failed.steps.slice(failed.setup).map((s, i) => `  ${i + 1}. ${s}`),
  ];
  const finding = error.message.replace(/^\[[^\]]*\] /, '');
  return new ConformanceFailure(
    error.requirements,
    `a walk broke the identity model; replay: ${replay}\n${failed.how}:\n${listing.join('\n')}\nfailure: ${finding}\n` +
      `exchanges of the failing step:\n${failed.exchanges
        .slice(0, 3)
        .map((e) => `  ${exchangeText(e)}`)
        .join('\n')}`,
    {
      // A finding the model check wrote in words is what the deployment did: "got".
      ...(error.detail.what === undefined && error.detail.got === undefined ? { got: finding } : error.detail),
      replay,
      steps: [`(${failed.how})`, ...listing],
      exchange: undefined,
      ...(t.exchanges.length > from ? { stepExchanges: [from + 1, t.exchanges.length] as [number, number] } : {}),
    },
  );
}

/**
 * The feed after a walk (scenarios/shared/walk/feed.ts): a failure is the walk's last step, so it is listed and
 * replayed like any other.
 * @throws StepFailure citing the feed requirements broken
 */
async function walkFeed(w: WalkReal, since: number): Promise<void> {
  w.beginStep("searchNotifications over the walk's window: every change the seeds say the feed reports, each once");
  const problems = await judgeFeed(w, since);
  if (!problems.length) {
    w.steps.pop();
    return;
  }
  const text = [...new Set(problems.map((p) => p.observed))].join('\n  - ');
  throw findingsFailure(problems, `step ${w.steps.length - w.startSteps}, the walk's notifications:\n  - ${text}`, {
    what: "the walk's changes in the notification feed",
    got: text,
    operation: 'searchNotifications',
  });
}

/**
 * Runs one walk on records of its own: its start (posted and observed), the feed's baseline, `steps`, the last
 * observation and the feed (the baseline and the feed only when `feed`).
 * @returns the failure, if the walk broke the model or could not be judged (returned, not thrown)
 */
async function runOne(
  r: WalkRun,
  fakerSeed: number,
  [how, start, steps, feed = true]: WalkOf,
): Promise<FailedWalk | undefined> {
  const w = new WalkReal(r.t, r.config, r.findings, r.tally, seededFaker(fakerSeed));
  const model = new IdentityModel();
  let setup = 0;
  try {
    const since = Date.now();
    await start(model, w);
    if (feed)
      await feedBaseline(
        w,
        since,
        model.records.map((x) => x.source.id),
      );
    setup = w.steps.length;
    await steps(model, w);
    await observeWalkEnd(model, w);
    if (feed) await walkFeed(w, since);
    return undefined;
  } catch (error) {
    return {
      error,
      steps: [...w.steps],
      setup,
      exchanges: w.stepExchanges(),
      how: `${how}, ${w.steps.length - setup} steps`,
    };
  }
}

/**
 * Runs walks side by side, each with a Faker seeded from the check's in their order (so a replay posts the same data
 * whatever order the replies arrive in), and judges them.
 * @throws the failure (walkFailure) of the first walk in order that failed; CouldNotJudge when one could not be judged
 *   and none failed; ConformanceFailure citing the apart requirement when the deployment joined identities generated
 *   far apart
 */
async function runSideBySide(r: WalkRun, walks: WalkOf[]): Promise<void> {
  const seeds = walks.map(() => r.t.faker.number.int({ min: 0, max: 2 ** 31 - 1 }));
  const results = await Promise.all(walks.map((walk, i) => runOne(r, seeds[i]!, walk)));
  // A walk the check's time cut short is no finding: the walks judged stand (unless none was).
  const cut = (x: FailedWalk | undefined) => x?.error instanceof TimeRanOut;
  const failed =
    results.find((x) => x && !(x.error instanceof CouldNotJudge)) ??
    results.find((x) => x && !cut(x)) ??
    (results.every(cut) ? results[0] : undefined);
  if (failed) throw walkFailure(r.t, failed, r.replay);
  if (r.findings.length) {
    const joined = [...new Set(r.findings)].slice(0, 5);
    throw new ConformanceFailure(
      [r.config.requirements.apart],
      `identities generated far apart were joined by the deployment's matching (the walks followed the deployment):\n` +
        `  - ${joined.join('\n  - ')}\nreplay: ${r.replay}`,
      {
        replay: r.replay,
        what: "identities generated far apart stay apart (the walks followed the deployment's matching)",
        got: joined.map((f) => `- ${f}`).join('\n'),
      },
    );
  }
}

/** What a walk check shares, for its title and replay. */
function walkRun(t: Check, config: WalkConfig, file: string, title: string, seed: number): WalkRun {
  const entered = Date.now();
  return {
    t,
    config,
    stepsUntil: entered + (t.sendBy - entered) * WALK_STEPS_SHARE,
    replay: `CONFORMANCE_SEED=${seed} npm run conformance -- ${file} -t '${title}'`,
    findings: [],
    tally: new Map(),
  };
}

/**
 * Runs the service's tours side by side, each on records of its own (three, of one identity kind, or of alternating
 * kinds for a tour across kinds).
 * @throws as runSideBySide
 */
export async function runTours(
  t: Check,
  config: WalkConfig,
  file: string,
  run: PlanRun = planRunOf(config),
  title = TOURS_TITLE,
): Promise<void> {
  const r = walkRun(t, config, file, title, run.seed);
  const tours = toursFor(config);
  const g = graphFor(config, scopeOf(run.budgets.scope));
  const tally = new SituationTally(g);
  try {
    await runToursOf(r, tours, tally);
  } finally {
    tally.missed(
      tours.flatMap((tour) => tourSituations(config, g, tour)),
      "a tour ended before it (a step failed or could not be judged, or the check's time ran out)",
    );
    t.situations = { service: config.service, enumerated: g.situations.length, ...tally.seen() };
  }
}

/** Runs the tours side by side, counting the situations their steps reach in `tally`. */
async function runToursOf(r: WalkRun, tours: Tour[], tally: SituationTally): Promise<void> {
  await runSideBySide(
    r,
    tours.map(
      (tour: Tour): WalkOf => [
        `tour "${tour.name}" (a fixed chain of state-table rows every run takes)`,
        async (m, w) => {
          m.singleKind = !tour.mixedKinds;
          await postStart(m, w, new Set(tour.steps.flatMap(([, ...labels]) => labels)).size);
        },
        async (m, w) => {
          for (const [step, ...labels] of tour.steps) {
            if (Date.now() >= r.stepsUntil) return;
            const s = situationNow(
              tally.g,
              m,
              r.config.spec,
              step,
              labels.map((l) => m.get(l)!),
            );
            if (s !== undefined) tally.reach(s);
            await runNamedStep(w, m, step, labels);
            if (s !== undefined) tally.judge(s);
          }
        },
        // The planned walks judge the feed; the tours' reads of it would add a sixth to their requests.
        false,
      ],
    ),
  );
}

/** The walk checks a run registers: the tours, then the plan dealt into this many parts. */
export function walkParts(budgets: Pick<RunBudgets, 'embedded' | 'scope'>): number {
  return budgets.embedded || budgets.scope === 'full' ? 2 : 1;
}

/** What a service's plan depends on in a run: its seed, its budgets and scope, and how many sources the target has. */
export interface PlanRun {
  seed: number;
  budgets: RunBudgets;
  sources: number;
}

/** The plan's inputs as the run's setup resolved them (harness/targets.ts runInfo). */
function planRunOf(config: WalkConfig): PlanRun {
  const info = runInfo();
  return { seed: info.seed, budgets: info.budgets, sources: info.targets[config.service]?.sources.length ?? 1 };
}

/** The run's plan for a service, with the tours' situations taken as covered, and what it leaves out. */
export function runPlan(config: WalkConfig, run: PlanRun): { g: SituationGraph } & RunPlanned {
  const g = graphFor(config, scopeOf(run.budgets.scope));
  const covered = toursFor(config).flatMap((tour) => tourSituations(config, g, tour));
  return { g, ...planFor(config, g, { seed: run.seed, budgets: run.budgets, sources: run.sources, covered }) };
}

/**
 * Runs part `part` (0-based) of the service's planned walks side by side and notes the situations they reached.
 * `run` gives the plan's inputs (default: the run's).
 * @throws as runSideBySide
 */
export async function runPlannedPart(
  t: Check,
  config: WalkConfig,
  where: { file: string; title: string; part: number; log?: (line: string) => void },
  run: PlanRun = planRunOf(config),
): Promise<void> {
  const { file, title, part, log = verboseLine } = where;
  const r = walkRun(t, config, file, title, run.seed);
  const { g, plan, left } = runPlan(config, run);
  const walks = dealWalks(plan, walkParts(run.budgets))[part] ?? [];
  const tally = new SituationTally(g);
  // The first part also says what the plan left out.
  if (part === 0) for (const [s, why] of left) tally.missed([s], why);
  const started = Date.now();
  try {
    await runSideBySide(
      r,
      walks.map(
        (walk: PlannedWalk, i): WalkOf => [
          `planned walk ${i + 1} of ${walks.length} (${walk.steps.length} steps planned)`,
          async (m, w) => {
            await postStart(m, w, g.scope.records, startRecords(g, walk));
          },
          (m, w) => runPlannedSteps(g, m, w, walk, tally, r.stepsUntil),
        ],
      ),
    );
  } finally {
    tally.missed(
      walks.flatMap((w) => w.steps.map((s) => s.situation)),
      "its walk ended before it (a step failed or could not be judged, or the check's time ran out)",
    );
    t.situations = { service: config.service, enumerated: g.situations.length, ...tally.seen() };
    const short = [...tally.notReached.values()].filter((why) => why === TIME_RAN_OUT).length;
    const line =
      `[walks] ${config.service}: part ${part + 1} of the plan: ${walks.length} planned walks, ` +
      `${tally.reached.size} situations reached in ${Date.now() - started} ms` +
      (short
        ? `; the check's time was short for this deployment (steps start within ${WALK_STEPS_SHARE * 100} % of its ` +
          `time to send): ${short} situations the walks aimed at were not reached`
        : '');
    t.note(line);
    log(line);
  }
}

type CheckFn = ReturnType<typeof scenario>['check'];

/**
 * Registers a service's walks as checks: one for the tours, and the planned walks dealt into walkParts checks, each
 * running its walks side by side. They verify every requirement a walk of the configuration may cite
 * (walkRequirementIds).
 */
export function walkChecks(check: CheckFn, config: WalkConfig, file: string): void {
  const ids = walkRequirementIds(config).sort();
  const parts = walkParts(runInfo().budgets);
  check(TOURS_TITLE, ids, (t) => runTours(t, config, file), { chain: true, id: TOURS_ID });
  for (let i = 0; i < parts; i++) {
    const title = parts > 1 ? `${WALKS_TITLE} (part ${i + 1} of ${parts})` : WALKS_TITLE;
    const id = parts > 1 ? `${WALKS_ID}-part-${i + 1}-of-${parts}` : WALKS_ID;
    // The planned walks are the run's longest chains: their requests go before the tours'.
    check(title, ids, (t) => runPlannedPart(t, config, { file, title, part: i }), { chain: 'longest', id });
  }
}

/** IDs and titles of the walk checks (the replay command names them). */
const WALKS_ID = 'model-based-walks-over-the-state-table-keep-replies-and-identities-consistent-with-the-model';
const TOURS_ID =
  'tours-over-the-state-table-fixed-chains-of-rows-every-run-takes-keep-replies-and-identities-consistent-with-the-model';
export const WALKS_TITLE =
  'model-based walks over the state table keep replies and identities consistent with the model';
export const TOURS_TITLE =
  'tours over the state table (fixed chains of rows every run takes) keep replies and identities consistent with the model';
