/**
 * Runs bounded, seeded model-based walks with fast-check (fc.commands + fc.asyncModelRun): `walks` walks of up to
 * `steps` commands, each starting from a few identities posted together (one start step,
 * scenarios/shared/walk/commands.ts postStart), and judged after every step by the whole-state oracle (oracle.ts) and,
 * at its end, on the notification feed (feed.ts). Walks run side by side in equal batches (sideBySide: each walk owns
 * its records). A failing batch is shrunk by fast-check as a whole, so the walks that do not fail shrink away and the
 * failing walk is reported alone, as a minimal sequence of numbered steps, with the exchanges of the failing step and
 * one command that replays it.
 *
 * Budget: CONFORMANCE_WALKS x CONFORMANCE_WALK_STEPS; by default 12 x 8 against the embedded reference and 3 x 8
 * against a configured deployment. The walk seed is derived from the run seed and the check's stable ID (through the
 * check's seeded Faker), so `CONFORMANCE_SEED=<run seed>` replays the same walks.
 *
 * Before the generated walks, the tours of the service (scenarios/shared/walk/commands.ts TOURS) run: fixed chains of
 * rows that every run exercises whatever its seed. A failing tour is reported like a failing walk (numbered steps,
 * replay command), unshrunk: it is short already.
 *
 * Steps are steered by coverage of the state table (scenarios/shared/state/coverage.ts, steer.ts): each batch of walks
 * is generated with the coverage keys the batches before it exercised, frozen, and its commands prefer keys not
 * exercised yet. The tally grows only with the walks fast-check generates, not with the reruns of shrinking, so a
 * shrunk walk sees what the failing one saw; a replay with the same run seed regenerates the same walks in the same
 * order (against a deployment that answers the same).
 */
import fc from 'fast-check';
import type { Check } from '../../../harness/check.js';
import type { scenario } from '../../../harness/register.js';
import { runInfo, verboseLine } from '../../../harness/targets.js';
import { seededFaker } from '../../../generators/seed.js';
import { ConformanceFailure, CouldNotJudge, TimeRanOut } from '../../../harness/verdict.js';
import type { Exchange } from '../../../harness/reply.js';
import {
  type Tour,
  commandArbitraries,
  observeWalkEnd,
  postStart,
  recordStatesFor,
  tourCommands,
  toursFor,
} from './commands.js';
import { feedBaseline, judgeFeed } from './feed.js';
import { stepKindsFor } from './step-kinds.js';
import { CoverageTally } from '../state/coverage.js';
import { IdentityModel, labelFor } from '../../../specs/state/identity-model.js';
import { type StepKind, StepFailure } from './run-step.js';
import { withRejects } from '../../../specs/clause-registry.js';
import { type WalkConfig, walkRequirementIds } from '../walk-config.js';
import { WalkReal } from './walk-real.js';

export interface WalkBudget {
  walks: number;
  steps: number;
}

/** Walks x steps for this run (resolved once by the run's setup: harness/config.ts resolveBudgets). */
export function walkBudget(): WalkBudget {
  const b = runInfo().budgets;
  return { walks: b.walks, steps: b.walkSteps };
}

/** Commands generated per step of the budget: the pool a walk's steps are drawn from (most are skipped). */
const POOL_PER_STEP = 20;

/** Most walks of a check that run side by side. */
const MOST_SIDE_BY_SIDE = 6;

/**
 * How many walks run side by side: the largest number up to MOST_SIDE_BY_SIDE that divides the budget's walks into
 * equal batches.
 */
export function sideBySide(walks: number): number {
  for (let n = Math.min(MOST_SIDE_BY_SIDE, walks); n > 1; n--) if (walks % n === 0) return n;
  return 1;
}

/**
 * The coverage keys of the walks so far, read when fast-check generates a walk (fast-check generates each walk after
 * the previous one ran) and kept with it unchanged while it shrinks.
 */
class FrozenKeys extends fc.Arbitrary<ReadonlySet<string>> {
  constructor(private readonly tally: CoverageTally) {
    super();
  }
  generate(): fc.Value<ReadonlySet<string>> {
    return new fc.Value(this.tally.freeze(), undefined);
  }
  canShrinkWithoutContext(_value: unknown): _value is ReadonlySet<string> {
    return false;
  }
  shrink(): fc.Stream<fc.Value<ReadonlySet<string>>> {
    return fc.Stream.nil();
  }
}

