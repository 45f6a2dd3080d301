/**
 * The state tables as one executable specification: for each operation and each prior state of the records it touches
 * (the named ones, the other sources of their identities, and the sources retired into them), what the seeds say
 * happens to the records, the reply members and the notification feed, each outcome **required**, **forbidden** or
 * **open**, with the seed sentence it comes from. An open outcome leaves the records it concerns in state `unknown`:
 * any observation of them is accepted, and later steps are judged only on what is still stated.
 *
 * Single checks (scenarios/shared/rules) and the model-based walks (scenarios/shared/walk) both ask this specification,
 * through the model below, what to expect; neither writes an outcome of its own.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions" (each service's table: specs/<service>/state-spec.ts).
 */
import type { Cite, Clause } from '../common/clause.js';
import type { ServiceName } from '../common/model.js';
import type { OperationName } from '../common/operation-names.js';
import type { SeedCitation } from '../common/seed.js';
import type { StateTable } from './states.js';
import type { NotShownMembers } from '../common/source-requests.js';
import type { DataStepName, SourceStepName, StepName } from './step-names.js';
import type { SourceRef } from '../common/wire.js';

export type RecordState = 'active' | 'soft-deleted' | 'retired' | 'deactivated' | 'deleted' | 'unknown';

/**
 * Where a record's own attribute values may, must or must not be shown (kept on the record between steps), each mark
 * with what it cites: the requirement and the sentence that forbids otherwise.
 */
export interface DataMarks {
  /** Takes the record's values and its source out of every reply (hard delete; provider soft delete). */
  nowhere?: Cite;
  /**
   * Identities the record left by a step that takes it out of them: none of them lists it among its sources while it is
   * not one of their sources again, and, with `data`, none shows its values (an unmerge: "data ... taken from"; an
   * unlink only unlists it: whether its data still shows is open).
   */
  absentFrom?: Array<{ group: number; cite: Cite; data: boolean }>;
  /** While retired, its survivor's identity shows some of its values (provider merge: "holds combined data"). */
  withSurvivor?: Cite;
  /**
   * What keeps (or takes away) the record's merge history: an unmerge of it after a provider soft delete and restore
   * ("merge and linkage history kept"), or after its hard delete ("removes all information and history of the source,
   * including merge and unmerge history").
   */
  history?: Cite;
}

/** One source record of the model. */
export interface SpecRecord {
  readonly label: string;
  state: RecordState;
  /** The model identity the record belongs to while live (active or deactivated). */
  group: number;
  /** Label of the record it was retired into (state retired). */
  retiredInto?: string;
  /** The survivor's model identity at the time of the merge. */
  mergedGroup?: number;
  /**
   * The model identity a deactivated record was in when it was deactivated (person). Where an open outcome moved it
   * while it was out of matching, "returns to its original link ID" may mean either identity: its reactivation follows
   * the deployment.
   */
  leftMatchingIn?: number;
  /** Identity kind where the service has several (provider: practitioner or facility). */
  kind?: string;
  /** The step that put the record into its state: what a later deviation of this record breaks, and its sentence. */
  since?: Cite;
  data: DataMarks;
}

/** Records the seeds keep visible in identities (person: a deactivated record stays visible). */
export const isLive = (r: SpecRecord) => r.state === 'active' || r.state === 'deactivated';

/** The model's records and their partition into identities; link IDs are matched to model identities by observation. */
export class StateModel<R extends SpecRecord = SpecRecord> {
  readonly records: R[] = [];
  private nextGroup = 1;

  /** A model of `records` (used as they are), whose new identities are numbered from `nextGroup`. */
  static of<R extends SpecRecord>(records: R[], nextGroup: number): StateModel<R> {
    const m = new StateModel<R>();
    m.records.push(...records);
    m.nextGroup = nextGroup;
    return m;
  }

  newGroup(): number {
    return this.nextGroup++;
  }

