/**
 * A service's walk plan for a run: the scope of its situations (specs/state/situations.ts) for the
 * run's target and CONFORMANCE_SCOPE, the enumerated graph, and the planned walks (plan.ts), each
 * computed once per process; and the situations the tours reach, which the plan takes as covered
 * (the tours are seeds of the plan).
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md,
 * "States and transitions".
 */
import type { RunBudgets } from '../../../harness/config.js';
import type { AbstractRecord, Scope } from '../../../specs/state/abstract-state.js';
import { situationKey } from '../../../specs/state/situation-key.js';
import { type SituationGraph, enumerate, recordsAfter, universeLabel } from '../../../specs/state/situations.js';
import { StateModel, rowOf } from '../../../specs/state/state-spec.js';
import { SERVICES } from '../../../specs/services.js';
import type { WalkConfig } from '../walk-config.js';
import type { Tour } from './commands.js';
import { type Plan, planWalks, reachableSituations } from './plan.js';

const graphs = new Map<string, SituationGraph>();

/** The service's situation graph in a scope (enumerated once per process). */
export function graphFor(config: WalkConfig, scope: Scope): SituationGraph {
  const key = `${config.service} ${JSON.stringify(scope)}`;
  let g = graphs.get(key);
  if (!g) graphs.set(key, (g = enumerate(config.spec, scope)));
  return g;
}

/** The situations (indices into the graph) a tour's steps exercise, replayed on the engine from its start. */
export function tourSituations(config: WalkConfig, g: SituationGraph, tour: Tour): number[] {
  const kinds = config.spec.kinds;
  let recs: AbstractRecord[] = Array.from({ length: g.scope.records }, (_, i) => ({
    label: universeLabel(i),
    state: 'active',
    group: i + 1,
    source: i % g.scope.sources,
    nativeId: i,
    ...(kinds ? { kind: kinds[tour.mixedKinds ? i % kinds.length : 0] } : {}),
    data: {},
  }));
  const out: number[] = [];
  for (const [step, ...labels] of tour.steps) {
    const name = step.replace(/^cross-type /, '') as Parameters<typeof rowOf>[1];
    const row = rowOf(config.spec, name);
    const roles = labels.map((l) => recs.findIndex((r) => r.label === l));
    const verdict = row.request(
      StateModel.of(recs, 0),
      roles.map((i) => recs[i]!),
    ).verdict;
    const s = g.situationIndex.get(situationKey(config.spec, recs, { step: row.step, roles }, verdict, g.scope));
    if (s !== undefined) out.push(s);
    if (verdict !== 'allow') continue;
    recs = recordsAfter(row, recs, roles);
  }
  return out;
}

const plans = new Map<string, RunPlanned>();

/** What a plan is made of: the run seed, the budgets, the target's sources and the tours it takes as covered. */
export interface PlanRequest {
  seed: number;
  budgets: Pick<RunBudgets, 'walks' | 'walkSteps' | 'scope' | 'embedded'>;
  /** Test sources the target has (ORG_SOURCES, ...): starting states spread over more cannot be posted. */
  sources: number;
  covered: readonly number[];
}

/** A plan, and the situations it leaves out with why. */
export interface RunPlanned {
  plan: Plan;
  /** Situations neither the tours nor the plan reach, and why. */
  left: Map<number, string>;
}

/**
 * The service's planned walks for a run (once per process and request): every situation of the scope the target can
 * reach and the tours do not, most novel first, in walks of at most `budgets.walkSteps` steps; with `budgets.walks`
 * (a configured deployment's default, or CONFORMANCE_WALKS), at most that many walks.
 */
export function planFor(config: WalkConfig, g: SituationGraph, request: PlanRequest): RunPlanned {
  const { seed, budgets } = request;
  const key = `${config.service} ${JSON.stringify(g.scope)} ${seed} ${request.sources} ${JSON.stringify(budgets)}`;
  const known = plans.get(key);
  if (known) return known;
  const bounded = budgets.walks > 0;
  const starts = g.starts.filter((i) => g.states[i]!.records.every((r) => r.source < request.sources));
  const plan = planWalks(g, {
    seed,
    walkSteps: budgets.walkSteps,
    covered: request.covered,
    starts,
    ...(bounded ? { stepBudget: budgets.walks * budgets.walkSteps, maxWalks: budgets.walks } : {}),
  });
  const reachable = reachableSituations(g, starts);
  const tours = new Set(request.covered);
  const left = new Map<number, string>();
  for (let s = 0; s < g.situations.length; s++)
    if (!plan.covered.has(s) && !tours.has(s))
      left.set(
        s,
        reachable.has(s)
          ? `not planned: the walk budget (${budgets.walks} walks x ${budgets.walkSteps} steps, CONFORMANCE_WALKS x ` +
              'CONFORMANCE_WALK_STEPS); CONFORMANCE_SCOPE=full plans every situation'
          : `not planned: it needs records in ${g.scope.sources} sources, and the target has ${request.sources} ` +
              `(${SERVICES[config.service].envPrefix}_SOURCES)`,
      );
  const planned = { plan, left };
  plans.set(key, planned);
  return planned;
}