const clip = (text: string, n = 1500) =>
  text.length > n ? `${text.slice(0, n)}... [${text.length - n} more characters]` : text;
const exchangeText = (e: Exchange) =>
  `${e.operation} ${JSON.stringify((e.request.body as { content?: unknown })?.content ?? e.request.body)}\n    ` +
  `-> HTTP ${e.reply?.status ?? '-'} ` +
  `${clip(JSON.stringify(e.reply?.body ?? e.reply?.text ?? e.error ?? null), 800)}`;

export interface WalkOptions {
  /** Test file and check title, for the replay command. */
  file: string;
  title: string;
  /** Identities posted before the first command. */
  initial?: number;
  /** Run seed and budget (default: the run's, resolved by its setup). */
  run?: { seed: number; budget: WalkBudget };
  /** Shrink a failing walk (default); false: stop at the first failing walk (self-tests that count detections). */
  shrink?: boolean;
  /** Run the tours before the generated walks (default); false: generated walks only. */
  tours?: boolean;
  /** Run the generated walks of the budget (default); false: the tours only. */
  generated?: boolean;
  /**
   * Where the walk line and the coverage summary are printed (default: the console when the run is verbose,
   * CONFORMANCE_VERBOSE).
   */
  log?: (text: string) => void;
}

/**
 * The failure of a walk or tour that broke the model, read in this order (harness/failure.ts): replay command, numbered
 * steps, finding, the failing step's exchanges. A could-not-judge (or any other error) passes through unchanged.
 */
function walkFailure(
  t: Check,
  error: unknown,
  last: { steps: string[]; setup: number; exchanges: Exchange[] },
  replay: string,
  how: string,
  initial: number,
): Error {
  if (error instanceof CouldNotJudge) return error;
  if (!(error instanceof ConformanceFailure)) return error instanceof Error ? error : new Error(String(error));
  const from = t.exchanges.length;
  t.exchanges.push(...last.exchanges);
  const listing = [
    // The start (one step posting every initial identity) is listed apart when it succeeded.
    ...(last.setup
      ? [
          `  start: ${initial} new, distinct identities posted ` +
            `(${Array.from({ length: initial }, (_, i) => labelFor(i)).join(', ')})`,
        ]
      : []),
    ...last.steps.slice(last.setup).map((s, i) => `  ${i + 1}. ${s}`),
  ];
  return new ConformanceFailure(
    error.requirements,
    `a walk broke the identity model; replay: ${replay}\n${how}:\n${listing.join('\n')}\n` +
      `failure: ${error.message.replace(/^\[[^\]]*\] /, '')}\n` +
      `exchanges of the failing step:\n${last.exchanges
        .slice(0, 3)
        .map((e) => `  ${exchangeText(e)}`)
        .join('\n')}`,
    {
      // A finding the model check wrote in words is what the deployment did: "got".
      ...(error.detail.what === undefined && error.detail.got === undefined
        ? { got: error.message.replace(/^\[[^\]]*\] /, '') }
        : error.detail),
      replay,
      steps: [`(${how})`, ...listing],
      exchange: undefined,
      ...(t.exchanges.length > from ? { stepExchanges: [from + 1, t.exchanges.length] as [number, number] } : {}),
    },
  );
}

/**
 * The feed after a walk (scenarios/shared/walk/feed.ts): a failure is the walk's last step, so it is listed, shrunk and
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
  throw new StepFailure(
    [...new Set(problems.map((p) => p.requirement))],
    `step ${w.steps.length - w.startSteps}, the walk's notifications:\n  - ${text}`,
    {
      what: "the walk's changes in the notification feed",
      got: text,
      operation: 'searchNotifications',
      findings: withRejects(problems),
    },
  );
}

/**
 * Longest a failing batch of walks is shrunk for, ms: each shrink candidate replays whole walks against the deployment,
 * so an unbounded shrink of a deployment that fails everywhere would hold the run for minutes. The walk reported is the
 * shortest failing one found within it.
 */
const SHRINK_BUDGET_MS = 20000;

/**
 * Share of a walk check's time to send (Check.sendBy) in which steps start. Past it no step, batch or shrink begins:
 * the walks under way end and their feed is judged, so a deployment slow to answer (a gateway that throttles, other
 * users filling the feed) gets shorter or fewer walks, judged, instead of a check stopped by its time limit.
 */
