/**
 * The state table's reply clauses: what the reply members of an allowed step that succeeded must say, each a clause
 * (specs/common/clause.ts) with what it requires in words and a pure judgement of the reply's content in the context of
 * the step (ReplyContext). A row (specs/state/state-rows.ts) gives each the requirement of its reply members and the
 * sentence that lists them; a member the seeds do not mark required is judged only when present.
 *
 * Source: organization-identity-api.md, "States and transitions" (the "Also" column) and Endpoints (reply content);
 * person-provider-identity-api.md, "States and transitions".
 */
import { clause } from '../common/clause.js';
import type { SeedCitation } from '../common/seed.js';
import type { ReplyClause, ReplyContext } from './state-spec.js';

/** A reply clause before its row gives it the requirement and the sentence. */
type ReplyRule = Omit<ReplyClause, 'requirement' | 'seed'>;
type Judge = ReplyClause['judge'];

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

const rule = (id: string, rejects: string, what: string, judge: Judge): ReplyRule => ({
  ...clause(id, rejects, ['state:reply']),
  what,
  judge,
});

/** A reply member that must name a role's identity after the step. */
const names =
  (member: string, role: string): Judge =>
  (content, ctx) => {
    const link = ctx.after(role);
    return link !== undefined && content?.[member] !== link
      ? [
          `${member} is ${JSON.stringify(content?.[member])}, not ${link}, the identity of the ${role} source ` +
            `after the step`,
        ]
      : [];
  };

/** A reply member that must name a role's source. */
const namesSource =
  (member: string, role: string) =>
  (content: Record<string, any>, ctx: ReplyContext): string[] => {
    const want = ctx.source(role);
    const got = content?.[member];
    return want && (got?.name !== want.name || got?.id !== want.id)
      ? [`${member} is ${JSON.stringify(got ?? null)}, not the ${role} source ${want.name}/${want.id}`]
      : [];
  };

export const SOFT_DELETE_REPLY_OMITS_IDENTITY = rule(
  'SOFT-DELETE-REPLY-OMITS-IDENTITY',
  'a softDeleteSource reply with neither linkIdsSoftDeleted nor linkIdsModified, or naming in neither the identity ' +
    'that held the source',
  'linkIdsSoftDeleted or linkIdsModified names the identity that held the source',
  (content, ctx) => {
    const held = ctx.before('source');
    const named = [...list(content?.linkIdsSoftDeleted), ...list(content?.linkIdsModified)];
    if (!Array.isArray(content?.linkIdsSoftDeleted) && !Array.isArray(content?.linkIdsModified))
      return ['the reply lists neither linkIdsSoftDeleted nor linkIdsModified'];
    return held && !named.includes(held)
      ? [`the reply names ${JSON.stringify(named)}, not ${held}, the identity that held the source`]
      : [];
  },
);

export const RESTORE_REPLY_OMITS_IDENTITY = rule(
  'RESTORE-REPLY-OMITS-IDENTITY',
  'a restoreSource reply naming in neither linkIdsModified nor linkIdCreated the identity the source is in afterwards',
  'linkIdsModified or linkIdCreated names the identity the source is in now',
  (content, ctx) => {
    const now = ctx.after('source');
    const named = [
      ...list(content?.linkIdsModified),
      ...(content?.linkIdCreated ? [String(content.linkIdCreated)] : []),
    ];
    return now && !named.includes(now)
      ? [`the reply names ${JSON.stringify(named)}, but the source is now in identity ${now}`]
      : [];
  },
);

export const HARD_DELETE_REPLY_MISFILES_IDENTITY = rule(
  'HARD-DELETE-REPLY-MISFILES-IDENTITY',
  'a deleteSourceIdentity reply that does not name an identity left with no source in linkIdsDeleted, or one that ' +
    'keeps other sources in linkIdsModified (or names it in linkIdsDeleted)',
  'linkIdsDeleted names an identity left with no source, linkIdsModified one that keeps others',
  (content, ctx) => {
    const held = ctx.before('source');
    if (!held) return [];
    const [deleted, modified] = [list(content?.linkIdsDeleted), list(content?.linkIdsModified)];
    const reply = JSON.stringify(content);
    // An identity whose only live source goes may keep the sources merged into it (open): then either list may name it.
    if (ctx.aloneBefore('source') && ctx.heldUndecided('source'))
      return deleted.includes(held) || modified.includes(held)
        ? []
        : [`neither linkIdsDeleted nor linkIdsModified names ${held}; reply: ${reply}`];
    if (ctx.aloneBefore('source'))
      return deleted.includes(held)
        ? []
        : [`the identity had no other source, so linkIdsDeleted must name ${held}; reply: ${reply}`];
    if (!modified.includes(held))
      return [`the identity keeps other sources, so linkIdsModified must name ${held}; reply: ${reply}`];
    return deleted.includes(held) ? [`linkIdsDeleted names ${held}, which keeps other sources`] : [];
  },
);

