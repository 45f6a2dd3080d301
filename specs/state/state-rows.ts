/**
 * The rows the three state tables share, as builders: each service's table (specs/<service>/state-spec.ts) calls them
 * with its own requirement IDs and seed sentences, and adds what only it states. Every outcome here is one of the
 * seed's statements (or silences) about a row; a builder's options say where the services' seeds differ.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import { clause } from '../common/clause.js';
import type { SeedCitation } from '../common/seed.js';
import type {
  DataRowSpec,
  Effect,
  ReplyClause,
  ReplyContext,
  RequestOutcome,
  SourceRowSpec,
  SpecRecord,
} from './state-spec.js';
import type { StepName } from './step-names.js';
import { STEP_REQUESTS } from './step-requests.js';

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

/**
 * A reply member that names a source of the request (the organization's `linkToSource`, `toSurviveSource`,
 * `unmergedSource` ...): when present, it names that source. The member is not marked required: an absent one is
 * accepted.
 */
function echoClauses(requirement: string, echoes: RowIds['echoes']): ReplyClause[] {
  return (echoes?.members ?? []).map(([member, role]) => ({
    ...clause(
      'REPLY-SOURCE-NOT-ECHOED',
      'a reply member named after a source of the request (linkToSource, toSurviveSource, ...) naming another source',
    ),
    requirement,
    what: `${member}, when present, names the ${role} source of the request`,
    seed: echoes!.seed,
    category: { id: `echo:${member}`, member },
    judge: (content, ctx) => {
      const want = ctx.source(role);
      const got = content?.[member];
      if (got === undefined || got === null || !want) return [];
      return got?.name !== want.name || got?.id !== want.id
        ? [`${member} is ${JSON.stringify(got)}, not the ${role} source ${want.name}/${want.id} the request named`]
        : [];
    },
  }));
}

