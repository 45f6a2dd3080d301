/**
 * The walks' plan: walks over a service's state graph (specs/state/situations.ts) that reach every
 * situation of the scope with few steps. Greedy: each walk starts from the starting state nearest
 * to a situation not covered yet, then keeps taking the step to the most novel uncovered situation
 * within reach (a new step and verdict first, then new states of the named records, then any new
 * situation; nearer first), the steps on the way covering theirs. Walks are planned most novel
 * first, so a budget that cuts the plan keeps its most novel walks. Ties go by a rank drawn from
 * the run seed and the situation, so a run seed gives one plan.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md,
 * "States and transitions".
 */
import type { Edge, SituationGraph } from '../../../specs/state/situations.js';

/** A planned step: an edge of the graph and the state it is taken from. */
export type PlannedStep = Edge & { from: number };

/** One planned walk: its starting state and the steps it takes, each from the state the one before led to. */
export interface PlannedWalk {
  start: number;
  steps: PlannedStep[];
}

export interface Plan {
  walks: PlannedWalk[];
  /** Situations (indices) the plan's steps exercise. */
  covered: Set<number>;
  /** Steps of all walks. */
  steps: number;
}

export interface PlanOptions {
  seed: number;
  /** Most steps of one walk. */
  walkSteps: number;
  /** Most steps of the whole plan (walks stop being planned past it); default: no bound. */
  stepBudget?: number;
  /** Most walks of the plan; default: no bound. */
  maxWalks?: number;
  /** How far (steps) a walk looks for its next situation before it ends. */
  reach?: number;
  /** Situations covered already (by the tours): the plan does not aim at them. */
  covered?: Iterable<number>;
  /** The starting states the target can post (default: all of the graph's). */
  starts?: readonly number[];
}

/** A 32-bit mix of the seed and an index (murmur3's finalizer): the rank of a situation among equally good ones. */
function rank(seed: number, i: number): number {
  let h = (Math.imul(i + 1, 0x9e3779b1) ^ seed) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** What is covered so far: situations and their coarser classes. */
class Covered {
  readonly situations = new Set<number>();
  private readonly tiers: [Uint8Array, Uint8Array];

  constructor(private readonly g: SituationGraph) {
    this.tiers = [new Uint8Array(g.tiers[0].length), new Uint8Array(g.tiers[1].length)];
  }

  /** 3: its step and verdict are new; 2: the named records' states are; 1: the situation is; 0: covered. */
  novelty(situation: number): number {
    if (this.situations.has(situation)) return 0;
    const [t0, t1] = this.g.situations[situation]!.tiers;
    return !this.tiers[0][t0] ? 3 : !this.tiers[1][t1] ? 2 : 1;
  }

  add(situation: number): void {
    this.situations.add(situation);
    const [t0, t1] = this.g.situations[situation]!.tiers;
    this.tiers[0][t0] = 1;
    this.tiers[1][t1] = 1;
  }
}

/**
 * The best situation within `reach` steps of the states `from` (one state, or every starting
 * state): highest `worth` (0: not wanted), then nearest, then by rank; with the path to it, the target last.
 */
function search(
  g: SituationGraph,
  worth: (situation: number) => number,
  from: number[],
  reach: number,
  ranks: Uint32Array,
): PlannedStep[] | undefined {
  const parent = new Map<number, PlannedStep | null>(from.map((s) => [s, null]));
  let layer = [...from];
  let best: { at: PlannedStep; novelty: number; distance: number; rank: number } | undefined;
  for (let distance = 0; distance <= reach && layer.length; distance++) {
    const next: number[] = [];
    for (const state of layer)
      for (const edge of g.edges[state]!) {
        const novelty = worth(edge.situation);
        const r = ranks[edge.situation]!;
        if (
          novelty &&
          (!best || novelty > best.novelty || (novelty === best.novelty && distance === best.distance && r < best.rank))
        )
          best = { at: { ...edge, from: state }, novelty, distance, rank: r };
        if (!parent.has(edge.next)) {
          parent.set(edge.next, { ...edge, from: state });
          next.push(edge.next);
        }
      }
    layer = next;
  }
  if (!best) return undefined;
  const path = [best.at];
  for (let e = parent.get(best.at.from); e; e = parent.get(e.from)) path.unshift(e);
  return path;
}

/**
 * Plans walks that cover the graph's situations, most novel first, within the options' bounds.
 * @returns the walks, the situations they cover and their steps
 */
export function planWalks(g: SituationGraph, options: PlanOptions): Plan {
  const covered = new Covered(g);
  for (const s of options.covered ?? []) covered.add(s);
  const already = covered.situations.size;
  const ranks = Uint32Array.from(g.situations, (_, i) => rank(options.seed, i));
  const walks: PlannedWalk[] = [];
  const reach = options.reach ?? 4;
  const budget = options.stepBudget ?? Number.POSITIVE_INFINITY;
  const most = options.maxWalks ?? Number.POSITIVE_INFINITY;
  let steps = 0;
  while (steps < budget && walks.length < most) {
    const novelty = (situation: number) => covered.novelty(situation);
    let path = search(g, novelty, [...(options.starts ?? g.starts)], Number.POSITIVE_INFINITY, ranks);
    if (!path) break;
    const walk: PlannedWalk = { start: path[0]!.from, steps: [] };
    while (path && walk.steps.length + path.length <= options.walkSteps && steps + path.length <= budget) {
      for (const e of path) covered.add(e.situation);
      walk.steps.push(...path);
      steps += path.length;
      path = search(g, novelty, [path.at(-1)!.next], reach, ranks);
    }
    if (!walk.steps.length) break;
    walks.push(walk);
  }
  const mine = new Set([...covered.situations].slice(already));
  return { walks, covered: mine, steps };
}

/**
 * The nearest way from state `from` to a step exercising one of `targets` (a walk that left its
 * plan, because the deployment took an outcome the plan did not assume, finds its way back).
 * @returns the steps, the target last; undefined when none is within `reach`
 */
export function pathToAny(
  g: SituationGraph,
  from: number,
  targets: ReadonlySet<number>,
  reach = 4,
): PlannedStep[] | undefined {
  return search(g, (s) => (targets.has(s) ? 1 : 0), [from], reach, new Uint32Array(g.situations.length));
}

/**
 * The plan's walks dealt into `parts` checks, each walk to the part with the fewest steps so far
 * (in plan order, so the most novel walks spread over every part).
 */
export function dealWalks(plan: Plan, parts: number): PlannedWalk[][] {
  const out: PlannedWalk[][] = Array.from({ length: parts }, () => []);
  const steps = new Array<number>(parts).fill(0);
  for (const walk of plan.walks) {
    const i = steps.indexOf(Math.min(...steps));
    out[i]!.push(walk);
    steps[i]! += walk.steps.length + 1;
  }
  return out;
}

/** The situations (indices) some step from a state reachable from `starts` exercises. */
export function reachableSituations(g: SituationGraph, starts: readonly number[]): Set<number> {
  const seen = new Set(starts);
  const queue = [...starts];
  const out = new Set<number>();
  while (queue.length)
    for (const e of g.edges[queue.shift()!]!) {
      out.add(e.situation);
      if (!seen.has(e.next)) {
        seen.add(e.next);
        queue.push(e.next);
      }
    }
  return out;
}
