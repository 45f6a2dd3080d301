/**
 * demographicsQuery (best match, exact copy found), identityIdQuery (returns the identity, echoes requestedLinkId) and
 * nativeIdQuery, shared by the organization and provider services.
 * Source: organization-identity-api.md, What the service does, Endpoints (rule 3); person-provider-identity-api.md,
 * Endpoints (provider demographicsQuery, identityIdQuery, nativeIdQuery).
 */
import {
  IDQUERY_OTHER_IDENTITY,
  NATIVEID_WRONG_IDENTITY,
  QUERY_MISSES_EXACT,
  QUERY_NOT_BEST,
  REQUESTED_NOT_ECHOED,
  idQueryOtherIdentity,
  nativeIdWrongIdentity,
  queryMissesExact,
  queryNotBest,
  requestedNotEchoed,
} from '../../../specs/clauses/query.js';
import { postContent } from '../../../generators/common.js';
import { describeReply } from '../../../harness/reply.js';
import { groupedSources, ranksFirst } from '../../../specs/common/identity-content.js';
import { script } from '../script.js';
import type { Check } from '../../../harness/check.js';
import { type Kit, type Scripted, type Shared, type SharedCheck, registerShared } from './types.js';

const ref = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });

type QuerySetup = Shared & Partial<Scripted>;
type QueryCheck = SharedCheck<QuerySetup>;

/**
 * The query checks, in a fixed order (their order in the file is observable); a service registers those its catalogue
 * gives a requirement (registerShared).
 */
export const queryChecks = (s: QuerySetup) =>
  registerShared(s, [POST_ADDS, BEST_MATCH, BEST_OF_TWO, FINDS_EXACT, ID_QUERY_ECHOES, ID_QUERY, RETIRED_ECHO]);

/**
 * A posted identity is added (`adds`), and nativeIdQuery by its source returns that identity (`native`).
 * Source: organization-identity-api.md, Endpoints, rule 2 (postIdentity adds), What the service does (query by source
 * name and native ID); person-provider-identity-api.md, Endpoints (provider postIdentity, nativeIdQuery).
 */
const POST_ADDS: QueryCheck = {
  id: 'a-posted-identity-is-added-and-found-through-nativeidquery',
  role: 'query.postAdds',
  title: 'a posted identity is added and found through nativeIdQuery',
  needs: { roles: ['query.nativeIdQuery'] },
  body: async (t, { s: { kit }, id: adds, ids }) => {
    const native = ids['query.nativeIdQuery']!;
    const a = await kit.postNew(t, [adds]);
    const found = await kit.lookupUntil(
      t,
      a.source,
      'the posted source resolves',
      (r) => r.content?.linkId === a.linkId,
    );
    t.judge(
      NATIVEID_WRONG_IDENTITY,
      native,
      nativeIdWrongIdentity(a.source, a.linkId, {
        linkId: found.content?.linkId,
        grouped: groupedSources(found.content),
      }),
      found,
    );
  },
};

/**
 * demographicsQuery, when it returns an identity, returns the top demographicsSearch result for the same identity.
 * Source: organization-identity-api.md, What the service does (query by demographics: best match);
 * person-provider-identity-api.md, Endpoints (demographicsQuery).
 */
const BEST_MATCH: QueryCheck = {
  id: 'demographicsquery-returns-the-top-demographicssearch-result-when-it-returns-an-identity',
  role: 'query.bestMatch',
  title: 'demographicsQuery returns the top demographicsSearch result when it returns an identity',
  body: async (t, { s: { kit }, id }) => {
    // A second identity makes the query choose between candidates.
    const [a] = await Promise.all([kit.postNew(t, [id]), kit.postNew(t, [id])]);
    // Both reads once the search index shows the posted identity, so a lagging index does not pit an old search
    // against a new query.
    await kit.whenSearchable(t, a);
    // The search at threshold 0: a default threshold of the search (not shown) must not hide the candidates the query
    // chose from.
    const [query, search] = await Promise.all([
      t.call('demographicsQuery', { identity: a.identity }),
      t.call('demographicsSearch', { identity: a.identity, matchScoreThreshold: 0 }),
    ]);
    const linkId = query.content?.linkId;
    if (!linkId) return t.skip('demographicsQuery returned no identity for an exact copy');
    t.judge(QUERY_NOT_BEST, id, queryNotBest(linkId, search.content?.searchResults ?? []), search);
    t.exercised(id, 'above-threshold:1');
  },
};