const active = (r: SpecRecord) => r.state === 'active';
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** The request outcome from the named records' states: inert on a deleted source, allowed when `ok`, open otherwise. */
function gate(
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

const feedOf = (c: RowCommon, step: StepName) =>
  c.feed?.steps.includes(step) ? { requirement: c.feed.requirement, seed: c.feed.seed } : undefined;

/** The sources retired into `role`: what becomes of them is open. */
const retiredOpen = (c: RowCommon, role: string, seed?: SeedCitation): Effect => ({
  who: { retiredInto: role },
  level: 'open',
  what:
    `what becomes of the sources merged into ${role === 'source' ? 'it' : `the ${role} source`} (their state and ` +
    `identity)`,
  state: 'unknown',
  seed: c.retiredFate ?? c.further ?? seed!,
});

/** A reply member that must name a role's identity (before or after the step). */
const names =
  (member: string, when: 'before' | 'after', role: string) => (content: Record<string, any>, ctx: ReplyContext) => {
    const link = when === 'before' ? ctx.before(role) : ctx.after(role);
    return link !== undefined && content?.[member] !== link
      ? [
          `${member} is ${JSON.stringify(content?.[member])}, not ${link}, the identity of the ${role} source ` +
            `${when === 'before' ? 'before' : 'after'} the step`,
        ]
      : [];
  };

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
  const row = { seed: o.seed, effect: o.effect };
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
        : { verdict: 'open', seed: c.further ?? row.seed },
    effects: [
      {
        who: { role: 'source' },
        level: 'required',
        what: 'the record keeps its identity',
        identity: 'stays',
        seed: o.seed,
      },
    ],
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
  const row = { seed: o.seed, effect: o.effect };
  const reply: ReplyClause[] = o.reply
    ? [
        {
          ...clause(
            'SOFT-DELETE-REPLY-OMITS-IDENTITY',
            'a softDeleteSource reply with neither linkIdsSoftDeleted nor linkIdsModified, or naming in neither ' +
              'the identity that held the source',
          ),
          requirement: o.reply,
          what: 'linkIdsSoftDeleted or linkIdsModified names the identity that held the source',
          seed: o.seed,
          judge: (content, ctx) => {
            const held = ctx.before('source');
            const named = [...list(content?.linkIdsSoftDeleted), ...list(content?.linkIdsModified)];
            if (!Array.isArray(content?.linkIdsSoftDeleted) && !Array.isArray(content?.linkIdsModified))
              return ['the reply lists neither linkIdsSoftDeleted nor linkIdsModified'];
            return held && !named.includes(held)
              ? [`the reply names ${JSON.stringify(named)}, not ${held}, the identity that held the source`]
              : [];
          },
        },
      ]
    : [];
  return {
    operation: 'softDeleteSource',
    step: 'soft delete',
    roles: ['source'],
    content: STEP_REQUESTS['soft delete'],
    table: { from: ['active'], to: 'soft-deleted', note: 'source named in sourceToSoftDelete' },
    seed: o.seed,
    effectRequirement: o.effect,
    replyRequirement: o.reply,
    request: (_m, recs) => gate(c, row, recs, active(recs[0]!)),
    effects: [
      {
        who: { role: 'source' },
        level: 'required',
        what: 'the source is soft-deleted',
        state: 'soft-deleted',
        ...(o.dataRemoved ? { data: { nowhere: true } } : {}),
        seed: o.seed,
      },
      {
        who: { membersOf: 'source' },
        level: 'required',
        what: 'the other sources of its identity keep it',
        identity: 'stays',
        seed: o.seed,
      },
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
    reply,
    feed: feedOf(c, 'soft delete'),
  };
}

export function restoreRow(
  c: RowCommon,
  o: RowIds & { seed: SeedCitation; identitySeed: SeedCitation },
): SourceRowSpec {
  const row = { seed: o.seed, effect: o.effect };
  return {
    operation: 'restoreSource',
    step: 'restore',
    roles: ['source'],
    content: STEP_REQUESTS.restore,
    table: { from: ['soft-deleted'], to: 'active' },
    seed: o.seed,
    effectRequirement: o.effect,
    replyRequirement: o.reply,
    request: (_m, recs) => gate(c, row, recs, recs[0]!.state === 'soft-deleted'),
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
    reply: o.reply
      ? [
          {
            ...clause(
              'RESTORE-REPLY-OMITS-IDENTITY',
              'a restoreSource reply naming in neither linkIdsModified nor linkIdCreated the identity the ' +
                'source is in afterwards',
            ),
            requirement: o.reply,
            what: 'linkIdsModified or linkIdCreated names the identity the source is in now',
            seed: o.seed,
            judge: (content, ctx) => {
              const now = ctx.after('source');
              const named = [
                ...list(content?.linkIdsModified),
                ...(content?.linkIdCreated ? [String(content.linkIdCreated)] : []),
              ];
              return now && !named.includes(now)
                ? [`the reply names ${JSON.stringify(named)}, but the source is now in identity ${now}`]
                : [];
            },
          },
        ]
      : [],
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
    operation: 'deleteSourceIdentity',
    step: 'hard delete',
    roles: ['source'],
    content: STEP_REQUESTS['hard delete'],
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
      {
        who: { membersOf: 'source' },
        level: 'required',
        what: 'the other sources of its identity keep it',
        identity: 'stays',
        ...(o.keepsOthers ? { requirement: o.keepsOthers.requirement, seed: o.keepsOthers.seed } : { seed: o.seed }),
      },
      retiredOpen(c, 'source', o.seed),
    ],
    reply: o.reply
      ? [
          {
            ...clause(
              'HARD-DELETE-REPLY-MISFILES-IDENTITY',
              'a deleteSourceIdentity reply that does not name an identity left with no source in ' +
                'linkIdsDeleted, or one that keeps other sources in linkIdsModified (or names it in ' +
                'linkIdsDeleted)',
            ),
            requirement: o.reply,
            what: 'linkIdsDeleted names an identity left with no source, linkIdsModified one that keeps others',
            seed: o.seed,
            judge: (content, ctx) => {
              const held = ctx.before('source');
              if (!held) return [];
              const [deleted, modified] = [list(content?.linkIdsDeleted), list(content?.linkIdsModified)];
              // An identity whose only live source goes may keep the sources merged into it (open): then either list
              // may name it.
              if (ctx.aloneBefore('source') && ctx.heldUndecided('source'))
                return deleted.includes(held) || modified.includes(held)
                  ? []
                  : [`neither linkIdsDeleted nor linkIdsModified names ${held}; reply: ${JSON.stringify(content)}`];
              if (ctx.aloneBefore('source'))
                return deleted.includes(held)
                  ? []
                  : [
                      `the identity had no other source, so linkIdsDeleted must name ${held}; reply: ` +
                        `${JSON.stringify(content)}`,
                    ];
              if (!modified.includes(held))
                return [
                  `the identity keeps other sources, so linkIdsModified must name ${held}; reply: ` +
                    `${JSON.stringify(content)}`,
                ];
              return deleted.includes(held) ? [`linkIdsDeleted names ${held}, which keeps other sources`] : [];
            },
          },
        ]
      : [],
    feed: feedOf(c, 'hard delete'),
  };
}

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
  const row = { seed: o.seed, effect: o.effect };
  return {
    operation: 'mergeIdentities',
    step: 'merge',
    roles: ['survivor', 'retired'],
    content: STEP_REQUESTS.merge,
    table: { from: ['active'], to: 'retired', note: 'toRetireSource is retired into toSurviveSource' },
    seed: o.seed,
    effectRequirement: o.effect,
    replyRequirement: o.reply,
    request: (_m, recs) => pairRequest(c, row, o.sameKind, recs),
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
      {
        who: { role: 'survivor' },
        level: 'required',
        what: 'the survivor keeps its identity',
        identity: 'stays',
        seed: o.seed,
      },
      {
        who: { membersOf: 'retired' },
        level: 'open',
        what: "where the retired source's other sources go (they stay active)",
        identity: 'follows',
        seed: o.othersSeed,
        forbidden: [{ what: 'any of them found by no query (only toRetireSource is retired)', seed: o.seed }],
      },
      retiredOpen(c, 'retired', o.seed),
    ],
    reply: o.reply
      ? [
          {
            ...clause(
              'MERGE-REPLY-NOT-SURVIVOR',
              "a mergeIdentities reply whose linkId is not the surviving identity's link ID",
            ),
            requirement: o.reply,
            what: "linkId is the surviving identity's",
            seed: o.seed,
            judge: names('linkId', 'after', 'survivor'),
          },
          ...echoClauses(o.reply, o.echoes),
        ]
      : [],
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
  const row = { seed: o.seed, effect: o.effect };
  return {
    operation: 'unmergeIdentities',
    step: 'unmerge',
    roles: ['from', 'unmerged'],
    content: STEP_REQUESTS.unmerge,
    table: { from: ['retired'], to: 'active', note: 'active in a new identity' },
    seed: o.seed,
    effectRequirement: o.effect,
    replyRequirement: o.reply,
    request: (_m, recs) => {
      const [from, r] = recs as [SpecRecord, SpecRecord];
      const outcome = gate(c, row, recs, r.state === 'retired' && r.retiredInto === from.label && active(from));
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
      {
        who: { role: 'from' },
        level: 'required',
        what: 'the survivor keeps its identity',
        identity: 'stays',
        seed: o.seed,
      },
    ],
    reply: o.reply
      ? [
          {
            ...clause(
              'UNMERGE-REPLY-WRONG-NEW-ID',
              "an unmergeIdentities reply whose unmergedId is not the link ID of the unmerged source's new identity",
            ),
            requirement: o.reply,
            what: "unmergedId is the unmerged source's new identity",
            seed: o.seed,
            judge: names('unmergedId', 'after', 'unmerged'),
          },
          {
            ...clause(
              'UNMERGE-REPLY-WRONG-FROM-ID',
              'an unmergeIdentities reply whose unmergedFromId is not the link ID of the identity it was unmerged from',
            ),
            requirement: o.reply,
            what: 'unmergedFromId is the identity it was unmerged from',
            seed: o.seed,
            judge: names('unmergedFromId', 'after', 'from'),
          },
          ...echoClauses(o.reply, o.echoes),
        ]
      : [],
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
  const row = { seed: o.seed, effect: o.effect };
  return {
    operation: 'linkIdentities',
    step: 'link',
    roles: ['into', 'moved'],
    content: STEP_REQUESTS.link,
    table: { from: ['active'], to: 'active', note: 'source linked into the identity of linkToSource' },
    seed: o.seed,
    effectRequirement: o.effect,
    replyRequirement: o.reply,
    request: (_m, recs) => pairRequest(c, row, o.sameKind, recs),
    effects: [
      {
        who: { role: 'moved' },
        level: 'required',
        what: 'the linked source joins the identity of linkToSource, with its data',
        identity: { joins: 'into' },
        data: { shownNow: 'some' },
        seed: o.seed,
      },
      {
        who: { role: 'into' },
        level: 'required',
        what: 'linkToSource keeps its identity',
        identity: 'stays',
        seed: o.seed,
      },
      {
        who: { membersOf: 'moved' },
        level: 'open',
        what: "where the linked source's other sources go (they stay active)",
        identity: 'follows',
        seed: o.othersSeed,
        forbidden: [{ what: 'any of them found by no query (the link moves only `source`)', seed: o.seed }],
      },
      retiredOpen(c, 'moved', o.seed),
    ],
    reply: o.reply
      ? [
          {
            ...clause(
              'LINK-REPLY-NOT-TARGET',
              'a linkIdentities reply whose linkId is not the link ID of the identity of linkToSource',
            ),
            requirement: o.reply,
            what: 'linkId is the identity of linkToSource',
            seed: o.seed,
            judge: names('linkId', 'after', 'into'),
          },
          ...echoClauses(o.reply, o.echoes),
        ]
      : [],
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
  const row = { seed: o.seed, effect: o.effect };
  const sameSource = (member: string, role: string) => (content: Record<string, any>, ctx: ReplyContext) => {
    const want = ctx.source(role);
    const got = content?.[member];
    return want && (got?.name !== want.name || got?.id !== want.id)
      ? [`${member} is ${JSON.stringify(got ?? null)}, not the ${role} source ${want.name}/${want.id}`]
      : [];
  };
  return {
    operation: 'unlinkIdentities',
    step: 'unlink',
    roles: ['from', 'moved'],
    content: STEP_REQUESTS.unlink,
    table: { from: ['active'], to: 'active', note: 'active in a separate identity' },
    seed: o.seed,
    effectRequirement: o.effect,
    replyRequirement: o.reply,
    request: (_m, recs) => {
      const [from, r] = recs as [SpecRecord, SpecRecord];
      return gate(c, row, recs, from !== r && active(from) && active(r) && from.group === r.group);
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
      {
        who: { role: 'from' },
        level: 'required',
        what: 'unlinkFromSource keeps its identity',
        identity: 'stays',
        seed: o.seed,
      },
      {
        who: { membersOf: 'moved' },
        level: 'required',
        what: "the identity's other sources stay with unlinkFromSource",
        identity: 'stays',
        seed: o.seed,
      },
      retiredOpen(c, 'moved', o.seed),
    ],
    reply: o.reply
      ? [
          {
            ...clause(
              'UNLINK-REPLY-WRONG-NEW-ID',
              "an unlinkIdentities reply whose unlinkedId is not the link ID of the unlinked source's new identity",
            ),
            requirement: o.reply,
            what: "unlinkedId is the unlinked source's new identity",
            seed: o.seed,
            judge: names('unlinkedId', 'after', 'moved'),
          },
          {
            ...clause(
              'UNLINK-REPLY-WRONG-FROM-ID',
              'an unlinkIdentities reply whose unlinkedFromId is not the link ID of the identity the source left',
            ),
            requirement: o.reply,
            what: 'unlinkedFromId is the identity it left',
            seed: o.seed,
            judge: names('unlinkedFromId', 'after', 'from'),
          },
          ...(o.sourcesInReply
            ? [
                {
                  ...clause(
                    'UNLINK-REPLY-WRONG-SOURCE',
                    'an unlinkIdentities reply whose unlinkedSource is not the source split off',
                  ),
                  requirement: o.reply,
                  what: 'unlinkedSource is the source split off',
                  seed: o.seed,
                  judge: sameSource('unlinkedSource', 'moved'),
                },
                {
                  ...clause(
                    'UNLINK-REPLY-WRONG-FROM-SOURCE',
                    'an unlinkIdentities reply whose unlinkedFromSource is not the source it was unlinked from',
                  ),
                  requirement: o.reply,
                  what: 'unlinkedFromSource is the source it was unlinked from',
                  seed: o.seed,
                  judge: sameSource('unlinkedFromSource', 'from'),
                },
              ]
            : []),
          ...echoClauses(o.reply, o.echoes),
        ]
      : [],
    feed: feedOf(c, 'unlink'),
  };
}

export function deactivateRow(c: RowCommon, o: RowIds & { seed: SeedCitation }): SourceRowSpec {
  const row = { seed: o.seed, effect: o.effect };
  return {
    operation: 'deactivateSourceWs',
    step: 'deactivate',
    roles: ['source'],
    content: STEP_REQUESTS.deactivate,
    table: { from: ['active'], to: 'deactivated', note: 'excluded from future matching, still visible in replies' },
    seed: o.seed,
    effectRequirement: o.effect,
    request: (_m, recs) => gate(c, row, recs, active(recs[0]!)),
    effects: [
      {
        who: { role: 'source' },
        level: 'required',
        what: 'the record is deactivated and stays visible in its identity',
        state: 'deactivated',
        identity: 'stays',
        seed: o.seed,
      },
      {
        who: { membersOf: 'source' },
        level: 'required',
        what: 'the other records of its identity keep it',
        identity: 'stays',
        seed: o.seed,
      },
    ],
    reply: [],
    feed: feedOf(c, 'deactivate'),
  };
}

export function reactivateRow(c: RowCommon, o: RowIds & { seed: SeedCitation }): SourceRowSpec {
  const row = { seed: o.seed, effect: o.effect };
  return {
    operation: 'reactivateSourceWs',
    step: 'reactivate',
    roles: ['source'],
    content: STEP_REQUESTS.reactivate,
    table: { from: ['deactivated'], to: 'active', note: 'returns to its original link ID' },
    seed: o.seed,
    effectRequirement: o.effect,
    request: (_m, recs) => gate(c, row, recs, recs[0]!.state === 'deactivated'),
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
  const row = { seed: o.seed, effect: o.effect };
  return {
    operation: 'postIdentity',
    step: 'post copy of deactivated',
    roles: ['source'],
    seed: o.seed,
    effectRequirement: o.effect,
    request: (_m, recs) => gate(c, row, recs, recs[0]!.state === 'deactivated'),
    effects: [],
    reply: [],
  };
}
