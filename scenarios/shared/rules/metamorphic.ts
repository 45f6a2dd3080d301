/**
 * Metamorphic checks on matching: properties any correct deployment has whatever its scores and threshold are (the
 * seeds show neither). A "family" of identities is posted: a base identity A, an unrelated identity B, and blends of A
 * toward B (a growing share of A's members replaced by B's), so searches see a spread of scores. The checks that only
 * search it share one family per run (metamorphic-checks.ts sharedFamily). Results are compared only on the family's
 * own link IDs where other checks' records could interfere.
 *
 * Source: organization-identity-api.md, Endpoints rule 1 and "What the service does" (how scores are computed and the
 * threshold: not shown); person-provider-identity-api.md, same sections.
 */
import type { Check } from '../../../harness/check.js';
import { describeReply } from '../../../harness/check.js';
import { type Reply, isAbsent } from '../../../harness/reply.js';
import { postContent } from '../../../generators/common.js';
import type { SourceRef } from '../../../specs/common/wire.js';
import type { Decision, Hit } from '../../../specs/clauses/matching.js';
import { POSTED_NOT_FOUND, postedNotFound } from '../../../specs/clauses/post.js';

export type Generate = (t: Check, source: SourceRef) => Record<string, unknown>;

export type { Decision, Hit } from '../../../specs/clauses/matching.js';

export interface Family {
  base: Record<string, unknown>;
  probes: Array<{ name: string; identity: Record<string, unknown> }>;
  own: Set<string>;
  baseLinkId: string;
  decisions: Decision[];
}

const withoutSources = (identity: Record<string, unknown>) => {
  const { sources: _s, ...rest } = identity;
  return rest;
};

/** A's members with the first `share` of `order` replaced by B's. */
function blend(a: Record<string, unknown>, b: Record<string, unknown>, order: string[], share: number) {
  const out = { ...withoutSources(a) };
  for (const k of order.slice(0, Math.round(order.length * share))) if (b[k] !== undefined) out[k] = b[k];
  return out;
}

/** demographicsSearch; throws a failure citing `cites` when it does not succeed. */
export async function search(
  t: Check,
  identity: Record<string, unknown>,
  extra: Record<string, unknown>,
  cites: string[],
): Promise<Hit[]> {
  const r = await t.ok('demographicsSearch', { identity, ...extra }, { cites });
  return hits(r);
}

export const hits = (r: Reply): Hit[] =>
  (Array.isArray(r.content?.searchResults) ? r.content.searchResults : []).map((x: any) => ({
    linkId: String(x?.linkId),
    score: Number(x?.matchScore),
  }));

/** Best score of a probe against everything (threshold 0), or 0 when nothing comes back. */
const topScore = async (t: Check, identity: Record<string, unknown>, cites: string[]) =>
  (await search(t, identity, { matchScoreThreshold: 0, maxSearchResults: 5 }, cites))[0]?.score ?? 0;

/**
 * Posts the family. With `decisions`, one post after another, each recording its decision (linked or not) with the best
 * score the posted identity had just before (a decision depends on what was posted before it); without, all posts go
 * out together and `decisions` stays empty (the checks that only search the family need it posted, not the order of its
 * decisions).
 */
export async function postFamily(
  t: Check,
  generate: Generate,
  cites: string[],
  { decisions: withDecisions = false }: { decisions?: boolean } = {},
): Promise<Family> {
  const post = async (identity: Record<string, unknown>) => {
    const source = t.source();
    const withSource = { ...identity, sources: [{ name: source.name, id: source.id }] };
    const score = withDecisions ? await topScore(t, identity, cites) : 0;
    const r = await t.ok('postIdentity', postContent(withSource, source, t.profile.sourcePlacement), { cites });
    const linked = r.content?.linkId !== null && r.content?.linkId !== undefined;
    const ownSearch = () => search(t, identity, { matchScoreThreshold: 0, maxSearchResults: 5 }, cites);
    // The lookup and the first search go together: the search's results are judged by the link ID the lookup gives.
    const [found, first] = await Promise.all([
      t.settle(
        'the posted source resolves',
        () => t.call('nativeIdQuery', { source: { name: source.name, id: source.id } }),
        (x) => !isAbsent(x),
      ),
      // Only where reads may lag (Check.waitFor reads nothing when the profile declares them current).
      (t.profile.consistencyBudgetMs ?? 0) > 0 ? ownSearch() : undefined,
    ]);
    t.judge(POSTED_NOT_FOUND, cites, postedNotFound(source, !isAbsent(found), describeReply(found)), found);
    const linkId = String(found.content?.linkId);
    // The next probe's score must see this post: wait for a lagging search index to rank it first for its own data.
    const shows = (hits: Hit[]) => hits.some((h) => h.linkId === linkId && h.score === hits[0]!.score);
    if (first && !shows(first)) await t.waitFor(`search shows ${linkId}`, ownSearch, shows);
    return { linkId, decision: { what: 'postIdentity', score, matched: linked } };
  };
  const aSource = t.source();
  const a = withoutSources(generate(t, aSource));
  const b = withoutSources(generate(t, t.source()));
  const order = t.faker.helpers.shuffle(Object.keys(a));
  const blends = [0.15, 0.3, 0.45, 0.6, 0.75].map((share) => ({
    name: `A with ${Math.round(share * 100)}% of its members from B`,
    identity: blend(a, b, order, share),
  }));
  const probes = [{ name: 'exact copy of A', identity: a }, ...blends];
  if (!withDecisions) {
    // Sources are drawn in this order whatever order the replies arrive in (t.source() runs before the first await of
    // each post).
    const [base, other, ...posted] = await Promise.all([a, b, ...blends.map((x) => x.identity)].map(post));
    return {
      base: a,
      probes,
      own: new Set([base!, other!, ...posted].map((p) => p.linkId)),
      baseLinkId: base!.linkId,
      decisions: [],
    };
  }
  const base = await post(a);
  const other = await post(b);
  const own = new Set([base.linkId, other.linkId]);
  const decisions: Decision[] = [];
  for (const probe of blends) {
    const p = await post(probe.identity);
    own.add(p.linkId);
    decisions.push({ ...p.decision, what: `postIdentity of ${probe.name}` });
  }
  return { base: a, probes, own, baseLinkId: base.linkId, decisions };
}
