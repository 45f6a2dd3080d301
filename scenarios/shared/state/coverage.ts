/**
 * Coverage of the state table by the walks of one check, in two kinds of keys:
 * - a (state, operation) pair: a step kind and the states of the records it names, e.g. `restore: soft-deleted` or
 *   `merge: active, retired`;
 * - a two-step sequence: a step kind naming a record (in a role) that an earlier accepted step of the same walk
 *   touched, as a named record or as another source of a named record's identity (`~`), e.g. `link(moved) ->
 *   deactivate` or `merge(~retired) -> restore`.
 *
 * Walks steer towards keys not exercised yet (scenarios/shared/walk/steer.ts). Each walk sees the keys of the walks
 * before it as they stood when fast-check generated it (a frozen set), plus its own: so a walk's steps depend only on
 * its generated commands and what the deployment answered, and a shrunk or replayed walk chooses as the original did.
 *
 * Source: organization-identity-api.md and person-provider-identity-api.md, "States and transitions".
 */
import type { KindName } from '../../../specs/state/step-names.js';
import { type ModelRecord, type RecordState, type StepKeys, isLive } from '../../../specs/state/identity-model.js';

/** The parts of a step kind the keys name. */
export interface KeyedKind {
  name: KindName;
  /** How many records it names. */
  roles: number;
  /** Role of each named record (empty for a one-record step). */
  roleNames: readonly string[];
}

export type { StepKeys } from '../../../specs/state/identity-model.js';

/** Role of the i-th named record, in parentheses, or nothing. */
const roleText = (k: KeyedKind, i: number) => (k.roleNames[i] ? `(${k.roleNames[i]})` : '');

/** A step kind and role as a follow-up of a tag: `unlink(from)`. */
export const roleOf = (k: KeyedKind, i: number) => `${k.name}${roleText(k, i)}`;

/** The follow-up key of a tag: `link(moved) -> deactivate`. */
export const followUpKey = (tag: string, role: string) => `${tag} -> ${role}`;

/**
 * A record's state as the keys name it: its state, and whether its identity (for a soft-deleted or retired record, the
 * one it left) holds other live records. The reply rows of the state table differ by it (restore rejoins an identity or
 * creates one; delete modifies or deletes one).
 */
export function situation(r: ModelRecord, records: readonly ModelRecord[]): string {
  const shared = r.state !== 'deleted' && records.some((s) => s !== r && isLive(s) && s.group === r.group);
  return shared ? `${r.state} (shared)` : r.state;
}

/** The tags of a record's history that still hold (an entry bound to a merge ends with it). */
export function heldTags(r: ModelRecord, records: readonly ModelRecord[]): string[] {
  return r.history
    .filter((h) => !h.bond || records.find((x) => x.label === h.bond!.label)?.state === h.bond.state)
    .map((h) => h.tag);
}

/**
 * The categories (specs/common/categories.ts) a step of kind `k` naming `recs` exercises, as the records stand before
 * it: per named record, by its role, how many live records its identity holds (1, 2, 3+) and whether sources were
 * merged into it; for a restore, whether the identity the soft-deleted source left still has live records.
 */
export function stepCategories(k: KeyedKind, recs: readonly ModelRecord[], records: readonly ModelRecord[]): string[] {
  const members = (r: ModelRecord) => records.filter((x) => isLive(x) && x.group === r.group).length;
  return recs.flatMap((r, i) => {
    const role = k.roleNames[i] ?? 'source';
    const n = isLive(r) ? members(r) : 0;
    return [
      ...(n ? [`identity-of-${role}:${n >= 3 ? '3+' : n}`] : []),
      ...(records.some((x) => x.state === 'retired' && x.retiredInto === r.label) ? [`merged-into-${role}`] : []),
      // A soft-deleted record keeps the identity it left: does it still have live records?
      ...(k.name === 'restore' && r.state === 'soft-deleted'
        ? [`restore:former-${members(r) ? 'alive' : 'gone'}`]
        : []),
    ];
  });
}

/** The keys a step of kind `k` naming `recs` would exercise from the current state of `records`. */
export function stepKeys(k: KeyedKind, recs: readonly ModelRecord[], records: readonly ModelRecord[]): StepKeys {
  const states = recs.map((r) => r.state);
  const named = recs.map((r) => situation(r, records));
  const held = recs.map((r, i) => (recs.indexOf(r) === i ? heldTags(r, records) : []));
  const sequences = held.flatMap((tags, i) => tags.map((h) => `${followUpKey(h, roleOf(k, i))} ${named[i]}`));
  const followUps = held.flatMap((tags, i) => tags.map((h) => followUpKey(h, roleOf(k, i))));
  return {
    kind: k.name,
    states,
    pair: named.length ? `${k.name}: ${named.join(', ')}` : k.name,
    sequences: [...new Set(sequences)],
    followUps: [...new Set(followUps)],
    categories: [...new Set(stepCategories(k, recs, records))].map((c) => `${k.name}: ${c}`),
  };
}

