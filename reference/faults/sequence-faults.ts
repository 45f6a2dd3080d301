/**
 * Faults only sequences or matching properties reveal, for the walks' and metamorphic checks' self-tests
 * (test/walks-*.test.ts, test/metamorphic-*.test.ts).
 *
 * Sequence-only faults misbehave only after an earlier step set the stage (a merge, a link or an unlink), so no
 * single-row scenario of the state table sees them. Matching faults break a property of scores and decisions that holds
 * whatever the scores and threshold are. Each wraps the operation's handler; state a fault needs across requests is
 * kept per store.
 *
 * Sources: organization-identity-api.md, "States and transitions", Endpoints rule 1, "What the service does"
 * (requirements named per entry).
 */
import { candidates, identityReply } from '../handlers/identity.js';
import { type Handler, type HandlerContext, recordNamed as rec } from '../handlers/types.js';
import { perStore } from '../store.js';

type Src = { name?: string; id?: string };
import type { FaultDefinition } from './types.js';
import { SERVICES } from '../../specs/services.js';

type Memory = 'mergedFrom' | 'unlinkedFrom' | 'linkedFrom';
/** Per-store memory, by purpose: the link ID a record had before it was merged away, unlinked or linked. */
const mem = perStore(
  (): Record<Memory, Map<string, string>> => ({
    mergedFrom: new Map(),
    unlinkedFrom: new Map(),
    linkedFrom: new Map(),
  }),
);
const round = (x: number) => Math.round(x * 10000) / 10000;

/**
 * Runs the step and remembers, under `purpose`, the link ID the record named by `member` had before it (only when the
 * step moved the record, if `onlyIfMoved`). Faults read it back later.
 */
function rememberBefore(
  next: Handler,
  ctx: HandlerContext,
  member: string,
  purpose: Memory,
  onlyIfMoved = false,
): Record<string, unknown> {
  const r = rec(ctx, member);
  const before = r?.linkId;
  const result = next(ctx);
  if (r && before && (!onlyIfMoved || before !== r.linkId)) mem(ctx.store)[purpose].set(r.key, before);
  return result;
}

export const SEQUENCE_FAULTS: FaultDefinition[] = [
  {
    name: 'restore-reports-merged-survivor',
    service: 'organization',
    requirement: 'ORG-RESTORE-REPLY',
    operations: ['mergeIdentities', 'restoreSource'],
    description:
      "restoring a source whose former identity was since merged away names the merge survivor's identity in " +
      'linkIdsModified, though the source is restored into a new identity',
    handler: (next, ctx, op) => {
      if (op === 'mergeIdentities') return rememberBefore(next, ctx, 'toRetireSource', 'mergedFrom');
      const r = rec(ctx, ctx.members.restoreSource);
      const former = r?.linkId;
      const result = next(ctx) as { linkIdsModified?: string[]; linkIdCreated?: string | null };
      const mergedAway = [...ctx.store.records.values()].find(
        (x) => x.state === 'retired' && mem(ctx.store).mergedFrom.get(x.key) === former,
      );
      return mergedAway && result.linkIdCreated
        ? { linkIdsModified: [mergedAway.linkId], linkIdCreated: null }
        : result;
    },
  },
  {
    name: 'merge-drops-linked-sources',
    service: 'organization',
    requirement: 'ORG-MERGE-EFFECT',
    operations: ['mergeIdentities'],
    description:
      'merging retires the named source and silently soft-deletes the other sources that had been linked into ' +
      "the retired source's identity",
    handler: (next, ctx) => {
      const retire = rec(ctx, 'toRetireSource');
      const others = retire ? ctx.store.activeMembers(retire.linkId).filter((x) => x !== retire) : [];
      const result = next(ctx);
      for (const x of others) x.state = 'soft-deleted';
      return result;
    },
  },
  {
    name: 'unlink-revives-merged-sources',
    service: 'organization',
    requirement: 'ORG-UNLINK-EFFECT',
    operations: ['unlinkIdentities'],
    description:
      'unlinking a source from an identity also re-activates, in the unlinked identity, every source that had ' +
      'been merged into unlinkFromSource',
    handler: (next, ctx) => {
      const from = rec(ctx, 'unlinkFromSource');
      const result = next(ctx) as { unlinkedId?: string };
      for (const x of ctx.store.records.values())
        if (from && x.state === 'retired' && x.retiredInto === from.key && result.unlinkedId)
          Object.assign(x, { state: 'active', retiredInto: undefined, linkId: result.unlinkedId });
      return result;
    },
  },
  {
    name: 'repost-undoes-unlink',
    service: 'organization',
    requirement: 'ORG-POST-SAME-SOURCE-UPDATES',
    operations: ['unlinkIdentities', 'postIdentity'],
    description:
      'an update (re-post of the same source) of a source that was unlinked puts it back into the identity it ' +
      'was unlinked from',
    handler: (next, ctx, op) => {
      if (op === 'unlinkIdentities') return rememberBefore(next, ctx, 'source', 'unlinkedFrom');
      const s = (ctx.content.identity?.sources?.[0] ?? ctx.content.source) as Src | undefined;
      const existing = ctx.store.get(s);
      const result = next(ctx);
      const back = existing && mem(ctx.store).unlinkedFrom.get(existing.key);
      if (existing && back && existing.state === 'active' && ctx.store.activeMembers(back).length)
        existing.linkId = back;
      return result;
    },
  },
];

/**
 * Sequence-only faults of the person and provider services (test/walks-person-provider.test.ts).
 * Source: person-provider-identity-api.md, "States and transitions".
 */
