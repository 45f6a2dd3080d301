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
import { type CheckFn, type Kit, type Scripted, type Shared, idsFor, titled } from './types.js';

const ref = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });

export const QUERY_ROLES = [
  'bestMatch',
  'findsExact',
  'idQueryReturns',
  'idQueryEcho',
  'postAdds',
  'nativeIdQuery',
] as const;
export type QueryRole = (typeof QUERY_ROLES)[number];

/** Registers the query checks in a fixed order: their check IDs and their order in the file are observable. */
export function queryChecks({ check, verifies, kit, label, walks, kind }: Shared & Partial<Scripted>): void {
  const ids = idsFor(check, 'query', QUERY_ROLES, verifies);
  if (ids.postAdds && ids.nativeIdQuery) postAddsCheck(check, kit, ids.postAdds, ids.nativeIdQuery, label);
  if (ids.bestMatch) {
    bestMatchCheck(check, kit, ids.bestMatch, label);
    bestOfTwoCheck(check, kit, ids.bestMatch, label);
  }
  if (ids.findsExact) findsExactCheck(check, kit, ids.findsExact, label);
  if (ids.idQueryReturns) idQueryCheck(check, kit, ids.idQueryReturns, ids.idQueryEcho, label);
  if (ids.idQueryEcho && walks) retiredEchoCheck(check, walks, kind, ids.idQueryEcho, label);
}

/**
 * A posted identity is added (`adds`), and nativeIdQuery by its source returns that identity (`native`).
 * Source: organization-identity-api.md, Endpoints, rule 2 (postIdentity adds), What the service does (query by source
 * name and native ID); person-provider-identity-api.md, Endpoints (provider postIdentity, nativeIdQuery).
 */
function postAddsCheck(check: CheckFn, kit: Kit, adds: string, native: string, label?: string): void {
  check(titled('a posted identity is added and found through nativeIdQuery', label), [adds, native], async (t) => {
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
  });
}

/**
 * demographicsQuery, when it returns an identity, returns the top demographicsSearch result for the same identity.
 * Source: organization-identity-api.md, What the service does (query by demographics: best match);
 * person-provider-identity-api.md, Endpoints (demographicsQuery).
 */
function bestMatchCheck(check: CheckFn, kit: Kit, id: string, label?: string): void {
  check(
    titled('demographicsQuery returns the top demographicsSearch result when it returns an identity', label),
    [id],
    async (t) => {
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
  );
}

/**
 * demographicsQuery returns the best of two identities that both match, whether the best was posted first or second.
 * Source: organization-identity-api.md, What the service does (query by demographics: best match);
 * person-provider-identity-api.md, Endpoints (demographicsQuery).
 */
function bestOfTwoCheck(check: CheckFn, kit: Kit, id: string, label?: string): void {
  check(
    titled(
      'demographicsQuery returns the best of two identities above the match threshold, whichever was created first',
      label,
    ),
    [id],
    async (t) => {
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
          (await kit.linkIdUntil(t, x2.source, 'the unlinked source has its own identity', (l) => l !== x1.linkId)) ??
          '';
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
  );
}

/**
 * demographicsQuery with an exact copy of a posted identity returns that identity.
 * Source: organization-identity-api.md, What the service does; person-provider-identity-api.md, What the service does.
 */
function findsExactCheck(check: CheckFn, kit: Kit, id: string, label?: string): void {
  check(titled('demographicsQuery with an exact copy of a posted identity returns it', label), [id], async (t) => {
    const a = await kit.postNew(t, [id]);
    const found = await t.eventually('query finds the posted identity', async () => {
      const r = await t.call('demographicsQuery', { identity: a.identity });
      return r.content?.linkId === a.linkId ? r : undefined;
    });
    t.judge(QUERY_MISSES_EXACT, id, queryMissesExact(a.linkId, found !== undefined));
  });
}

/**
 * identityIdQuery returns the identity with the requested link ID (`returns`) and, where the service has the rule,
 * echoes it in requestedLinkId (`echo`).
 * Source: organization-identity-api.md, What the service does (link ID), Endpoints, rule 3;
 * person-provider-identity-api.md, Endpoints (identityIdQuery).
 */
function idQueryCheck(check: CheckFn, kit: Kit, returns: string, echo: string | undefined, label?: string): void {
  check(
    titled(
      echo
        ? 'identityIdQuery returns the identity and echoes requestedLinkId'
        : 'identityIdQuery returns the identity with the requested link ID',
      label,
    ),
    echo ? [returns, echo] : [returns],
    async (t) => {
      const a = await kit.postNew(t, [returns]);
      const r = await t.ok('identityIdQuery', { linkId: a.linkId }, { cites: [returns] });
      t.judge(IDQUERY_OTHER_IDENTITY, returns, idQueryOtherIdentity(a.linkId, r.content?.linkId), r);
      if (echo) t.judge(REQUESTED_NOT_ECHOED, echo, requestedNotEchoed(a.linkId, r.content?.requestedLinkId), r);
    },
  );
}

/**
 * identityIdQuery of a link ID retired by a merge echoes that link ID (judged by the scripted merge step).
 * Source: organization-identity-api.md, Endpoints, rule 3.
 */
function retiredEchoCheck(
  check: CheckFn,
  walks: Scripted['walks'],
  kind: Scripted['kind'],
  echo: string,
  label?: string,
): void {
  // Rule 3 holds for every link ID asked, not only live ones: one retired by a merge answers nothing or echoes what was
  // asked.
  check(
    titled('identityIdQuery of a link ID retired by a merge echoes that link ID in requestedLinkId', label),
    [echo],
    async (t) => {
      const s = script(t, walks);
      const [a, b] = await s.start(2, kind);
      await s.step('merge', [a!, b!], [echo]);
    },
  );
}