/**
 * History tags a step leaves when accepted: `kind(role)` on each named record, `kind(~role)` on the other sources of
 * its identity. Computed before the step (the identities as they were).
 */
export function historyTags(
  k: KeyedKind,
  recs: readonly ModelRecord[],
  all: readonly ModelRecord[],
): Map<ModelRecord, string[]> {
  const tags = new Map<ModelRecord, string[]>();
  const add = (r: ModelRecord, t: string) => tags.set(r, [...(tags.get(r) ?? []), t]);
  recs.forEach((r, i) => {
    add(r, `${k.name}${roleText(k, i)}`);
    if (r.state === 'deleted') return;
    // Sources of the same identity, former members included (a soft-deleted or retired source keeps the identity it
    // left).
    for (const s of all)
      if (!recs.includes(s) && s.state !== 'deleted' && s.group === r.group)
        add(s, `${k.name}(~${k.roleNames[i] ?? ''})`);
  });
  return tags;
}

/** Adds the tags of an accepted step to the records' histories, bound to `bond`'s state after the step when given. */
export function addHistory(tags: Map<ModelRecord, string[]>, bond?: ModelRecord): void {
  const b = bond ? { label: bond.label, state: bond.state } : undefined;
  for (const [r, t] of tags)
    r.history = [...r.history.filter((h) => !t.includes(h.tag)), ...t.map((tag) => (b ? { tag, bond: b } : { tag }))];
}

/** Keys exercised by the walks of one check, with how often. */
export class CoverageTally {
  readonly pairs = new Map<string, number>();
  readonly sequences = new Map<string, number>();
  readonly followUps = new Set<string>();
  /** State-table cells: per step kind, the states its named records were in. */
  readonly cells = new Map<string, Set<RecordState>>();
  /** Categories exercised (`unlink: identity-of-from:3+`), with how often. */
  readonly categories = new Map<string, number>();
  /** Categories a step fitting the state table could have exercised in some walk (steer.ts). */
  readonly offered = new Set<string>();

  add(keys: StepKeys): void {
    this.pairs.set(keys.pair, (this.pairs.get(keys.pair) ?? 0) + 1);
    for (const c of keys.categories) this.categories.set(c, (this.categories.get(c) ?? 0) + 1);
    for (const s of keys.sequences) this.sequences.set(s, (this.sequences.get(s) ?? 0) + 1);
    for (const f of keys.followUps) this.followUps.add(f);
    const cell = this.cells.get(keys.kind) ?? new Set();
    for (const s of keys.states) cell.add(s);
    this.cells.set(keys.kind, cell);
  }

  /** The keys exercised so far, as a set a walk can read while this tally goes on growing. */
  freeze(): ReadonlySet<string> {
    return new Set([...this.pairs.keys(), ...this.sequences.keys(), ...this.followUps, ...this.categories.keys()]);
  }

  /** Adds what a walk's steering saw could be exercised (IdentityModel.offered). */
  offer(categories: Iterable<string>): void {
    for (const c of categories) this.offered.add(c);
  }

  /**
   * What the walks covered, for the check's output and note: the state-table cells (step kind x the service's record
   * states) exercised and those not, then every pair and sequence with counts.
   */
  summary(kinds: readonly KeyedKind[], states: readonly RecordState[], walks: number, steps: number): string {
    const named = kinds.filter((k) => k.roles > 0);
    const missing = named.flatMap((k) =>
      states.filter((s) => !this.cells.get(k.name)?.has(s)).map((s) => `${k.name} from ${s}`),
    );
    const cellCount = named.length * states.length;
    const list = (m: Map<string, number>) =>
      [...m]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k} x${n}`)
        .join('; ');
    return [
      `coverage of the state table: ${walks} walks, ${steps} steps; (operation, state) cells ` +
        `${cellCount - missing.length}/${cellCount}; ${this.pairs.size} (state, operation) pairs; ` +
        `${this.sequences.size} two-step sequences`,
      `  cells not exercised: ${missing.join('; ') || 'none'}`,
      `  categories (specs/common/categories.ts): ${list(this.categories) || 'none'}`,
      `  categories offered by an allowed step but not exercised: ${
        [...this.offered]
          .filter((c) => !this.categories.has(c))
          .sort()
          .join('; ') || 'none'
      }`,
      `  pairs: ${list(this.pairs)}`,
      `  sequences: ${list(this.sequences)}`,
    ].join('\n');
  }
}
