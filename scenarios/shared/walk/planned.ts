/**
 * Running a planned walk (plan.ts) against the deployment: its starting records posted with the
 * sources, native IDs and kinds its starting state says, then each planned step, named by the
 * records that fill its roles in the walk's model, judged like every step (run-step.ts runStep and
 * the whole-state oracle). Before each step the walk's model is abstracted and compared with the
 * state the plan assumed: where the deployment took an outcome the seeds leave open that the plan
 * did not assume, the walk finds its way from where it is to the situations it still aims at, or
 * ends and says why it did not reach them.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md,
 * "States and transitions".
 */
import { type AbstractRecord, canonicalOrders } from '../../../specs/state/abstract-state.js';
import { situationKey } from '../../../specs/state/situation-key.js';
import type { SituationGraph } from '../../../specs/state/situations.js';
import { type StateSpec, rowOf } from '../../../specs/state/state-spec.js';
import type { StepName } from '../../../specs/state/step-names.js';
import type { IdentityModel, ModelRecord } from '../../../specs/state/identity-model.js';
import { type PlannedStep, type PlannedWalk, pathToAny } from './plan.js';
import { runStep } from './run-step.js';
import { stepKind } from './step-kinds.js';
import type { WalkReal } from './walk-real.js';

/** The records to post at a walk's start: per record its source (index into the target's), native-ID class and kind. */
export interface StartRecord {
  source: number;
  nativeId: number;
  kind?: string;
}

/** What the planned walks of a check reached: situations (keys) reached, judged, and those not reached with why. */
export class SituationTally {
  readonly reached = new Set<string>();
  readonly judged = new Set<string>();
  readonly notReached = new Map<string, string>();

  constructor(readonly g: SituationGraph) {}

  reach(situation: number): void {
    const key = this.g.situations[situation]!.key;
    this.reached.add(key);
    this.notReached.delete(key);
  }

  judge(situation: number): void {
    this.judged.add(this.g.situations[situation]!.key);
  }

  /** What the check records (harness/check.ts Check.situations): the keys, sorted. */
  seen(): { reached: string[]; judged: string[]; notReached: Array<{ situation: string; why: string }> } {
    return {
      reached: [...this.reached].sort(),
      judged: [...this.judged].sort(),
      notReached: [...this.notReached]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([situation, why]) => ({ situation, why })),
    };
  }

  /** Situations the walk aimed at and did not reach, and why (a situation another walk reached is not listed). */
  missed(situations: Iterable<number>, why: string): void {
    for (const s of situations) {
      const key = this.g.situations[s]!.key;
      if (!this.reached.has(key) && !this.notReached.has(key)) this.notReached.set(key, why);
    }
  }
}

/** The records of the walk's starting state, as postStart posts them. */
export function startRecords(g: SituationGraph, walk: PlannedWalk): StartRecord[] {
  return g.states[walk.start]!.records.map((r) => ({
    source: r.source,
    nativeId: r.nativeId,
    ...(r.kind ? { kind: r.kind } : {}),
  }));
}

/**
 * The walk's model as an abstract state: each record with the index of its source and of its native ID, by first
 * appearance.
 */
export function abstractOf(m: IdentityModel): AbstractRecord[] {
  const sources = new Map<string, number>();
  const ids = new Map<string, number>();
  const index = (map: Map<string, number>, k: string) => map.get(k) ?? map.set(k, map.size).get(k)!;
  return m.records.map((r) => ({ ...r, source: index(sources, r.source.name), nativeId: index(ids, r.source.id) }));
}

/**
 * The situation (index into the graph) of a step of `step`'s row naming `recs` from the model's state; undefined when
 * the state is outside the graph's scope (an outcome the scope does not hold, a fourth record).
 */
export function situationNow(
  g: SituationGraph,
  m: IdentityModel,
  spec: StateSpec,
  step: StepName,
  recs: ModelRecord[],
): number | undefined {
  const verdict = rowOf(spec, step).request(m, recs).verdict;
  const roles = recs.map((r) => m.records.indexOf(r));
  return g.situationIndex.get(situationKey(spec, abstractOf(m), { step, roles }, verdict, g.scope));
}

/**
 * Where the walk's model stands in the graph: its state's index (undefined: outside the scope) and the records in
 * canonical order.
 */
function standing(g: SituationGraph, m: IdentityModel): { at?: number; records: ModelRecord[] } {
  const { key, orders } = canonicalOrders(abstractOf(m), g.scope);
  return { at: g.stateIndex.get(key), records: orders[0]!.map((i) => m.records[i]!) };
}

/** Why a walk did not reach a situation it aimed at: the check's time. */
export const TIME_RAN_OUT = "the check's time ran out before the walk reached it";

/** Why a walk left the situations it aimed at. */
const offPlan = (w: WalkReal) =>
  `the deployment took an outcome the seeds leave open that the plan did not assume (walk step ${w.steps.length - w.startSteps}), and no way back was within reach`;

/**
 * Runs a planned walk's steps on a model whose starting records were posted (postStart with
 * startRecords), counting each situation reached and judged in `tally`; records what it did not
 * reach, and why, when the deployment led it where the plan could not follow or its time ran out.
 * @throws StepFailure (a step broke the model) and CouldNotJudge, as runStep
 */
export async function runPlannedSteps(
  g: SituationGraph,
  m: IdentityModel,
  w: WalkReal,
  walk: PlannedWalk,
  tally: SituationTally,
  until: number,
): Promise<void> {
  const aims = new Set(walk.steps.map((s) => s.situation));
  const queue: PlannedStep[] = [...walk.steps];
  while (aims.size) {
    if (Date.now() >= until) return tally.missed(aims, TIME_RAN_OUT);
    const here = standing(g, m);
    if (here.at !== queue[0]?.from) {
      // Off the plan (the deployment took an outcome the seeds leave open that the plan did not assume,
      // or the plan's steps are done): the nearest way to what the walk still aims at.
      const back = here.at === undefined ? undefined : pathToAny(g, here.at, aims);
      if (!back) return tally.missed(aims, offPlan(w));
      queue.splice(0, queue.length, ...back);
    }
    const step = queue.shift()!;
    const kind = stepKind(w.config, step.step.step);
    const recs = step.step.roles.map((i) => here.records[i]!);
    const states = recs.map((r) => `${r.label} ${r.kind ? `${r.kind} ` : ''}${r.state}`).join(', ');
    tally.reach(step.situation);
    await runStep(kind, m, w, recs, `${kind.describe(recs)}${states ? ` (${states})` : ''}`);
    tally.judge(step.situation);
    aims.delete(step.situation);
  }
}