  get(label: string): R | undefined {
    return this.records.find((r) => r.label === label);
  }

  /** Live members of a model identity. */
  members(group: number): R[] {
    return this.records.filter((r) => isLive(r) && r.group === group);
  }

  /** Live records by model identity. */
  groups(): Map<number, R[]> {
    const out = new Map<number, R[]>();
    for (const r of this.records) if (isLive(r)) out.set(r.group, [...(out.get(r.group) ?? []), r]);
    return out;
  }

  /** Records retired into `r`. */
  retiredInto(r: SpecRecord): R[] {
    return this.records.filter((x) => x.state === 'retired' && x.retiredInto === r.label);
  }

  /** The model's mutable state, to judge a step again from the same starting point (a lagging deployment). */
  snapshot(): { records: R[]; nextGroup: number } {
    return { records: this.records.map((r) => structuredClone(r)), nextGroup: this.nextGroup };
  }

  restore(s: { records: R[]; nextGroup: number }): void {
    s.records.forEach((r, i) => Object.assign(this.records[i]!, structuredClone(r)));
    this.nextGroup = s.nextGroup;
  }
}

/**
 * What the seeds say about sending an operation from the named records' states:
 * - `allow`: it must succeed, and the records move as the row says (a rejection breaks `requirement`);
 * - `reject`: it must be rejected (a success breaks `requirement`);
 * - `open`: either; after a success the records it touches follow what the deployment did;
 * - `inert`: either, but nothing may change (a change breaks `requirement`).
 */
export interface RequestOutcome {
  verdict: 'allow' | 'reject' | 'open' | 'inert';
  requirement?: string;
  seed: SeedCitation;
}

/**
 * The records an effect concerns: a named role, the other live sources of its identity, or the sources retired into it.
 */
export type Who = { role: string } | { membersOf: string } | { retiredInto: string };

/**
 * One outcome of an allowed step for some records, required or open.
 * - `state`: the records' state afterwards (`unknown`: open);
 * - `identity`: `stays` (same model identity), `new` (a new identity of its own), `{ joins: role }` (the identity of
 *   that role's record), `follows` (open: whatever identity the deployment gives it, but it stays live);
 * - `retiredInto`: the role it is retired into (merge);
 * - `data`: marks kept on the record (DataMarks) and, `shownNow`, values its identity must show right after the step:
 *   `all` of them (it stands alone) or `some`.
 */
export interface Effect {
  who: Who;
  /** Only for records in these states before the step (default: whatever their state). */
  when?: RecordState[];
  level: 'required' | 'open';
  /** What the outcome is, in words (for listings and failures). */
  what: string;
  state?: RecordState;
  identity?: 'stays' | 'new' | { joins: string } | 'follows';
  /** The identity's link ID is one never seen before (person: "a new link ID of its own"). */
  fresh?: boolean;
  /**
   * The identity's link ID is the one it had before the step (person reactivate: "returns to its original link ID").
   */
  sameLink?: boolean;
  retiredInto?: string;
  /**
   * The record was its identity's only source record (live, nothing merged into it, no record of unknown state about):
   * the whole identity goes with it, and no reply may present it again (person: "when it is the only source record of
   * an identity the whole identity is deleted").
   */
  identityGone?: Cite;
  data?: {
    nowhere?: boolean;
    /** The requirement that keeps or removes the record's merge history (DataMarks.history). */
    history?: string;
    /** The identity of this role no longer lists the record nor shows its values (DataMarks.absentFrom with data). */
    absentFromRole?: string;
    /** The identity of this role no longer lists the record among its sources (DataMarks.absentFrom without data). */
    unlistedFromRole?: string;
    withSurvivor?: boolean;
    shownNow?: 'all' | 'some';
  };
  /** Requirement a deviation breaks (default: the row's effect requirement); absent for open outcomes. */
  requirement?: string;
  seed: SeedCitation;
  /** An open outcome: what other sentences still forbid there (absent: nothing). */
  forbidden?: Forbidden[];
}