export const WALK_STEPS_SHARE = 0.6;

/**
 * A walk or tour that broke the model (or could not be judged): its steps, how many of them were the start, the failing
 * step's exchanges.
 */
interface FailedWalk {
  steps: string[];
  setup: number;
  exchanges: Exchange[];
  error: unknown;
}

/** A walk's or tour's model once it ended, and how it failed when it did. */
interface WalkResult {
  model: IdentityModel;
  failed?: FailedWalk;
}

/** A tour's result: a failure says which tour it was and how many steps it ran. */
interface TourResult {
  model: IdentityModel;
  failed?: FailedWalk & { how: string };
}

type WalkCommands = Iterable<fc.AsyncCommand<IdentityModel, WalkReal, false>>;

/** What the parts of one runWalks share: the check, its walk settings, and what its walks found. */
interface WalkRun {
  readonly t: Check;
  readonly config: WalkConfig;
  readonly budget: WalkBudget;
  readonly runSeed: number;
  /** The check's walk seed, drawn from its seeded Faker (so the run seed replays it). */
  readonly walkSeed: number;
  /** Identities each walk or tour starts from. */
  readonly initial: number;
  /** No step, batch or shrink begins past this time, ms since the epoch (WALK_STEPS_SHARE). */
  readonly stepsUntil: number;
  /** The command that replays the check. */
  readonly replay: string;
  /** Identities generated far apart that the deployment joined, in words (the walks add them). */
  readonly findings: string[];
  /** How often each step kind went each way (step:verdict:outcome). */
  readonly tally: Map<string, number>;
  /** Coverage keys the tours and the walks fast-check generated exercised (not the reruns of shrinking). */
  readonly coverage: CoverageTally;
  /** Walks or tours the check's time ended before their steps, for its note. */
  shortened: number;
}

/** How the generated walks of a check went, as fast-check ran their batches and shrank a failing one. */
interface Generation {
  /** Walks run, the reruns of shrinking included. */
  walksRun: number;
  /** Walks fast-check generated (not the reruns of shrinking), and the steps they ran. */
  generated: number;
  stepsRun: number;
  /** Until the first failure; after it fast-check only shrinks. */
  generating: boolean;
  /** When the first failure was found, ms since the epoch: the shrink budget runs from it. */
  failedAt?: number;
  /** The latest failing walk: once shrinking ended, the shortest one found. */
  last?: FailedWalk;
  /** A step of a generated walk the deployment could not answer: the walks end there, unjudged. */
  unjudged?: CouldNotJudge;
  /** The check's time ran out in a batch after whole batches were judged: those stand, the rest are not run. */
  ranOut: boolean;
  /** Walks not begun because the check's time was short. */
  notBegun: number;
}

/** What fast-check's check said of the generated walks. */
interface Checked {
  failed: boolean;
  numShrinks: number;
  errorInstance: unknown;
}

/**
 * Runs one tour on records of its own: the records its steps name, its steps (those the check's time allows) and the
 * last observation. Its changes are judged in the feed by the generated walks and the notification checks, not again
 * here.
 * @returns the tour's model, and how it failed (a failure is returned, not thrown)
 */
async function runTour(r: WalkRun, tour: Tour, fakerSeed: number): Promise<TourResult> {
  const w = new WalkReal(r.t, r.config, r.findings, r.tally, seededFaker(fakerSeed));
  const model = new IdentityModel();
  model.singleKind = !tour.mixedKinds;
  let setup = 0;
  try {
    const named = new Set(tour.steps.flatMap(([, ...labels]) => labels));
    await postStart(model, w, Math.min(r.initial, named.size));
    setup = w.steps.length;
    model.stepsRun = 0;
    for (const command of tourCommands(r.config, tour)) {
      if (Date.now() >= r.stepsUntil) {
        r.shortened++;
        break;
      }
      await command.run(model, w);
    }
    await observeWalkEnd(model, w);
    return { model };
  } catch (error) {
    return {
      model,
      failed: {
        error,
        steps: [...w.steps],
        setup,
        exchanges: w.stepExchanges(),
        how: `tour "${tour.name}" (a fixed chain of state-table rows every run takes), ${w.steps.length - setup} steps`,
      },
    };
  }
}

