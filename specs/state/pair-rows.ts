/**
 * The rows of the state tables that name two records (merge, unmerge, link, unlink), as builders: each service's table
 * (specs/<service>/state-spec.ts) calls them with its own requirement IDs and seed sentences. The rows' common parts
 * (RowCommon, the request gate) are specs/state/state-rows.ts's.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import type { SeedCitation } from '../common/seed.js';
import {
  LINK_REPLY_NOT_TARGET,
  MERGE_REPLY_NOT_SURVIVOR,
  UNLINK_REPLY_WRONG_FROM_ID,
  UNLINK_REPLY_WRONG_FROM_SOURCE,
  UNLINK_REPLY_WRONG_NEW_ID,
  UNLINK_REPLY_WRONG_SOURCE,
  UNMERGE_REPLY_WRONG_FROM_ID,
  UNMERGE_REPLY_WRONG_NEW_ID,
  echoClauses,
  replyClauses,
} from './reply-clauses.js';
import type { Effect, RequestOutcome, SourceRowSpec, SpecRecord } from './state-spec.js';
import {
  type RowCommon,
  type RowIds,
  active,
  feedOf,
  gate,
  keepsIdentity,
  retiredOpen,
  sourceRowHead,
} from './state-rows.js';

/** Merge and link are allowed only between records of the same kind where the service has kinds (provider types). */
export interface SameKind {
  requirement: string;
  seed: SeedCitation;
}

function pairRequest(
  c: RowCommon,
  row: { seed: SeedCitation; effect: string },
  sameKind: SameKind | undefined,
  [a, b]: SpecRecord[],
): RequestOutcome {
  if (a!.state === 'deleted' || b!.state === 'deleted') return gate(c, row, [a!, b!], false);
  if (sameKind && active(a!) && active(b!) && a !== b && a!.kind !== b!.kind)
    return { verdict: 'reject', requirement: sameKind.requirement, seed: sameKind.seed };
  return gate(c, row, [a!, b!], a !== b && active(a!) && active(b!) && a!.group !== b!.group);
}

/**
 * Where the other sources of the record a merge or link moves go: open (`othersSeed` leaves it so; they stay active),
 * but `seed` forbids losing any of them (`lost` says how).
 */
const othersFollow = (
  role: string,
  what: string,
  othersSeed: SeedCitation,
  lost: string,
  seed: SeedCitation,
): Effect => ({
  who: { membersOf: role },
  level: 'open',
  what,
  identity: 'follows',
  seed: othersSeed,
  forbidden: [{ what: lost, seed }],
});

/** A row's requirement IDs and seed sentence, and its reply clauses (`clauses`) with the echo clauses of its IDs. */
const cited = (o: RowIds & { seed: SeedCitation }, clauses: Parameters<typeof replyClauses>[2]) => ({
  seed: o.seed,
  effectRequirement: o.effect,
  replyRequirement: o.reply,
  reply: [...replyClauses(o.reply, o.seed, clauses), ...echoClauses(o.reply, o.echoes)],
});

export function mergeRow(
  c: RowCommon,
  o: RowIds & {
    seed: SeedCitation;
    /**
     * Sentence that leaves open whether the retired record's other sources join the survivor ("a single surviving
     * identity results").
     */
    othersSeed: SeedCitation;
    sameKind?: SameKind;
    /** Provider: "toSurvive identity holds combined data". */
    combinedData?: boolean;
  },
): SourceRowSpec {
  return {
    ...sourceRowHead('mergeIdentities', 'merge', ['survivor', 'retired']),
    table: { from: ['active'], to: 'retired', note: 'toRetireSource is retired into toSurviveSource' },
    ...cited(o, [MERGE_REPLY_NOT_SURVIVOR]),
    request: (_m, recs) => pairRequest(c, o, o.sameKind, recs),
    openRetires: ['retired'],
    effects: [
      {
        who: { role: 'retired' },
        level: 'required',
        what: 'the retired source is merged into the survivor',
        state: 'retired',
        retiredInto: 'survivor',
        ...(o.combinedData ? { data: { withSurvivor: true } } : {}),
        seed: o.seed,
      },
      keepsIdentity({ role: 'survivor' }, 'the survivor keeps its identity', o.seed),
      othersFollow(
        'retired',
        "where the retired source's other sources go (they stay active)",
        o.othersSeed,
        'any of them found by no query (only toRetireSource is retired)',
        o.seed,
      ),
      retiredOpen(c, 'retired', o.seed),
    ],
    feed: feedOf(c, 'merge'),
  };
}

