/**
 * The rows the three state tables share, as builders: each service's table (specs/<service>/state-spec.ts) calls them
 * with its own requirement IDs and seed sentences, and adds what only it states. Every outcome here is one of the
 * seed's statements (or silences) about a row; a builder's options say where the services' seeds differ.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import type { SeedCitation } from '../common/seed.js';
import type { DataRowSpec, Effect, RequestOutcome, SourceRowSpec, SpecRecord } from './state-spec.js';
import type { SourceStepName, StepName } from './step-names.js';
import { SOURCE_REQUESTS } from '../common/source-requests.js';
import {
  HARD_DELETE_REPLY_MISFILES_IDENTITY,
  RESTORE_REPLY_OMITS_IDENTITY,
  SOFT_DELETE_REPLY_OMITS_IDENTITY,
  replyClauses,
} from './reply-clauses.js';

/**
 * What every row of a service needs: the sentences that leave other prior states open, and the hard delete's promise.
 */
export interface RowCommon {
  /**
   * The sentence that leaves the prior states a row does not name open (absent: the row's own sentence, which names
   * only its "From" states).
   */
  further?: SeedCitation;
  /**
   * Requirement and sentence of "all information of the source is removed": nothing sent about a deleted source may
   * bring it back.
   */
  hardDelete: { requirement: string; seed: SeedCitation };
  /**
   * Sentence that leaves open what becomes of the sources retired into a record the step moves, deletes or takes out
   * (absent: `further`).
   */
  retiredFate?: SeedCitation;
  /** Requirement of the notification feed ("identity changes appear"), and which steps it covers. */
  feed?: { requirement: string; seed: SeedCitation; steps: readonly StepName[] };
}

export interface RowIds {
  effect: string;
  reply?: string;
  /**
   * Reply members that name a source of the request, each with the role whose source it names and the sentence that
   * lists it among the reply's members (organization: Endpoints table).
   */
  echoes?: { members: Array<[member: string, role: string]>; seed: SeedCitation };
}

export const active = (r: SpecRecord) => r.state === 'active';

/** The request outcome from the named records' states: inert on a deleted source, allowed when `ok`, open otherwise. */
export function gate(
  c: RowCommon,
  row: { seed: SeedCitation; effect: string },
  recs: SpecRecord[],
  ok: boolean,
): RequestOutcome {
  const deleted = recs.find((r) => r.state === 'deleted');
  if (deleted)
    return {
      verdict: 'inert',
      requirement: deleted.data.history?.requirement ?? c.hardDelete.requirement,
      seed: deleted.data.history?.forbids ?? c.hardDelete.seed,
    };
  if (ok) return { verdict: 'allow', requirement: row.effect, seed: row.seed };
  return { verdict: 'open', seed: c.further ?? row.seed };
}

export const feedOf = (c: RowCommon, step: StepName) =>
  c.feed?.steps.includes(step) ? { requirement: c.feed.requirement, seed: c.feed.seed } : undefined;

/**
 * The head of a row that names records by source only: its operation, its step, the roles of its records in request
 * order, and its request (specs/common/source-requests.ts).
 */
export const sourceRowHead = (
  operation: keyof typeof SOURCE_REQUESTS,
  step: SourceStepName,
  roles: readonly string[],
): Pick<SourceRowSpec, 'operation' | 'step' | 'roles' | 'content'> => ({
  operation,
  step,
  roles,
  content: SOURCE_REQUESTS[operation],
});

/**
 * A row's sentence and requirement IDs (`o`), and its request: allowed when `allowed` holds of the named records, inert
 * on a deleted one, open otherwise (gate).
 */
const gated = (c: RowCommon, o: RowIds & { seed: SeedCitation }, allowed: (recs: SpecRecord[]) => boolean) => ({
  seed: o.seed,
  effectRequirement: o.effect,
  ...(o.reply !== undefined ? { replyRequirement: o.reply } : {}),
  request: (_m: unknown, recs: SpecRecord[]) => gate(c, o, recs, allowed(recs)),
});

/** Records a step leaves in their identity (`who`), with `what` the row says of them. */
export const keepsIdentity = (who: Effect['who'], what: string, seed: SeedCitation): Effect => ({
  who,
  level: 'required',
  what,
  identity: 'stays',
  seed,
});

