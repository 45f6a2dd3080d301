/**
 * The situations of a service's state table, enumerated from the pure state engine
 * (specs/state/state-engine.ts), not listed: breadth-first over step sequences on a small universe
 * (a few source records over one or two sources, of each identity kind the service has, native IDs
 * that coincide across sources), every reachable abstract state, canonical under renaming of
 * records and sources. A situation is a step the row judges (allowed, inert or rejected) together
 * with the records its row concerns as they stand before it (specs/state/situation-key.ts); a step
 * the seeds leave open is counted, not planned: its outcome is not stated, so neither is anything
 * after it.
 *
 * The dimensions of a state are the ones the engine keeps on its records (SpecRecord): state,
 * identity, the record it was retired into, kind, and (in wider scopes) the step that put it in its
 * state and its data marks; and the ones the run chooses when it posts them: each record's source,
 * and which records share a native ID.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md,
 * "States and transitions".
 */
import {
  type AbstractRecord,
  type AbstractStep,
  type Scope,
  type Verdict,
  canonical,
  canonicalOrders,
  relabel,
} from './abstract-state.js';
import { situationKey, tiersOf } from './situation-key.js';
import { applyStep } from './state-engine.js';
import { type RowSpec, type StateSpec, StateModel } from './state-spec.js';
import type { StepName } from './step-names.js';

export type { AbstractRecord, AbstractStep, Scope, Verdict } from './abstract-state.js';

/** A step from a state: what the row says of it, the state it leads to, and the situation it exercises. */
export interface Edge {
  step: AbstractStep;
  verdict: Exclude<Verdict, 'open'>;
  /** Index of the state after it (the same state for a step that changes nothing). */
  next: number;
  /** Index of the situation it exercises. */
  situation: number;
}

/** A canonical abstract state: its key and its records in canonical order, labelled A, B, C, ... */
export interface AbstractState {
  key: string;
  records: AbstractRecord[];
}

/** One situation, with its coarser classes (the step and verdict; and the named records' states). */
export interface SituationInfo {
  key: string;
  step: StepName;
  verdict: Exclude<Verdict, 'open'>;
  /**
   * Indices of `<step> <verdict>` and of `<step> <verdict>: <named records' states>` in SituationGraph.tiers: how novel
   * a situation is.
   */
  tiers: [number, number];
}

/** The enumerated state graph of a service in a scope; states, situations and tiers by index. */
export interface SituationGraph {
  scope: Scope;
  /** Indices of the starting states (records posted together, one per class of sources, kinds and native IDs). */
  starts: number[];
  states: AbstractState[];
  /** State index by key. */
  stateIndex: Map<string, number>;
  /** The judged steps from each state, by state index. */
  edges: Edge[][];
  situations: SituationInfo[];
  /** Situation index by key. */
  situationIndex: Map<string, number>;
  /** The two tiers' classes: texts by index. */
  tiers: [string[], string[]];
  /** Situations whose step the seeds leave open (counted, not planned). */
  open: number;
}

/**
 * The scope of a run (CONFORMANCE_SCOPE): three records over two sources, every step the rows judge; the full scope
 * adds records of two sources that share a native ID. A target with one source reaches the situations of one source
 * (scenarios/shared/walk/walk-plan.ts planFor lists the others as not reached).
 */
export function scopeOf(scope: 'default' | 'full'): Scope {
  return { records: 3, sources: 2, sharedNativeIds: scope === 'full', history: false, marks: false };
}

/** Every tuple of `n` indices below `count` (a record may fill several roles). */
function tuples(count: number, n: number): number[][] {
  if (n === 0) return [[]];
  return tuples(count, n - 1).flatMap((t) => Array.from({ length: count }, (_, i) => [...t, i]));
}

/** Labels A, B, C, ... for the universe's records. */
export const universeLabel = (i: number) => String.fromCharCode(65 + i);

/** A copy of a record deep enough for the engine, which replaces (never mutates) `data` and its arrays. */
const copy = (r: AbstractRecord): AbstractRecord => ({ ...r, data: { ...r.data } });

/** A model of the engine over copies of `recs`, new identities numbered after every identity they name. */
function modelOf(recs: readonly AbstractRecord[]): StateModel<AbstractRecord> {
  const copies = recs.map(copy);
  const named = copies.flatMap((r) => [
    r.group,
    r.mergedGroup ?? 0,
    r.leftMatchingIn ?? 0,
    ...(r.data.absentFrom ?? []).map((a) => a.group),
  ]);
  return StateModel.of(copies, Math.max(0, ...named) + 1);
}

/** Native-ID classes: each record its own, or (where the scope allows) two records of different sources sharing one. */
function nativeIdClasses(sources: number[], shared: boolean): number[][] {
  const own = sources.map((_, i) => i);
  const out = [own];
  if (shared)
    for (let a = 0; a < sources.length; a++)
      for (let b = a + 1; b < sources.length; b++)
        if (sources[a] !== sources[b]) out.push(own.map((x) => (x === b ? a : x)));
  return out;
}

/**
 * The starting states of a scope: `records` active records, each an identity of its own, over every
 * assignment of sources, identity kinds and shared native IDs, one per class under renaming.
 */