/**
 * demographicsQuery returns the best of two identities that both match, whether the best was posted first or second.
 * Source: organization-identity-api.md, What the service does (query by demographics: best match);
 * person-provider-identity-api.md, Endpoints (demographicsQuery).
 */
const BEST_OF_TWO: QueryCheck = {
  id: 'demographicsquery-returns-the-best-of-two-identities-above-the-match-threshold-whichever-was-created-first',
  role: 'query.bestMatch',
  title: 'demographicsQuery returns the best of two identities above the match threshold, whichever was created first',
  body: async (t, { s: { kit }, id }) => {
    // X2 is X1 with another identity's phone numbers (a near copy: it matched X1 at post in every reference matcher);
    // posted after X1, and unlinked from it when the post linked them, so two identities match either probe.
    const x1 = await kit.postNew(t, [id]);
    // The post of X2 is matched against X1 only once a lagging search index shows X1.
    await kit.searchable(t, x1);
    const other = kit.make(t);
    const identity = { ...x1.identity, phoneNumbers: other.identity.phoneNumbers, sources: other.identity.sources };
    const content = postContent(identity, other.source, t.profile.sourcePlacement);
    const x2 = await kit.postAndRead(t, { ...other, identity, content }, [id]);
    // Linked at post: X1 scores at or above the match threshold against X2 (and so against X2's copy).
    const linked = x2.linkId === x1.linkId;
    let x2Id = x2.linkId;
    if (linked) {
      // The unlink sets up the category; its own rule is judged elsewhere, so a refusal only stops this check.
      const r = await t.raw('unlinkIdentities', { unlinkFromSource: ref(x1.source), source: ref(x2.source) });
      if (r.success !== true)
        t.skip(`unlinkIdentities of the near copy from the original was refused (${describeReply(r)})`);
      x2Id =
        (await kit.linkIdUntil(t, x2.source, 'the unlinked source has its own identity', (l) => l !== x1.linkId)) ?? '';
    }
    if (x2Id === x1.linkId) t.skip('the near copy stayed in the identity of the original after unlinkIdentities');
    const probes = [
      [x1, 'above-threshold:2+'],
      [x2, 'best-not-first'],
    ] as const;
    // The two probes only read: both are read at once, and judged in order.
    const read = await Promise.all(
      probes.map(async ([probe]) => {
        const [best, worse] = probe === x1 ? [x1.linkId, x2Id] : [x2Id, x1.linkId];
        // Both reads once the search ranks the probe's own identity first and shows the other (a lagging index).
        await t.waitFor(
          `search ranks ${best} first and shows ${worse}`,
          () => t.call('demographicsSearch', { identity: probe.identity, matchScoreThreshold: 0 }),
          (x) =>
            ranksFirst(x, best) &&
            (x.content?.searchResults ?? []).some((y: { linkId?: unknown }) => y.linkId === worse),
        );
        const [query, search] = await Promise.all([
          t.call('demographicsQuery', { identity: probe.identity }),
          t.call('demographicsSearch', { identity: probe.identity, matchScoreThreshold: 0 }),
        ]);
        return { best, worse, query, search };
      }),
    );
    for (const [i, [, category]] of probes.entries()) {
      const { best, worse, query, search } = read[i]!;
      const results = search.content?.searchResults ?? [];
      const score = (l: string) => results.find((y: { linkId?: unknown }) => y.linkId === l)?.matchScore;
      const [a, b] = [score(best), score(worse)];
      // Without scores (person result fields are not shown) two close candidates may tie in any order: not judged.
      if (typeof a !== 'number' || typeof b !== 'number') {
        t.note(`${category}: the search gives no scores to rank ${best} and ${worse} by`);
        continue;
      }
      const linkId = query.content?.linkId;
      if (!linkId) {
        t.note(`${category}: demographicsQuery returned no identity`);
        continue;
      }
      t.judge(QUERY_NOT_BEST, id, queryNotBest(linkId, results), search);
      if (linked && a > b) t.exercised(id, category);
    }
  },
};