/**
 * Runs the tours side by side and adds what they exercised to the coverage. Tours touch only their own records; each
 * has a Faker seeded from the check's, so a replay generates the same data whatever order their replies arrive in.
 * @throws the failure (walkFailure) of the first tour in TOURS order that failed, whatever finished first
 */
async function runTours(r: WalkRun, tours: Tour[]): Promise<void> {
  const tourSeeds = tours.map(() => r.t.faker.number.int({ min: 0, max: 2 ** 31 - 1 }));
  const toured = await Promise.all(tours.map((tour, i) => runTour(r, tour, tourSeeds[i]!)));
  const failed = toured.find((x) => x.failed)?.failed;
  if (failed) throw walkFailure(r.t, failed.error, failed, r.replay, failed.how, r.initial);
  for (const x of toured) for (const keys of x.model.exercised) r.coverage.add(keys);
  for (const x of toured) r.coverage.offer(x.model.offered);
}

/**
 * Runs one generated walk: its start and the feed's baseline, the commands fast-check chose (those the steering lets
 * run), the last observation and the feed.
 * @returns the walk's model, and how it failed (a failure, or a step that could not be judged, is returned, not thrown)
 */
async function runWalk(r: WalkRun, g: Generation, known: ReadonlySet<string>, cmds: WalkCommands): Promise<WalkResult> {
  g.walksRun++;
  const w = new WalkReal(r.t, r.config, r.findings, r.tally);
  const model = new IdentityModel();
  model.known = known;
  let setup = 0;
  try {
    const since = Date.now();
    await fc.asyncModelRun(async () => {
      const started = await postStart(model, w, r.initial);
      await feedBaseline(
        w,
        since,
        started.map((x) => x.source.id),
      );
      setup = w.steps.length;
      model.stepsRun = 0;
      model.maxSteps = r.budget.steps;
      model.stepsUntil = r.stepsUntil;
      return { model, real: w };
    }, cmds);
    if (model.stepsRun < r.budget.steps && Date.now() >= r.stepsUntil) r.shortened++;
    await observeWalkEnd(model, w);
    await walkFeed(w, since);
    return { model };
  } catch (error) {
    return { model, failed: { steps: [...w.steps], setup, exchanges: w.stepExchanges(), error } };
  }
}

/**
 * One run of the property: a batch of walks side by side, steered by the coverage keys `known`. A batch fast-check
 * generates adds to the coverage; after the first failure the batches are the reruns of shrinking, and past the shrink
 * budget or the check's time they pass without a request.
 * @throws the error of the batch's failing walk, for fast-check to shrink the batch
 */
async function runBatch(r: WalkRun, g: Generation, known: ReadonlySet<string>, batch: WalkCommands[]): Promise<void> {
  // Past the shrink budget every candidate counts as passing without a request: fast-check ends its shrinking at once
  // and reports the shortest failing walk found so far.
  if (g.failedAt !== undefined && (Date.now() - g.failedAt > SHRINK_BUDGET_MS || Date.now() >= r.stepsUntil)) return;
  if (g.unjudged || g.ranOut) return;
  if (g.generating && Date.now() >= r.stepsUntil) {
    g.notBegun += batch.length;
    return;
  }
  const results = await Promise.all(batch.map((cmds) => runWalk(r, g, known, cmds)));
  const failed = results.find((x) => x.failed && !(x.failed.error instanceof CouldNotJudge))?.failed;
  // A step the deployment could not answer (transient failures past the retry budget) is no finding: nothing to shrink.
  // While generating it ends the walks (the check could not judge); in a shrinking re-run it counts as not reproducing
  // the failure.
  const blocked = results.find((x) => x.failed?.error instanceof CouldNotJudge)?.failed;
  // Cut by the check's time after whole batches were judged: those stand, the rest are not run.
  if (blocked && !failed && g.generating) {
    if (blocked.error instanceof TimeRanOut && g.generated > 0) g.ranOut = true;
    else g.unjudged = blocked.error as CouldNotJudge;
  }
  // Only the walks fast-check generated count: the first failure ends generation, and the reruns of shrinking follow
  // it.
  if (g.generating)
    for (const x of results) {
      for (const keys of x.model.exercised) r.coverage.add(keys);
      r.coverage.offer(x.model.offered);
      g.stepsRun += x.model.stepsRun;
      g.generated++;
    }
  if (failed) {
    g.last = failed;
    g.generating = false;
    g.failedAt ??= Date.now();
    throw failed.error;
  }
}