export function startStates(spec: StateSpec, scope: Scope): AbstractState[] {
  const kinds = spec.kinds ?? [undefined];
  const out = new Map<string, AbstractState>();
  for (const sources of tuples(scope.sources, scope.records))
    for (const kindOf of tuples(kinds.length, scope.records))
      for (const nativeIds of nativeIdClasses(sources, scope.sharedNativeIds)) {
        const recs: AbstractRecord[] = sources.map((source, i) => ({
          label: universeLabel(i),
          state: 'active',
          group: i + 1,
          source,
          nativeId: nativeIds[i]!,
          ...(spec.kinds ? { kind: kinds[kindOf[i]!] } : {}),
          data: {},
        }));
        const { key, order } = canonical(recs, scope);
        if (!out.has(key)) out.set(key, { key, records: relabel(recs, order, universeLabel) });
      }
  return [...out.values()];
}

/** The records after an allowed step (copies; `recs` is left as it was), in their own order and labels. */
export function recordsAfter(row: RowSpec, recs: readonly AbstractRecord[], roles: number[]): AbstractRecord[] {
  const m = modelOf(recs);
  applyStep(
    m,
    row,
    roles.map((i) => m.records[i]!),
    'allow',
  );
  return m.records;
}

/** The state after an allowed step, in canonical form. */
export function stateAfter(
  row: RowSpec,
  recs: readonly AbstractRecord[],
  roles: number[],
  scope: Scope,
): AbstractState {
  const after = recordsAfter(row, recs, roles);
  const { key, order } = canonical(after, scope);
  return { key, records: relabel(after, order, universeLabel) };
}

/** The rows a walk takes from a state of the universe (posting a new identity adds a record: outside it). */
export const universeRows = (spec: StateSpec) => spec.rows.filter((r) => r.step !== 'post new identity');

/** What the row says of a step naming `roles` in the model `m` (read, never changed). */
function verdictOf(row: RowSpec, m: StateModel<AbstractRecord>, roles: number[]): Verdict {
  return row.request(
    m,
    roles.map((i) => m.records[i]!),
  ).verdict;
}

/** Most states a scope may have: past it the scope is too wide to plan, and the enumeration says so. */
const MOST_STATES = 100_000;

/** Interns texts as indices. */
function interner(list: string[], index: Map<string, number>): (text: string) => number {
  return (text) => {
    let i = index.get(text);
    if (i === undefined) index.set(text, (i = list.push(text) - 1));
    return i;
  };
}

/** Adds a state to the graph (once) and returns its index; a new one is queued for the search. */
function addState(g: SituationGraph, s: AbstractState): number {
  const known = g.stateIndex.get(s.key);
  if (known !== undefined) return known;
  g.stateIndex.set(s.key, g.states.length);
  g.states.push(s);
  return g.states.length - 1;
}

/** The judged steps from state `at`, each with the situation it exercises; counts the open ones in `open`. */
function edgesFrom(
  spec: StateSpec,
  g: SituationGraph,
  at: number,
  open: Set<string>,
  tier: Array<(t: string) => number>,
): Edge[] {
  const s = g.states[at]!;
  const { orders } = canonicalOrders(s.records, g.scope);
  const m = StateModel.of(s.records as AbstractRecord[], 0);
  const edges: Edge[] = [];
  const taken = new Set<string>();
  for (const row of universeRows(spec))
    for (const roles of tuples(s.records.length, row.roles.length)) {
      // A step and its image under a renaming that keeps the state are one step.
      const least = `${row.step}(${leastRoles(roles, orders)})`;
      if (taken.has(least)) continue;
      taken.add(least);
      const verdict = verdictOf(row, m, roles);
      const step = { step: row.step, roles };
      const key = situationKey(spec, s.records, step, verdict, g.scope);
      if (verdict === 'open') {
        open.add(key);
        continue;
      }
      const next = verdict === 'allow' ? addState(g, stateAfter(row, s.records, roles, g.scope)) : at;
      let situation = g.situationIndex.get(key);
      if (situation === undefined) {
        const [t0, t1] = tiersOf(spec, s.records, step, verdict);
        situation = g.situations.push({ key, step: row.step, verdict, tiers: [tier[0]!(t0), tier[1]!(t1)] }) - 1;
        g.situationIndex.set(key, situation);
      }
      edges.push({ step, verdict, next, situation });
    }
  return edges;
}

/**
 * The state graph of a service in a scope, by breadth-first search from the starting states.
 * @throws Error when the scope has more than MOST_STATES states
 */
export function enumerate(spec: StateSpec, scope: Scope): SituationGraph {
  const g: SituationGraph = {
    scope,
    starts: [],
    states: [],
    stateIndex: new Map(),
    edges: [],
    situations: [],
    situationIndex: new Map(),
    tiers: [[], []],
    open: 0,
  };
  const tier = [interner(g.tiers[0], new Map()), interner(g.tiers[1], new Map())];
  const open = new Set<string>();
  for (const s of startStates(spec, scope)) g.starts.push(addState(g, s));
  for (let at = 0; at < g.states.length; at++) {
    if (g.states.length > MOST_STATES)
      throw new Error(`${spec.service}: more than ${MOST_STATES} states in scope ${JSON.stringify(scope)}`);
    g.edges[at] = edgesFrom(spec, g, at, open, tier);
  }
  g.open = open.size;
  return g;
}

/**
 * The least image of a role tuple under a state's automorphisms (orders map a canonical index to an index of the
 * state's records).
 */
function leastRoles(roles: number[], orders: number[][]): string {
  return orders.map((o) => roles.map((r) => o.indexOf(r)).join(',')).sort()[0]!;
}