/**
 * demographicsQuery with an exact copy of a posted identity returns that identity.
 * Source: organization-identity-api.md, What the service does; person-provider-identity-api.md, What the service does.
 */
const FINDS_EXACT: QueryCheck = {
  id: 'demographicsquery-with-an-exact-copy-of-a-posted-identity-returns-it',
  role: 'query.findsExact',
  title: 'demographicsQuery with an exact copy of a posted identity returns it',
  body: async (t, { s: { kit }, id }) => {
    const a = await kit.postNew(t, [id]);
    const found = await t.eventually('query finds the posted identity', async () => {
      const r = await t.call('demographicsQuery', { identity: a.identity });
      return r.content?.linkId === a.linkId ? r : undefined;
    });
    t.judge(QUERY_MISSES_EXACT, id, queryMissesExact(a.linkId, found !== undefined));
  },
};

/**
 * identityIdQuery returns the identity with the requested link ID (`returns`) and, where the service has the rule,
 * echoes it in requestedLinkId (`echo`).
 * Source: organization-identity-api.md, What the service does (link ID), Endpoints, rule 3;
 * person-provider-identity-api.md, Endpoints (identityIdQuery).
 */
/** identityIdQuery of a posted identity's link ID; `echo`: the requirement it echoes the link ID by, if any. */
async function idQuery(t: Check, kit: Kit, returns: string, echo: string | undefined): Promise<void> {
  const a = await kit.postNew(t, [returns]);
  const r = await t.ok('identityIdQuery', { linkId: a.linkId }, { cites: [returns] });
  t.judge(IDQUERY_OTHER_IDENTITY, returns, idQueryOtherIdentity(a.linkId, r.content?.linkId), r);
  if (echo) t.judge(REQUESTED_NOT_ECHOED, echo, requestedNotEchoed(a.linkId, r.content?.requestedLinkId), r);
}
const ID_QUERY_ECHOES: QueryCheck = {
  id: 'identityidquery-returns-the-identity-and-echoes-requestedlinkid',
  role: 'query.idQueryReturns',
  title: 'identityIdQuery returns the identity and echoes requestedLinkId',
  needs: { roles: ['query.idQueryEcho'] },
  body: (t, { s, id, ids }) => idQuery(t, s.kit, id, ids['query.idQueryEcho']),
};
const ID_QUERY: QueryCheck = {
  id: 'identityidquery-returns-the-identity-with-the-requested-link-id',
  role: 'query.idQueryReturns',
  title: 'identityIdQuery returns the identity with the requested link ID',
  needs: { without: ['query.idQueryEcho'] },
  body: (t, { s, id }) => idQuery(t, s.kit, id, undefined),
};

/**
 * identityIdQuery of a link ID retired by a merge echoes that link ID (judged by the scripted merge step).
 * Source: organization-identity-api.md, Endpoints, rule 3.
 */
const RETIRED_ECHO: QueryCheck = {
  id: 'identityidquery-of-a-link-id-retired-by-a-merge-echoes-that-link-id-in-requestedlinkid',
  role: 'query.idQueryEcho',
  title: 'identityIdQuery of a link ID retired by a merge echoes that link ID in requestedLinkId',
  needs: { setup: (s) => Boolean(s.walks) },
  body: async (t, { s: { walks, kind }, id: echo }) => {
    // Rule 3 holds for every link ID asked, not only live ones: one retired by a merge answers nothing or echoes what
    // was asked.
    const s = script(t, walks!);
    const [a, b] = await s.start(2, kind);
    await s.step('merge', [a!, b!], [echo]);
  },
};