/**
 * Runs `walks` generated walks in batches of sideBySide(walks), each walk owning its records, each batch steered by the
 * coverage of the tours and batches before it. A failing batch is shrunk as a whole (unless `endOnFailure`): the walks
 * that do not fail shrink away, so the walk reported is the failing one alone, as short as it fails.
 * @returns how the walks went, and fast-check's result
 */
async function runGenerated(
  r: WalkRun,
  kinds: StepKind[],
  walks: number,
  endOnFailure: boolean,
): Promise<{ g: Generation; details: Checked }> {
  const g: Generation = { walksRun: 0, generated: 0, stepsRun: 0, generating: true, ranOut: false, notBegun: 0 };
  const pool = fc.commands(commandArbitraries(kinds), { maxCommands: r.budget.steps * POOL_PER_STEP, size: 'max' });
  const side = sideBySide(walks);
  const property = fc.asyncProperty(
    new FrozenKeys(r.coverage),
    fc.tuple(...Array.from({ length: side }, () => pool)),
    (known, batch) => runBatch(r, g, known, batch),
  );
  const details: Checked = walks
    ? await fc.check(property, { seed: r.walkSeed, numRuns: walks / side, endOnFailure })
    : { failed: false, numShrinks: 0, errorInstance: undefined };
  return { g, details };
}

/**
 * Writes the coverage of the state table and the steps by kind and outcome into the check's note; the coverage's first
 * line also goes to `log`.
 */
function noteCoverage(r: WalkRun, g: Generation, kinds: StepKind[], log: (text: string) => void): void {
  const covered = r.coverage.summary(kinds, recordStatesFor(r.config), g.generated, g.stepsRun);
  // The full coverage listing goes to the report (the check's note); the console gets its first line.
  log(covered.split('\n')[0]!);
  // How often each step kind went each way (step:verdict:outcome), for reading a walk check's coverage.
  const tallied = [...r.tally]
    .sort()
    .map(([k, n]) => `  ${k} ${n}`)
    .join('\n');
  r.t.note(tallied ? `${covered}\nsteps by kind and outcome:\n${tallied}` : covered);
}

/** Notes, in the check and on `log`, the walks and tours the check's time cut short; nothing when it cut none. */
function noteShortTime(r: WalkRun, g: Generation, log: (text: string) => void): void {
  if (!(r.shortened || g.notBegun || g.ranOut)) return;
  const said =
    `the check's time was short for this deployment (steps start within ${WALK_STEPS_SHARE * 100} % of its time ` +
    `to send): ${r.shortened} walks or tours ended before their steps, ${g.notBegun} walks were not ` +
    `begun${g.ranOut ? ', and the last batch ran out of time (not judged)' : ''}`;
  r.t.note(said);
  log(`[walks] ${r.config.service}: ${said}`);
}

/**
 * The check's verdict once its walks ran; returns when it passed.
 * @throws CouldNotJudge when a generated walk could not be judged and none failed; ConformanceFailure for the failing
 *   walk, shrunk (walkFailure), else citing the apart requirement when the deployment joined identities generated far
 *   apart
 */
function judgeWalks(r: WalkRun, g: Generation, details: Checked): void {
  if (g.unjudged && !details.failed) throw g.unjudged;
  if (details.failed) {
    const last = g.last;
    const shrunk =
      `walk seed ${r.walkSeed}, run seed ${r.runSeed}; fast-check shrank it (${details.numShrinks} shrinks) to ` +
      `${(last?.steps.length ?? 0) - (last?.setup ?? 0)} steps`;
    throw walkFailure(
      r.t,
      last?.error ?? details.errorInstance,
      last ?? { steps: [], setup: 1, exchanges: [] },
      r.replay,
      shrunk,
      r.initial,
    );
  }
  if (r.findings.length) {
    const joined = [...new Set(r.findings)].slice(0, 5);
    throw new ConformanceFailure(
      [r.config.requirements.apart],
      `identities generated far apart were joined by the deployment's matching (the walks followed the ` +
        `deployment):\n  - ${joined.join('\n  - ')}\nreplay: ${r.replay}`,
      {
        replay: r.replay,
        what: "identities generated far apart stay apart (the walks followed the deployment's matching)",
        got: joined.map((f) => `- ${f}`).join('\n'),
      },
    );
  }
}