/** The sources retired into `role`: what becomes of them is open. */
export const retiredOpen = (c: RowCommon, role: string, seed?: SeedCitation): Effect => ({
  who: { retiredInto: role },
  level: 'open',
  what:
    `what becomes of the sources merged into ${role === 'source' ? 'it' : `the ${role} source`} (their state and ` +
    `identity)`,
  state: 'unknown',
  seed: c.retiredFate ?? c.further ?? seed!,
});

export function postNewRow(c: RowCommon, o: { effect: string; seed: SeedCitation }): DataRowSpec {
  return {
    operation: 'postIdentity',
    step: 'post new identity',
    roles: [],
    seed: o.seed,
    effectRequirement: o.effect,
    request: () => ({ verdict: 'allow', requirement: o.effect, seed: o.seed }),
    effects: [],
    reply: [],
    feed: feedOf(c, 'post new identity'),
  };
}

export function updateRow(c: RowCommon, o: { effect: string; seed: SeedCitation }): DataRowSpec {
  return {
    operation: 'postIdentity',
    step: 'update',
    roles: ['source'],
    seed: o.seed,
    effectRequirement: o.effect,
    // A re-post of a deleted source creates it anew ("the source plus native ID decides between create and update"):
    // open, not inert.
    request: (_m, [r]) =>
      active(r!)
        ? { verdict: 'allow', requirement: o.effect, seed: o.seed }
        : { verdict: 'open', seed: c.further ?? o.seed },
    effects: [keepsIdentity({ role: 'source' }, 'the record keeps its identity', o.seed)],
    reply: [],
    feed: feedOf(c, 'update'),
  };
}

export function softDeleteRow(
  c: RowCommon,
  o: RowIds & {
    seed: SeedCitation;
    /** Provider: "source removed from all identities ...; data marked deleted": its values leave every identity. */
    dataRemoved?: boolean;
    /** Provider: "merge and linkage history kept": sources merged into it stay merged into it. */
    historyKept?: { requirement: string; seed: SeedCitation };
  },
): SourceRowSpec {
  return {
    ...sourceRowHead('softDeleteSource', 'soft delete', ['source']),
    table: { from: ['active'], to: 'soft-deleted', note: 'source named in sourceToSoftDelete' },
    ...gated(c, o, (recs) => active(recs[0]!)),
    effects: [
      {
        who: { role: 'source' },
        level: 'required',
        what: 'the source is soft-deleted',
        state: 'soft-deleted',
        ...(o.dataRemoved ? { data: { nowhere: true } } : {}),
        seed: o.seed,
      },
      keepsIdentity({ membersOf: 'source' }, 'the other sources of its identity keep it', o.seed),
      o.historyKept
        ? {
            who: { retiredInto: 'source' },
            level: 'required',
            what: 'sources merged into it stay merged into it (the merge can be reversed once it is restored)',
            state: 'retired',
            data: { history: o.historyKept.requirement },
            seed: o.historyKept.seed,
          }
        : retiredOpen(c, 'source', o.seed),
    ],
    reply: replyClauses(o.reply, o.seed, [SOFT_DELETE_REPLY_OMITS_IDENTITY]),
    feed: feedOf(c, 'soft delete'),
  };
}

export function restoreRow(
  c: RowCommon,
  o: RowIds & { seed: SeedCitation; identitySeed: SeedCitation },
): SourceRowSpec {
  return {
    ...sourceRowHead('restoreSource', 'restore', ['source']),
    table: { from: ['soft-deleted'], to: 'active' },
    ...gated(c, o, (recs) => recs[0]!.state === 'soft-deleted'),
    effects: [
      {
        who: { role: 'source' },
        level: 'required',
        what: 'the source is active again',
        state: 'active',
        data: { shownNow: 'all' },
        seed: o.seed,
      },
      {
        who: { role: 'source' },
        level: 'open',
        what: 'which identity the restored source returns to (its former one, a new one, or another existing one)',
        identity: 'follows',
        seed: o.identitySeed,
        forbidden: [
          { what: 'the restored source found by no query, or its identity not showing its data', seed: o.seed },
        ],
      },
    ],
    reply: replyClauses(o.reply, o.seed, [RESTORE_REPLY_OMITS_IDENTITY]),
    feed: feedOf(c, 'restore'),
  };
}