/** What a reply judge knows about the step: each role's identity link ID before and after it. */
export interface ReplyContext {
  before(role: string): string | undefined;
  after(role: string): string | undefined;
  /** True when the role's record was the only live source of its identity before the step. */
  aloneBefore(role: string): boolean;
  /**
   * True when the role's identity held, before the step, sources whose fate the seeds leave open: sources merged into
   * it, or sources of unknown state last seen in it.
   */
  heldUndecided(role: string): boolean;
  /** The source reference of the role's record. */
  source(role: string): { name: string; id: string } | undefined;
}

/**
 * One promise about a reply's members, as a clause (specs/common/clause.ts): its ID, what it rejects, what it requires
 * in words, the requirement and the sentence that forbids otherwise; `judge` returns the observations it rejects, in
 * words (empty: accepted).
 */
export interface ReplyClause extends Clause {
  requirement: string;
  what: string;
  seed: SeedCitation;
  /**
   * The category of the requirement the clause exercises when the reply carries `member` (specs/common/categories.ts).
   */
  category?: { id: string; member: string };
  judge(content: Record<string, any>, ctx: ReplyContext): string[];
}

/**
 * One row of the executable state table: an operation, the records it names, and every outcome; a row that names its
 * records by source only also builds its request (SourceRowSpec).
 */
export type RowSpec = SourceRowSpec | DataRowSpec;

/** What every row states. */
export interface RowBase {
  /** Wire operation. */
  operation: OperationName;
  /** Step name in walks and listings (`soft delete`, `merge`, `post new identity`). */
  step: StepName;
  /** The roles of the records it names, in request order (`survivor`, `retired`). */
  roles: readonly string[];
  /** The seed table's columns, for the state diagram (absent: a step outside the seed's table, e.g. posting). */
  table?: { from: string[] | 'any'; to: string; note?: string };
  seed: SeedCitation;
  /** The requirement the row's effect bears on (a rejected allowed step, a state that differs afterwards). */
  effectRequirement: string;
  /** The requirement of the row's reply members. */
  replyRequirement?: string;
  /** What the seeds say about sending it from the named records' states. */
  request(m: StateModel, recs: SpecRecord[]): RequestOutcome;
  /** Outcomes of an allowed, accepted step. */
  effects: Effect[];
  /** Named records that an accepted *open* step may have retired (their state becomes unknown). */
  openRetires?: string[];
  /**
   * The effects hold whenever the step is accepted, even from a state that leaves acceptance open (hard delete of a
   * source whose state is unknown).
   */
  openApplies?: boolean;
  reply: ReplyClause[];
  /** The change appears in the notification feed of its window. */
  feed?: { requirement: string; seed: SeedCitation };
}

/**
 * The request of a row that names records by source only: `sources` in the order of the row's roles, `members` the
 * profile's names for the members the seeds do not show; e.g. a merge `{ toSurviveSource: sources[0], toRetireSource:
 * sources[1] }`.
 */
export type RowContent = (sources: SourceRef[], members: NotShownMembers) => Record<string, unknown>;

/** A row whose request names records by source only, and builds that request: its wire member names live here alone. */
export interface SourceRowSpec extends RowBase {
  step: SourceStepName;
  content: RowContent;
}

/** A row whose request carries identity data: the walk builds it (specs/state/step-names.ts DataStepName). */
export interface DataRowSpec extends RowBase {
  step: DataStepName;
  content?: undefined;
}

/**
 * What identityIdQuery, nativeIdQuery, search and households must show, per service, each with the sentence it rests
 * on.
 */