export function unmergeRow(
  c: RowCommon,
  o: RowIds & {
    seed: SeedCitation;
    /** Person: "in a new link ID of its own". */
    freshLinkId?: boolean;
  },
): SourceRowSpec {
  return {
    ...sourceRowHead('unmergeIdentities', 'unmerge', ['from', 'unmerged']),
    table: { from: ['retired'], to: 'active', note: 'active in a new identity' },
    ...cited(o, [UNMERGE_REPLY_WRONG_NEW_ID, UNMERGE_REPLY_WRONG_FROM_ID]),
    request: (_m, recs) => {
      const [from, r] = recs as [SpecRecord, SpecRecord];
      const outcome = gate(c, o, recs, r.state === 'retired' && r.retiredInto === from.label && active(from));
      // A merge kept through a soft delete and restore: refusing to reverse it breaks the promise that kept it.
      return outcome.verdict === 'allow' && r.data.history
        ? { ...outcome, requirement: r.data.history.requirement, seed: r.data.history.forbids ?? outcome.seed }
        : outcome;
    },
    effects: [
      {
        who: { role: 'unmerged' },
        level: 'required',
        what: 'the unmerged source is active in a new identity of its own, with its data, which leaves the survivor',
        state: 'active',
        identity: 'new',
        ...(o.freshLinkId ? { fresh: true } : {}),
        data: { absentFromRole: 'from', shownNow: 'all' },
        seed: o.seed,
      },
      keepsIdentity({ role: 'from' }, 'the survivor keeps its identity', o.seed),
    ],
    feed: feedOf(c, 'unmerge'),
  };
}

export function linkRow(
  c: RowCommon,
  o: RowIds & {
    seed: SeedCitation;
    othersSeed: SeedCitation;
    sameKind?: SameKind;
  },
): SourceRowSpec {
  return {
    ...sourceRowHead('linkIdentities', 'link', ['into', 'moved']),
    table: { from: ['active'], to: 'active', note: 'source linked into the identity of linkToSource' },
    ...cited(o, [LINK_REPLY_NOT_TARGET]),
    request: (_m, recs) => pairRequest(c, o, o.sameKind, recs),
    effects: [
      {
        who: { role: 'moved' },
        level: 'required',
        what: 'the linked source joins the identity of linkToSource, with its data',
        identity: { joins: 'into' },
        data: { shownNow: 'some' },
        seed: o.seed,
      },
      keepsIdentity({ role: 'into' }, 'linkToSource keeps its identity', o.seed),
      othersFollow(
        'moved',
        "where the linked source's other sources go (they stay active)",
        o.othersSeed,
        'any of them found by no query (the link moves only `source`)',
        o.seed,
      ),
      retiredOpen(c, 'moved', o.seed),
    ],
    feed: feedOf(c, 'link'),
  };
}

export function unlinkRow(
  c: RowCommon,
  o: RowIds & {
    seed: SeedCitation;
    freshLinkId?: boolean;
    /** Provider: the reply also names both sources ("reply returns their link IDs and source information"). */
    sourcesInReply?: boolean;
  },
): SourceRowSpec {
  return {
    ...sourceRowHead('unlinkIdentities', 'unlink', ['from', 'moved']),
    table: { from: ['active'], to: 'active', note: 'active in a separate identity' },
    ...cited(o, [
      UNLINK_REPLY_WRONG_NEW_ID,
      UNLINK_REPLY_WRONG_FROM_ID,
      ...(o.sourcesInReply ? [UNLINK_REPLY_WRONG_SOURCE, UNLINK_REPLY_WRONG_FROM_SOURCE] : []),
    ]),
    request: (_m, recs) => {
      const [from, r] = recs as [SpecRecord, SpecRecord];
      return gate(c, o, recs, from !== r && active(from) && active(r) && from.group === r.group);
    },
    effects: [
      {
        who: { role: 'moved' },
        level: 'required',
        what:
          'the unlinked source is active in a separate identity, no longer one of the sources of the identity it ' +
          'left',
        identity: 'new',
        ...(o.freshLinkId ? { fresh: true } : {}),
        data: { unlistedFromRole: 'from' },
        seed: o.seed,
      },
      keepsIdentity({ role: 'from' }, 'unlinkFromSource keeps its identity', o.seed),
      {
        who: { membersOf: 'moved' },
        level: 'required',
        what: "the identity's other sources stay with unlinkFromSource",
        identity: 'stays',
        seed: o.seed,
      },
      retiredOpen(c, 'moved', o.seed),
    ],
    feed: feedOf(c, 'unlink'),
  };
}
