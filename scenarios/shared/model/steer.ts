/**
 * Step selection by coverage: of the records (or pairs) a step could name, which first.
 *
 * Each option is scored by the coverage keys it would exercise that neither an earlier walk of
 * the check nor this walk exercised yet (scenarios/shared/model/coverage.ts): a new two-step
 * sequence counts 2, a new (state, operation) pair 1. Only records an accepted step touched have
 * a history, so new sequences are chains on the records earlier steps touched. Ties go to the
 * records the latest steps named (recency), so steps keep chaining on them.
 *
 * Everything here is read from the model (its records, its walk-local keys and the frozen keys of
 * earlier walks), never from state outside it: the same commands from the same model choose the
 * same records, during shrinking and in a replay with the same run seed.
 */
import { type KeyedKind, type StepKeys, followUpKey, heldTags, historyTags, roleOf, stepKeys } from './coverage.js';
import type { IdentityModel, ModelRecord } from './identity-model.js';

export interface Option {
  recs: ModelRecord[];
  keys: StepKeys;
  /** Weighted count of new keys. */
  score: number;
}

/** Weight of a new two-step sequence against a new (state, operation) pair. */
const SEQUENCE_WEIGHT = 2;

/** Recency of a tuple: the record the step moves (its last role) counts most; lower is more recent. */
const recency = (m: IdentityModel, recs: ModelRecord[]) => recs.reduce((n, r, i) => n + m.rank(r) * (i === recs.length - 1 ? 10 : 1), 0);

/** A step kind as steering sees it: its keys and the records that fit it. */
export interface SteerableKind extends KeyedKind {
  fit(m: IdentityModel): ModelRecord[][];
  /** The step removes the record it names (hard delete): nothing can follow on it. */
  removes?: boolean;
}

/** Weight of the follow-ups a step opens (tags it leaves whose follow-ups no step exercised yet), against one new sequence. */
const OPENING_WEIGHT = Number(process.env.OPENING_WEIGHT ?? 2);

/**
 * What a step opens: for each tag it would leave on a record that does not hold it yet, the share
 * of the step kinds and roles (of the walk) that have never followed that tag. A merge in a shared
 * identity, after which nothing was ever restored, opens more than another update.
 */
function opening(m: IdentityModel, k: SteerableKind, recs: ModelRecord[], peers: readonly SteerableKind[]): number {
  const roles = peers.flatMap((p) => Array.from({ length: p.roles }, (_, i) => roleOf(p, i)));
  let open = 0;
  for (const [r, tags] of historyTags(k, recs, m.records)) {
    if (k.removes && recs.includes(r)) continue;
    const held = heldTags(r, m.records);
    for (const t of tags) if (!held.includes(t)) open += roles.filter((role) => m.isNew(followUpKey(t, role))).length / roles.length;
  }
  return open;
}

const same = (a: ModelRecord[], b: ModelRecord[]) => a.length === b.length && a.every((r, i) => r === b[i]);

/**
 * The options of one step kind, best first: most new keys, then most recent records. Among the
 * records that fit it (`fitting`) or among all records. New sequences count only for records that
 * fit the step (a step from a state the seeds leave open or forbid counts for its new pair only),
 * so chains are built from steps the state table allows.
 */
export function rankOptions(m: IdentityModel, k: SteerableKind, fitting: boolean, peers: readonly SteerableKind[] = [k]): Option[] {
  const fit = m.records.length < k.roles ? [] : k.fit(m);
  const candidates = fitting ? fit : allTuples(m, k.roles);
  const scored = candidates.map((recs) => {
    const keys = stepKeys(k, recs, m.records);
    const fits = fitting || fit.some((f) => same(f, recs));
    const mode = process.env.STEER_MODE ?? 'sum';
    const newSeq = keys.sequences.filter((s) => m.isNew(s));
    const depth = Math.max(0, ...recs.map((r) => heldTags(r, m.records).length));
    const seqScore = mode === 'any' ? (newSeq.length ? 1 : 0) : mode === 'depth' ? (newSeq.length ? depth : 0) : newSeq.length;
    const score = (m.isNew(keys.pair) ? 1 : 0) + (fits ? SEQUENCE_WEIGHT * seqScore + OPENING_WEIGHT * opening(m, k, recs, peers) : 0);
    return { option: { recs, keys, score }, recent: recency(m, recs) };
  });
  return scored.sort((a, b) => b.option.score - a.option.score || a.recent - b.recent).map((s) => s.option);
}

/** Best score per model, by the number of steps the model has run (its state changes only with a step). */
const bests = new WeakMap<IdentityModel, { at: number; best: number }>();

/**
 * The best score any kind's fitting options reach from the model's current state. A command runs
 * when its own best option reaches it: so the walk takes, among the kinds its pool offers next,
 * the step that exercises most that is new, whatever the order fast-check generated.
 */
export function bestScore(m: IdentityModel, kinds: readonly SteerableKind[]): number {
  const at = m.exercised.length;
  const cached = bests.get(m);
  if (cached?.at === at) return cached.best;
  const best = Math.max(0, ...kinds.map((k) => rankOptions(m, k, true, kinds)[0]?.score ?? 0));
  bests.set(m, { at, best });
  return best;
}

/** Every tuple of `roles` records of the model (a record may fill both roles). */
export function allTuples(m: IdentityModel, roles: number): ModelRecord[][] {
  if (roles > m.records.length) return [];
  if (roles === 0) return [[]];
  if (roles === 1) return m.records.map((r) => [r]);
  return m.records.flatMap((a) => m.records.map((b) => [a, b]));
}