export function hardDeleteRow(
  c: RowCommon,
  o: RowIds & {
    seed: SeedCitation;
    /**
     * Requirement that the identity's other sources keep it (person: "when it is the only source record of an identity
     * the whole identity is deleted").
     */
    keepsOthers?: { requirement: string; seed: SeedCitation };
    /**
     * Provider: "removes all information and history of the source, including merge and unmerge history": a deleted
     * merged source cannot be unmerged.
     */
    historyRemoved?: string;
    /** Person: "when it is the only source record of an identity the whole identity is deleted". */
    identityGone?: { requirement: string; seed: SeedCitation };
  },
): SourceRowSpec {
  return {
    ...sourceRowHead('deleteSourceIdentity', 'hard delete', ['source']),
    table: { from: 'any', to: 'deleted', note: 'all information of the source is removed' },
    seed: o.seed,
    effectRequirement: o.effect,
    replyRequirement: o.reply,
    // "any": every state but deleted. A source whose state is unknown may be gone already: open, but deleted once
    // accepted.
    request: (_m, [r]) =>
      r!.state === 'deleted'
        ? { verdict: 'inert', requirement: c.hardDelete.requirement, seed: c.hardDelete.seed }
        : r!.state === 'unknown'
          ? { verdict: 'open', seed: c.further ?? o.seed }
          : { verdict: 'allow', requirement: o.effect, seed: o.seed },
    openApplies: true,
    effects: [
      {
        who: { role: 'source' },
        when: ['active', 'soft-deleted', 'deactivated', 'unknown'],
        level: 'required',
        what: 'the source is deleted, its data with it',
        state: 'deleted',
        data: { nowhere: true },
        ...(o.identityGone
          ? { identityGone: { requirement: o.identityGone.requirement, forbids: o.identityGone.seed } }
          : {}),
        seed: o.seed,
      },
      {
        who: { role: 'source' },
        when: ['retired'],
        level: 'required',
        what: 'the merged source is deleted, its data and merge history with it',
        state: 'deleted',
        data: { nowhere: true, ...(o.historyRemoved ? { history: o.historyRemoved } : {}) },
        ...(o.historyRemoved ? { requirement: o.historyRemoved } : {}),
        seed: o.seed,
      },
      o.keepsOthers
        ? {
            ...keepsIdentity({ membersOf: 'source' }, 'the other sources of its identity keep it', o.keepsOthers.seed),
            requirement: o.keepsOthers.requirement,
          }
        : keepsIdentity({ membersOf: 'source' }, 'the other sources of its identity keep it', o.seed),
      retiredOpen(c, 'source', o.seed),
    ],
    reply: replyClauses(o.reply, o.seed, [HARD_DELETE_REPLY_MISFILES_IDENTITY]),
    feed: feedOf(c, 'hard delete'),
  };
}

export function deactivateRow(c: RowCommon, o: RowIds & { seed: SeedCitation }): SourceRowSpec {
  return {
    ...sourceRowHead('deactivateSourceWs', 'deactivate', ['source']),
    table: { from: ['active'], to: 'deactivated', note: 'excluded from future matching, still visible in replies' },
    ...gated(c, o, (recs) => active(recs[0]!)),
    effects: [
      {
        who: { role: 'source' },
        level: 'required',
        what: 'the record is deactivated and stays visible in its identity',
        state: 'deactivated',
        identity: 'stays',
        seed: o.seed,
      },
      keepsIdentity({ membersOf: 'source' }, 'the other records of its identity keep it', o.seed),
    ],
    reply: [],
    feed: feedOf(c, 'deactivate'),
  };
}

export function reactivateRow(c: RowCommon, o: RowIds & { seed: SeedCitation }): SourceRowSpec {
  return {
    ...sourceRowHead('reactivateSourceWs', 'reactivate', ['source']),
    table: { from: ['deactivated'], to: 'active', note: 'returns to its original link ID' },
    ...gated(c, o, (recs) => recs[0]!.state === 'deactivated'),
    effects: [
      {
        who: { role: 'source' },
        level: 'required',
        what: 'the record is active again in its original link ID',
        state: 'active',
        identity: 'stays',
        sameLink: true,
        seed: o.seed,
      },
    ],
    reply: [],
    feed: feedOf(c, 'reactivate'),
  };
}

/**
 * An exact copy of a record that left matching (person: deactivated), posted from another source: it must not join that
 * record's identity ("excluded from future matching"). The copy is deleted right after, so the model's records are
 * unchanged.
 */
export function copyOfExcludedRow(c: RowCommon, o: { effect: string; seed: SeedCitation }): DataRowSpec {
  return {
    operation: 'postIdentity',
    step: 'post copy of deactivated',
    roles: ['source'],
    ...gated(c, o, (recs) => recs[0]!.state === 'deactivated'),
    effects: [],
    reply: [],
  };
}