/**
 * A reply member that names an identity or a source of the step: `member` of `operation`'s reply is `what` (e.g. "the
 * link ID of the surviving identity"), judged by `judge`.
 */
const memberRule = (id: string, operation: string, member: string, what: string, judge: Judge): ReplyRule =>
  rule(
    id,
    `${/^[aeiou]/.test(operation) ? 'an' : 'a'} ${operation} reply whose ${member} is not ${what}`,
    `${member} is ${what}`,
    judge,
  );

export const MERGE_REPLY_NOT_SURVIVOR = memberRule(
  'MERGE-REPLY-NOT-SURVIVOR',
  'mergeIdentities',
  'linkId',
  'the link ID of the surviving identity',
  names('linkId', 'survivor'),
);

export const UNMERGE_REPLY_WRONG_NEW_ID = memberRule(
  'UNMERGE-REPLY-WRONG-NEW-ID',
  'unmergeIdentities',
  'unmergedId',
  "the link ID of the unmerged source's new identity",
  names('unmergedId', 'unmerged'),
);

export const UNMERGE_REPLY_WRONG_FROM_ID = memberRule(
  'UNMERGE-REPLY-WRONG-FROM-ID',
  'unmergeIdentities',
  'unmergedFromId',
  'the link ID of the identity it was unmerged from',
  names('unmergedFromId', 'from'),
);

export const LINK_REPLY_NOT_TARGET = memberRule(
  'LINK-REPLY-NOT-TARGET',
  'linkIdentities',
  'linkId',
  'the link ID of the identity of linkToSource',
  names('linkId', 'into'),
);

export const UNLINK_REPLY_WRONG_NEW_ID = memberRule(
  'UNLINK-REPLY-WRONG-NEW-ID',
  'unlinkIdentities',
  'unlinkedId',
  "the link ID of the unlinked source's new identity",
  names('unlinkedId', 'moved'),
);

export const UNLINK_REPLY_WRONG_FROM_ID = memberRule(
  'UNLINK-REPLY-WRONG-FROM-ID',
  'unlinkIdentities',
  'unlinkedFromId',
  'the link ID of the identity the source left',
  names('unlinkedFromId', 'from'),
);

export const UNLINK_REPLY_WRONG_SOURCE = memberRule(
  'UNLINK-REPLY-WRONG-SOURCE',
  'unlinkIdentities',
  'unlinkedSource',
  'the source split off',
  namesSource('unlinkedSource', 'moved'),
);

export const UNLINK_REPLY_WRONG_FROM_SOURCE = memberRule(
  'UNLINK-REPLY-WRONG-FROM-SOURCE',
  'unlinkIdentities',
  'unlinkedFromSource',
  'the source it was unlinked from',
  namesSource('unlinkedFromSource', 'from'),
);

export const REPLY_SOURCE_NOT_ECHOED = clause(
  'REPLY-SOURCE-NOT-ECHOED',
  'a reply member named after a source of the request (linkToSource, toSurviveSource, ...) naming another source',
  ['state:reply'],
);

/** A row's reply clauses, each citing `requirement` and `seed`; none where the service has no reply requirement. */
export const replyClauses = (
  requirement: string | undefined,
  seed: SeedCitation,
  rules: readonly ReplyRule[],
): ReplyClause[] => (requirement ? rules.map((r) => ({ ...r, requirement, seed })) : []);

/**
 * Reply members that name a source of the request (the organization's `linkToSource`, `toSurviveSource`,
 * `unmergedSource` ...): when present, each names that source. The members are not marked required: an absent one is
 * accepted.
 */
export function echoClauses(
  requirement: string | undefined,
  echoes: { members: Array<[member: string, role: string]>; seed: SeedCitation } | undefined,
): ReplyClause[] {
  if (!requirement || !echoes) return [];
  return echoes.members.map(([member, role]) => ({
    ...REPLY_SOURCE_NOT_ECHOED,
    requirement,
    what: `${member}, when present, names the ${role} source of the request`,
    seed: echoes.seed,
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

/** The reply clauses, for the registry. */
export const REPLY_CLAUSES = [
  SOFT_DELETE_REPLY_OMITS_IDENTITY,
  RESTORE_REPLY_OMITS_IDENTITY,
  HARD_DELETE_REPLY_MISFILES_IDENTITY,
  MERGE_REPLY_NOT_SURVIVOR,
  UNMERGE_REPLY_WRONG_NEW_ID,
  UNMERGE_REPLY_WRONG_FROM_ID,
  LINK_REPLY_NOT_TARGET,
  UNLINK_REPLY_WRONG_NEW_ID,
  UNLINK_REPLY_WRONG_FROM_ID,
  UNLINK_REPLY_WRONG_SOURCE,
  UNLINK_REPLY_WRONG_FROM_SOURCE,
  REPLY_SOURCE_NOT_ECHOED,
] as const;