export const PERSON_PROVIDER_SEQUENCE_FAULTS: FaultDefinition[] = [
  {
    name: 'person-deactivate-undoes-link',
    service: 'person',
    requirement: 'PERSON-DEACTIVATE-VISIBLE',
    operations: ['linkIdentities', 'deactivateSourceWs'],
    description:
      'deactivating a record that was linked into another identity shows it, while deactivated, in the link ID ' +
      'it had before the link (reactivation still returns it to the linked identity)',
    handler: (next, ctx, op) => {
      if (op === 'linkIdentities') return rememberBefore(next, ctx, 'source', 'linkedFrom', true);
      const r = rec(ctx, ctx.members.deactivateSource);
      const result = next(ctx);
      const old = r && mem(ctx.store).linkedFrom.get(r.key);
      if (r && old && r.state === 'deactivated') r.linkId = old;
      return result;
    },
  },
  {
    name: 'provider-type-check-skipped-after-link',
    service: 'provider',
    requirement: 'PROV-MERGE-SAME-TYPE',
    operations: ['linkIdentities', 'mergeIdentities'],
    description:
      'the same-type rule of mergeIdentities is not checked once either identity holds a source that ' +
      'linkIdentities put there: a practitioner and a facility can then be merged',
    handler: (next, ctx, op) => {
      if (op === 'linkIdentities') return rememberBefore(next, ctx, 'source', 'linkedFrom', true);
      const sides = [rec(ctx, 'toSurviveSource'), rec(ctx, 'toRetireSource')];
      const linked = sides.some(
        (x) => x && ctx.store.activeMembers(x.linkId).some((m) => mem(ctx.store).linkedFrom.has(m.key)),
      );
      return next(linked ? { ...ctx, matcher: { ...ctx.matcher, kind: undefined } } : ctx);
    },
  },
];
SEQUENCE_FAULTS.push(...PERSON_PROVIDER_SEQUENCE_FAULTS);

/** True when every schema issue of the request is at a member named `date` (source references carry one). */
const onlyDatesInvalid = (
  service: 'organization' | 'person' | 'provider',
  op: string,
  content: Record<string, unknown>,
) => {
  const r = SERVICES[service].operations.find((o) => o.name === op)?.request.safeParse(content);
  return Boolean(r && !r.success && r.error.issues.every((i) => i.path.at(-1) === 'date'));
};

/**
 * Bad input only generated requests reach (test/bad-input-generated.test.ts): no hand-written scenario sends a source
 * reference with a malformed date. Kept with the sequence faults so it is switchable (REFERENCE_FAULTS) but not in the
 * detection list.
 */
export const BAD_INPUT_FAULTS: FaultDefinition[] = [
  {
    name: 'source-date-unchecked',
    service: 'organization',
    requirement: 'ORG-BADINPUT-GENERATED',
    description:
      'a malformed DATE in a source reference (source.date, toRetireSource.date, identity.sources[].date, ...) ' +
      'is not validated: the request is carried out as if the date were absent',
    acceptInvalid: (op, content) => onlyDatesInvalid('organization', op, content),
  },
  {
    name: 'source-date-applied-rejected',
    service: 'organization',
    requirement: 'ORG-REJECTED-NO-CHANGE',
    description:
      'a request whose only invalid member is a malformed DATE in a source reference is carried out as if the ' +
      'date were absent, then answered as a rejection (HTTP 400, success=false)',
    acceptInvalid: (op, content) => onlyDatesInvalid('organization', op, content),
    reply: (i) => {
      if (i.status !== 200 || !onlyDatesInvalid('organization', i.operation, i.request.content ?? {})) return;
      i.status = 400;
      Object.assign(i.body, { success: false, message: 'invalid date', errors: ['invalid date'], content: null });
    },
  },
];
SEQUENCE_FAULTS.push(...BAD_INPUT_FAULTS);

export const MATCHING_FAULTS: FaultDefinition[] = [
  {
    name: 'match-threshold-shifts-scores',
    service: 'organization',
    requirement: 'ORG-SEARCH-THRESHOLD-MONOTONE',
    operations: ['demographicsSearch'],
    description:
      'demographicsSearch adds a bonus that grows with matchScoreThreshold to every score, so raising the ' +
      'threshold changes the scores of the same identities',
    handler: (next, ctx) => {
      const t = ctx.content.matchScoreThreshold;
      const result = next(ctx) as { searchResults: Array<{ matchScore: number }> };
      if (typeof t === 'number' && t > 0)
        for (const r of result.searchResults) r.matchScore = round(Math.min(1, r.matchScore + 0.05 * t));
      return result;
    },
  },
  {
    name: 'match-scores-jitter',
    service: 'organization',
    requirement: 'ORG-MATCH-DETERMINISTIC',
    operations: ['demographicsSearch'],
    description: 'scores carry random noise of up to 0.01, so the same search twice gives different scores',
    handler: (next, ctx) => {
      const result = next(ctx) as { searchResults: Array<{ matchScore: number }> };
      for (const r of result.searchResults)
        r.matchScore = round(Math.max(0, Math.min(1, r.matchScore + (Math.random() - 0.5) * 0.02)));
      result.searchResults.sort((a, b) => b.matchScore - a.matchScore);
      return result;
    },
  },
  {
    name: 'match-query-second-best',
    service: 'organization',
    requirement: 'ORG-QUERY-BEST-MATCH',
    operations: ['demographicsQuery'],
    description:
      'demographicsQuery returns the runner-up candidate whenever one scores at least the search floor, instead ' +
      'of the top demographicsSearch result',
    handler: (next, ctx) => {
      const [best, second] = candidates(ctx, ctx.content.identity);
      if (best && second && best.score >= ctx.matcher.threshold && second.score >= ctx.matcher.floor)
        return identityReply(ctx, second.linkId);
      return next(ctx);
    },
  },
];