export interface QueryRules {
  /** nativeIdQuery returns the identity holding the source. */
  nativeId: Cite;
  /** identityIdQuery of a link ID in use returns the identity with that link ID. */
  idQueryReturns: Cite;
  /** identityIdQuery echoes the requested link ID (absent where the service's reply members are not shown). */
  idQueryEcho?: Cite;
  /**
   * nativeIdQuery finds no soft-deleted source (where the profile says `softDeletedLookup: absent`, or the seeds state
   * it).
   */
  softDeletedAbsent?: Cite;
  /**
   * Person: "when it is the only source record of an identity the whole identity is deleted": once the hard delete of
   * an identity's only source record succeeds, no reply presents that identity.
   */
  deletedIdentityGone?: Cite;
  /**
   * A source record is held by a single identity: no identity but the one nativeIdQuery finds it in lists it among its
   * sources (person).
   */
  singleIdentity?: Cite;
  /**
   * A record whose sources are all in this state takes no part in matching: no search returns its identity (person
   * deactivated).
   */
  excludedFromMatching?: Cite;
  /** householdQuery by link ID, by source, by household ID (person). */
  households?: { byLinkId: string; bySource: string; byId: string; seed: SeedCitation };
}

/** The notification feed's promises a walk judges. */
export interface FeedRules {
  /** The pages of a closed window hold every notification once and as many as totalElements. */
  partition?: { requirement: string; seed: SeedCitation };
}

/**
 * What the seeds still forbid inside an open cell, with the sentence that forbids it: the cell's space of legal answers
 * is everything else.
 */
export interface Forbidden {
  what: string;
  seed: SeedCitation;
}

/**
 * An outcome the seeds leave open, with the sentence that leaves it open (listings, the report, the closing of an
 * issue).
 */
export interface OpenOutcome {
  operation: string;
  what: string;
  seed: SeedCitation;
  /** What other sentences still forbid there (absent: nothing). */
  forbidden?: Forbidden[];
}

export interface StateSpec {
  service: ServiceName;
  source: string;
  /** The seed's state names, for the diagram. */
  states: string[];
  /** The model state each diagram state stands for. */
  stateNames: Partial<Record<RecordState, string>>;
  rows: RowSpec[];
  queries: QueryRules;
  feed: FeedRules;
  /** Outcomes left open outside any row (what a query answers for a retired link ID, ...). */
  open: OpenOutcome[];
  /** Identity kinds that may not be merged or linked with each other (provider types). */
  kinds?: readonly string[];
}

/** A row by step name. @throws Error for a step the service does not have (person: no soft delete) */
export function rowOf(spec: StateSpec, step: SourceStepName): SourceRowSpec;
export function rowOf(spec: StateSpec, step: StepName): RowSpec;
export function rowOf(spec: StateSpec, step: StepName): RowSpec {
  // RowSpec is discriminated by `step`: the row of a source step is a SourceRowSpec.
  const row = spec.rows.find((r) => r.step === step);
  if (!row) throw new Error(`${spec.service}: no state-table row "${step}"`);
  return row;
}

/** Every open outcome of a service: those of its rows' effects and request outcomes, and the others. */
export function openOutcomes(spec: StateSpec): OpenOutcome[] {
  const fromEffects = spec.rows.flatMap((row) =>
    row.effects
      .filter((e) => e.level === 'open')
      .map((e) => ({
        operation: row.operation,
        what: e.what,
        seed: e.seed,
        ...(e.forbidden ? { forbidden: e.forbidden } : {}),
      })),
  );
  return [...fromEffects, ...spec.open];
}

/** The state table as the report draws it (the rows that are in the seed's table, with the seed's state names). */
export function stateTableOf(spec: StateSpec): StateTable {
  const name = (s: string) => spec.stateNames[s as RecordState] ?? s;
  return {
    service: spec.service,
    source: spec.source,
    states: spec.states,
    transitions: spec.rows.flatMap((r) =>
      r.table
        ? [
            {
              operation: r.operation,
              from: r.table.from === 'any' ? 'any' : r.table.from.map(name),
              to: name(r.table.to),
              note: r.table.note,
            },
          ]
        : [],
    ),
  };
}