/**
 * Runs the walks of one service inside a check: the tours, then the generated walks of the budget; notes the coverage.
 * Returns when they held.
 * @throws ConformanceFailure (minimal walk printed) when a walk breaks the model, citing the requirements of the
 *   failing step; CouldNotJudge when the deployment could not answer
 */
export async function runWalks(t: Check, config: WalkConfig, options: WalkOptions): Promise<void> {
  const info = options.run ?? { seed: runInfo().seed, budget: walkBudget() };
  const log = options.log ?? verboseLine;
  const kinds = stepKindsFor(config);
  // Drawn before the tours' seeds: the check's Faker gives the same walk seed whether tours run or not.
  const walkSeed = t.faker.number.int({ min: 0, max: 2 ** 31 - 1 });
  const entered = Date.now();
  const r: WalkRun = {
    t,
    config,
    budget: info.budget,
    runSeed: info.seed,
    walkSeed,
    initial: options.initial ?? 3,
    stepsUntil: entered + (t.sendBy - entered) * WALK_STEPS_SHARE,
    replay: `CONFORMANCE_SEED=${info.seed} npm run conformance -- ${options.file} -t '${options.title}'`,
    findings: [],
    tally: new Map(),
    coverage: new CoverageTally(),
    shortened: 0,
  };
  const tours = options.tours === false ? [] : toursFor(config);
  const walks = options.generated === false ? 0 : info.budget.walks;
  await runTours(r, tours);
  const started = Date.now();
  const { g, details } = await runGenerated(r, kinds, walks, options.shrink === false);
  log(
    `[walks] ${config.service}: ${walks} walks x ${info.budget.steps} steps, walk seed ${walkSeed} (run seed ` +
      `${info.seed}), ${g.walksRun} walks run in ${Date.now() - started} ms, after ${tours.length} tours`,
  );
  noteCoverage(r, g, kinds, log);
  noteShortTime(r, g, log);
  judgeWalks(r, g, details);
}

type CheckFn = ReturnType<typeof scenario>['check'];

/**
 * Most generated walks one check runs: a longer budget is split over several checks, so no walk check holds a run up.
 */
export const WALKS_PER_CHECK = 6;

/**
 * Registers a service's walks as checks: one for the tours (the fixed chains every run takes), and the generated walks
 * of the run's budget split into parts of at most WALKS_PER_CHECK walks, each a check of its own that runs its walks
 * side by side. Every part has its own walk seed (from its check ID), so `CONFORMANCE_SEED=<run seed>` with the part's
 * title replays it. They verify every requirement a walk of the configuration may cite (walkRequirementIds).
 */
export function walkChecks(check: CheckFn, config: WalkConfig, file: string): void {
  const ids = walkRequirementIds(config).sort();
  const { walks, steps } = walkBudget();
  const parts = Math.max(1, Math.ceil(walks / WALKS_PER_CHECK));
  check(TOURS_TITLE, ids, (t) => runWalks(t, config, { file, title: TOURS_TITLE, generated: false }), {
    chain: true,
    id: TOURS_ID,
  });
  for (let i = 0; i < parts; i++) {
    const share = Math.floor(walks / parts) + (i < walks % parts ? 1 : 0);
    if (!share) continue;
    const title = parts > 1 ? `${WALKS_TITLE} (part ${i + 1} of ${parts})` : WALKS_TITLE;
    const id = parts > 1 ? `${WALKS_ID}-part-${i + 1}-of-${parts}` : WALKS_ID;
    check(
      title,
      ids,
      (t) =>
        runWalks(t, config, {
          file,
          title,
          tours: false,
          run: { seed: runInfo().seed, budget: { walks: share, steps } },
        }),
      // The generated walks are the run's longest chains (docs/performance.md, item 40): their requests go before the
      // tours', which end well before them.
      { chain: 'longest', id },
    );
  }
}

/** IDs and titles of the walk checks (the replay command names them). */
const WALKS_ID = 'model-based-walks-over-the-state-table-keep-replies-and-identities-consistent-with-the-model';
const TOURS_ID =
  'tours-over-the-state-table-fixed-chains-of-rows-every-run-takes-keep-replies-and-identities-consistent-with-the-model';
export const WALKS_TITLE =
  'model-based walks over the state table keep replies and identities consistent with the model';
export const TOURS_TITLE =
  'tours over the state table (fixed chains of rows every run takes) keep replies and identities consistent ' +
  'with the model';
