/**
 * The identity model the walks check a deployment against: the walk's own source records, the
 * state of each (active, soft-deleted, retired (merged), deleted; person: deactivated) and the
 * partition of the live records into identities. Identities are model groups (numbers); the
 * deployment's link IDs are matched to them by observation, so link IDs may be renamed freely.
 *
 * Source: organization-identity-api.md, "States and transitions" (restated for person and
 * provider in person-provider-identity-api.md, "States and transitions").
 * A record in state `unknown` is one whose state the seeds do not pin after a step they leave
 * "not shown" and the deployment accepted: the walk stops asserting anything about it.
 */
import type { SourceRef } from '../../../specs/common/wire.js';

export type RecordState = 'active' | 'soft-deleted' | 'retired' | 'deleted' | 'deactivated' | 'unknown';

/** The coverage keys one step exercises. */
export interface StepKeys {
  kind: string;
  /** States of the named records before the step. */
  states: RecordState[];
  pair: string;
  sequences: string[];
  /** The sequences without the named records' situations (`link(moved) -> deactivate`): which follow-ups a tag has had. */
  followUps: string[];
}

/**
 * What the seeds say about one step from the current state: allowed (must succeed and move as the
 * row says), rejected (must fail), either (open: the named records then follow the deployment),
 * or inert (the step may be accepted or rejected, but must change nothing: restoring or
 * reactivating a hard-deleted source, whose preconditions are "not shown" while "all information
 * of the source is removed").
 */
export type Verdict = 'allow' | 'reject' | 'either' | 'inert';

export interface ModelRecord {
  /** Walk-local name shown in step listings: A, B, C, ... */
  label: string;
  source: SourceRef;
  identity: Record<string, unknown>;
  state: RecordState;
  /** Model identity the record belongs to while live (active or deactivated). */
  group: number;
  /** Label of the record it was retired into (state retired). */
  retiredInto?: string;
  /** Model identity the record was retired into (its survivor's identity at the time of the merge). */
  mergedGroup?: number;
  /** Identity kind where the service has several (provider: practitioner or facility). */
  kind?: string;
  /** Accepted steps of this walk that touched the record (scenarios/shared/model/coverage.ts). */
  history: HistoryEntry[];
}

/**
 * An accepted earlier step that touched a record: its tag (`link(moved)`, `merge(~retired)`), and,
 * when the step's effect lives in another record's state (a merge: the retired record), that
 * record and state: the entry counts only while they hold (an unmerge or a deletion ends it).
 */
export interface HistoryEntry {
  tag: string;
  bond?: { label: string; state: RecordState };
}

/** Records the seeds keep visible in identities (person: deactivated records stay visible). */
export const isLive = (r: ModelRecord) => r.state === 'active' || r.state === 'deactivated';

export class IdentityModel {
  readonly records: ModelRecord[] = [];
  private nextGroup = 1;
  /** Link ID of each model group at the last observation (to check replies that name the identity before a step). */
  lastLinks = new Map<number, string>();

  /** Steps run so far and the walk's bound (commands beyond it are skipped). */
  stepsRun = 0;
  maxSteps = Number.POSITIVE_INFINITY;

  /** Every new identity of one kind (the first of the service's kinds): tours that need same-kind records. */
  singleKind = false;

  /** Labels of the records the latest steps named, most recent first (walks favour chaining on them). */
  recent: string[] = [];

  /** Coverage keys exercised by the walks of the check before this one, as they stood when it was generated. */
  known: ReadonlySet<string> = new Set();
  /** Coverage keys this walk exercised so far, and per step. */
  readonly seen = new Set<string>();
  readonly exercised: StepKeys[] = [];

  exercise(keys: StepKeys): void {
    this.exercised.push(keys);
    for (const k of [keys.pair, ...keys.sequences, ...keys.followUps]) this.seen.add(k);
  }

  /** True when neither an earlier walk nor this one exercised the key. */
  isNew(key: string): boolean {
    return !this.known.has(key) && !this.seen.has(key);
  }

  touch(labels: string[]): void {
    this.recent = [...labels, ...this.recent.filter((l) => !labels.includes(l))];
  }

  /** Rank of a record by recency (0 = named by the latest step). */
  rank(r: ModelRecord): number {
    const i = this.recent.indexOf(r.label);
    return i < 0 ? this.recent.length + this.records.indexOf(r) : i;
  }

  newGroup(): number {
    return this.nextGroup++;
  }

  /** The model's mutable state, to observe a step again from the same starting point (a lagging deployment). */
  snapshot(): { records: ModelRecord[]; nextGroup: number } {
    return { records: this.records.map((r) => ({ ...r })), nextGroup: this.nextGroup };
  }

  restore(s: { records: ModelRecord[]; nextGroup: number }): void {
    s.records.forEach((r, i) => Object.assign(this.records[i]!, r));
    this.nextGroup = s.nextGroup;
  }

  add(source: SourceRef, identity: Record<string, unknown>, kind?: string): ModelRecord {
    const label = labelFor(this.records.length);
    const r: ModelRecord = { label, source, identity, state: 'active', group: this.newGroup(), kind, history: [] };
    this.records.push(r);
    return r;
  }

  get(label: string): ModelRecord | undefined {
    return this.records.find((r) => r.label === label);
  }

  /** Live members of a model group. */
  members(group: number): ModelRecord[] {
    return this.records.filter((r) => isLive(r) && r.group === group);
  }

  /** Live records by group. */
  groups(): Map<number, ModelRecord[]> {
    const out = new Map<number, ModelRecord[]>();
    for (const r of this.records) if (isLive(r)) out.set(r.group, [...(out.get(r.group) ?? []), r]);
    return out;
  }

  /** One line per record: label, state, identity; for step listings. */
  describe(): string {
    return this.records
      .map((r) => `${r.label}:${r.state}${isLive(r) ? `@${r.group}` : r.retiredInto ? `->${r.retiredInto}` : ''}`)
      .join(' ');
  }
}

/** The label of the walk's record number `i`: A to Z, then R26, R27, ... */
export const labelFor = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `R${i}`);
