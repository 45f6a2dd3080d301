/**
 * The abstract state the situation enumeration (specs/state/situations.ts) walks: the engine's
 * records (specs/state/state-spec.ts SpecRecord) with the identifiers the run chose for them, and
 * their canonical form under renaming of records and sources, so that two states that differ only
 * in names are one state.
 *
 * Source: organization-identity-api.md, "Resources and their fields" (a source record is identified
 * by a source name plus an identifier within that source), "States and transitions".
 */
import { type SpecRecord, isLive } from './state-spec.js';
import type { StepName } from './step-names.js';

/** A record of the abstract universe: the engine's record and the identifiers the run chose for it. */
export interface AbstractRecord extends SpecRecord {
  /** Index of its source among the scope's sources. */
  source: number;
  /** Records with the same number share a native ID (always in different sources). */
  nativeId: number;
}

/** The bounds of the enumeration, and which dimensions of a record its states keep. */
export interface Scope {
  /** Source records each walk starts from (posted together). */
  records: number;
  /** Sources the records are spread over. */
  sources: number;
  /** Records of different sources may share a native ID. */
  sharedNativeIds: boolean;
  /** The step that put each record in its state (`since`) is part of its state. */
  history: boolean;
  /** A record's data marks (where its values may show) are part of its state, as flags, where they still apply. */
  marks: boolean;
}

/** A step the enumeration takes: a row and the records it names, by index into the state's records. */
export interface AbstractStep {
  step: StepName;
  /** Indices of the named records, in the order of the row's roles (a record may fill several roles). */
  roles: number[];
}

/** What the state table says of a step from a state (specs/state/state-spec.ts RequestOutcome). */
export type Verdict = 'allow' | 'reject' | 'open' | 'inert';

/** States in which a record keeps an identity (a soft-deleted one: the one it left, which a restore returns it to). */
export const GROUP_STATES: ReadonlySet<string> = new Set(['active', 'deactivated', 'soft-deleted']);

/**
 * A record's data marks as flags, each only in the states where it still bears on a judgement:
 * `nowhere` while the record is out of every identity, `withSurvivor` and `history` while it is
 * retired (and `history` once deleted: the unmerge it forbids), absence marks while it is live.
 */
export function markFlags(r: SpecRecord): string {
  const d = r.data;
  const live = isLive(r);
  return [
    d.nowhere && !live ? 'n' : '',
    d.withSurvivor && r.state === 'retired' ? 's' : '',
    d.history && (r.state === 'retired' || r.state === 'deleted') ? 'h' : '',
    live && d.absentFrom?.some((a) => a.data) ? 'd' : '',
    live && d.absentFrom?.some((a) => !a.data) ? 'u' : '',
  ].join('');
}

/** Every permutation of 0..n-1. */
function permutations(n: number): number[][] {
  if (n <= 1) return [Array.from({ length: n }, (_, i) => i)];
  return permutations(n - 1).flatMap((p) =>
    Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]),
  );
}

const PERMS = new Map<number, number[][]>();
const permsOf = (n: number) => PERMS.get(n) ?? PERMS.set(n, permutations(n)).get(n)!;

/**
 * The records in the order `order`, sources renamed by `sources`, as a string: identities and
 * native IDs numbered by first appearance, so the text depends on the structure alone.
 */
function serialize(recs: readonly AbstractRecord[], order: number[], sources: number[], scope: Scope): string {
  const groups = new Map<number, number>();
  const ids = new Map<number, number>();
  const g = (n: number | undefined) => (n === undefined ? '-' : (groups.get(n) ?? groups.set(n, groups.size).get(n)!));
  const at = new Map(order.map((old, i) => [recs[old]!.label, i]));
  return order
    .map((old) => {
      const r = recs[old]!;
      return [
        r.state,
        sources[r.source],
        ids.get(r.nativeId) ?? ids.set(r.nativeId, ids.size).get(r.nativeId),
        r.kind ?? '',
        scope.history ? (r.since?.requirement ?? '') : '',
        GROUP_STATES.has(r.state) ? g(r.group) : '-',
        r.state === 'retired'
          ? `${at.get(r.retiredInto ?? '') ?? '?'}${scope.marks ? `/${g(r.mergedGroup)}` : ''}`
          : '-',
        r.state === 'deactivated' && scope.marks ? g(r.leftMatchingIn) : '-',
        scope.marks ? markFlags(r) : '',
      ].join(',');
    })
    .join(';');
}

/**
 * The canonical orders of a state's records (every order giving its least serialization: the
 * renamings that keep it) and that serialization, its key. An order maps a canonical position to
 * an index of `recs`.
 */
export function canonicalOrders(recs: readonly AbstractRecord[], scope: Scope): { key: string; orders: number[][] } {
  let key: string | undefined;
  let orders: number[][] = [];
  for (const sources of permsOf(scope.sources))
    for (const order of permsOf(recs.length)) {
      const k = serialize(recs, order, sources, scope);
      if (key === undefined || k < key) {
        key = k;
        orders = [order];
      } else if (k === key && !orders.some((o) => o.every((x, i) => x === order[i]))) orders.push(order);
    }
  return { key: key!, orders };
}

/** The canonical key of a state and one order that gives it. */
export function canonical(recs: readonly AbstractRecord[], scope: Scope): { key: string; order: number[] } {
  const { key, orders } = canonicalOrders(recs, scope);
  return { key, order: orders[0]! };
}

/** The records in `order`, labelled by `label` (retiredInto follows the labels). */
export function relabel(
  recs: readonly AbstractRecord[],
  order: number[],
  label: (i: number) => string,
): AbstractRecord[] {
  const names = new Map(order.map((old, i) => [recs[old]!.label, label(i)]));
  return order.map((old) => {
    const r = recs[old]!;
    return {
      ...r,
      data: { ...r.data },
      label: names.get(r.label)!,
      ...(r.retiredInto ? { retiredInto: names.get(r.retiredInto) } : {}),
    };
  });
}
