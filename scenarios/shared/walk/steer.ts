/**
 * Step selection by coverage: whether a generated command runs, and which records it names.
 *
 * Each option (a step kind and the records it would name) is scored by the coverage keys it would exercise that neither
 * an earlier walk of the check nor this walk exercised yet (scenarios/shared/state/coverage.ts): 2 when it exercises a
 * new two-step sequence, plus 1 for a new (state, operation) pair, plus 1 for a new category of a step that fits (the
 * multiplicities of specs/common/categories.ts: records in an identity, sources merged into a record). New sequences
 * count only for records that fit the step (a step from a state the seeds leave open or forbid counts for its new pair
 * only), so chains are built from steps the state table allows. Only records an accepted step touched have a history,
 * so new sequences are chains on the records earlier steps touched; ties go to the records the latest steps named
 * (recency).
 *
 * A command runs when its kind has an option with a new key, or when no kind has one (then the walk goes on as an
 * unsteered walk would). Everything is read from the model (its records, its walk-local keys and the frozen keys of
 * earlier walks), never from state outside it: the same commands from the same model choose the same steps, during
 * shrinking and in a replay with the same run seed.
 */
import { type KeyedKind, type StepKeys, stepKeys } from '../state/coverage.js';
import type { IdentityModel, ModelRecord } from '../../../specs/state/identity-model.js';

export interface Option {
  recs: ModelRecord[];
  keys: StepKeys;
  /** 2 for a new two-step sequence, plus 1 for a new (state, operation) pair, plus 1 for a new category. */
  score: number;
}

/** Weight of a new two-step sequence against a new (state, operation) pair. */
const SEQUENCE_WEIGHT = 2;

/**
 * Weight of a new category (specs/common/categories.ts: records in the identity, sources merged in) of a step the state
 * table allows: as much as a new pair, so a walk takes a step in a multiplicity not reached yet (an unlink from an
 * identity of three) when no sequence is new.
 */
const CATEGORY_WEIGHT = 1;

/** Recency of a tuple: the record the step moves (its last role) counts most; lower is more recent. */
const recency = (m: IdentityModel, recs: ModelRecord[]) =>
  recs.reduce((n, r, i) => n + m.rank(r) * (i === recs.length - 1 ? 10 : 1), 0);

/** A step kind as steering sees it: its keys and the records that fit it. */
export interface SteerableKind extends KeyedKind {
  fit(m: IdentityModel): ModelRecord[][];
}

const same = (a: ModelRecord[], b: ModelRecord[]) => a.length === b.length && a.every((r, i) => r === b[i]);

/** The options of one step kind, best first, among the records that fit it (`fitting`) or among all records. */
export function rankOptions(m: IdentityModel, k: SteerableKind, fitting: boolean): Option[] {
  const fit = m.records.length < k.roles ? [] : k.fit(m);
  const candidates = fitting ? fit : allTuples(m, k.roles);
  const scored = candidates.map((recs) => {
    const keys = stepKeys(k, recs, m.records);
    const fits = fitting || fit.some((f) => same(f, recs));
    const newSequence = fits && keys.sequences.some((s) => m.isNew(s));
    if (fits) for (const c of keys.categories) m.offered.add(c);
    const newCategory = fits && keys.categories.some((c) => m.isNew(c));
    const score =
      (m.isNew(keys.pair) ? 1 : 0) + (newSequence ? SEQUENCE_WEIGHT : 0) + (newCategory ? CATEGORY_WEIGHT : 0);
    return { option: { recs, keys, score }, recent: recency(m, recs) };
  });
  return scored.sort((a, b) => b.option.score - a.option.score || a.recent - b.recent).map((s) => s.option);
}

/**
 * Whether any kind has an option with a new key, per model, by the number of steps it has run (its state changes only
 * with a step).
 */
const anything = new WeakMap<IdentityModel, { at: number; any: boolean }>();

/** True when some kind's fitting options exercise a key not exercised yet. */
export function anythingNew(m: IdentityModel, kinds: readonly SteerableKind[]): boolean {
  const at = m.exercised.length;
  const cached = anything.get(m);
  if (cached?.at === at) return cached.any;
  const any = kinds.some((k) => (rankOptions(m, k, true)[0]?.score ?? 0) > 0);
  anything.set(m, { at, any });
  return any;
}

/** Every tuple of `roles` records of the model (a record may fill both roles). */
export function allTuples(m: IdentityModel, roles: number): ModelRecord[][] {
  if (roles > m.records.length) return [];
  if (roles === 0) return [[]];
  if (roles === 1) return m.records.map((r) => [r]);
  return m.records.flatMap((a) => m.records.map((b) => [a, b]));
}
