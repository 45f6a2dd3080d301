/**
 * The metamorphic checks of one service, registered from a table: threshold monotonicity, maxSearchResults prefix,
 * self-match, determinism (also across response views), one threshold for every decision, and demographicsQuery
 * agreeing with the top demographicsSearch result. Requirement IDs are `<prefix>-...`; each service's catalogue holds
 * them.
 * Source: organization-identity-api.md, Endpoints rule 1, "What the service does".
 */
import { seededFaker, testSeed } from '../../../generators/seed.js';
import { Check } from '../../../harness/check.js';
import { answerOf, isAbsent } from '../../../harness/reply.js';
import { runInfo, verboseLine } from '../../../harness/targets.js';
import { CouldNotJudge } from '../../../harness/verdict.js';
import type { ServiceName } from '../../../specs/common/model.js';
import { requirementFor } from '../../../specs/services.js';
import { REQUEST_REFUSED, requestRefused } from '../../../specs/clauses/contract.js';
import {
  MONOTONE_BROKEN,
  NONDETERMINISTIC,
  PREFIX_BROKEN,
  SELF_NOT_FIRST,
  THRESHOLDS_CONTRADICT,
  monotoneBroken,
  nondeterministic,
  oneThreshold,
  prefixBroken,
  selfNotFirst,
  thresholdsContradict,
} from '../../../specs/clauses/matching.js';
import { QUERY_NOT_BEST, queryNotBest } from '../../../specs/clauses/query.js';
import { type Family, type Generate, type Hit, postFamily, search } from './metamorphic.js';
import { type CheckFn, type SharedCheck, registerShared } from './types.js';

/** The family shared by the checks that only search it (sharedFamily). */
type FamilyOf = (t: Check) => Promise<Family>;

const ownOnly = (hits: Hit[], own: Set<string>) => hits.filter((h) => own.has(h.linkId));
const fmt = (hits: Hit[]) => hits.map((h) => `${h.linkId}:${h.score}`).join(', ') || '(none)';

/** What the metamorphic checks of a service receive: its registrar and how its identities are generated. */
interface MetamorphicSetup {
  check: CheckFn;
  generate: Generate;
}
type MetamorphicCheck = SharedCheck<MetamorphicSetup>;

/** The family the checks that only search it share in a run (sharedFamily), one per service's set-up. */
const families = new WeakMap<MetamorphicSetup, FamilyOf>();
function familyFor(s: MetamorphicSetup): FamilyOf {
  let f = families.get(s);
  if (!f) {
    const cites = [
      'metamorphic.thresholdMonotone',
      'metamorphic.maxPrefix',
      'metamorphic.selfFirst',
      'metamorphic.deterministic',
      'query.bestMatch',
    ].map((role) => requirementFor(s.check.service, role)!);
    families.set(s, (f = sharedFamily(s.check.service, s.generate, cites)));
  }
  return f;
}

/**
 * The metamorphic matching checks of a service, in this order (check IDs and the order of checks in a file are
 * observable).
 */
export const metamorphicChecks = (check: CheckFn, generate: Generate) =>
  registerShared({ check, generate }, [
    THRESHOLD_MONOTONE,
    MAX_PREFIX,
    SELF_FIRST,
    DETERMINISTIC,
    ONE_THRESHOLD,
    QUERY_BEST_MATCH,
  ]);

/**
 * Raising matchScoreThreshold returns a subset of the family's results, with the same scores.
 * Source: organization-identity-api.md, Endpoints, rule 1.
 */
const THRESHOLD_MONOTONE: MetamorphicCheck = {
  id: 'raising-matchscorethreshold-returns-a-subset-with-the-same-scores',
  role: 'metamorphic.thresholdMonotone',
  title: 'raising matchScoreThreshold returns a subset with the same scores',
  body: async (t, { s, id: MONO }) => {
    const f = await familyFor(s)(t);
    // Probes and thresholds are independent searches: they go out together.
    const observed = await Promise.all(
      f.probes.map(async (probe) => {
        const all = await search(t, probe.identity, { matchScoreThreshold: 0, maxSearchResults: 10 }, [MONO]);
        const thresholds = [...new Set(ownOnly(all, f.own).map((h) => h.score))]
          .slice(0, 3)
          .flatMap((s) => [s, Math.min(1, s + 0.0001)]);
        const above = await Promise.all(
          thresholds.map(async (th) => ({
            th,
            hits: await search(t, probe.identity, { matchScoreThreshold: th, maxSearchResults: 10 }, [MONO]),
          })),
        );
        return { probe, all, above };
      }),
    );
    for (const { probe, all, above } of observed) {
      for (const { th, hits } of above) {
        // Cut off by maxSearchResults at threshold 0 (ties at its lowest score included: their order is the
        // deployment's).
        const cut = all.length >= 10 ? { at: all.at(-1)?.score ?? 0 } : {};
        t.judge(
          MONOTONE_BROKEN,
          MONO,
          monotoneBroken(ownOnly(hits, f.own), ownOnly(all, f.own), cut, `${probe.name} at threshold ${th}`),
        );
      }
    }
  },
};

/**
 * maxSearchResults=k returns the first k of the family's results of a larger request.
 * Source: organization-identity-api.md, Endpoints (demographicsSearch).
 */
const MAX_PREFIX: MetamorphicCheck = {
  id: 'maxsearchresults-k-returns-the-first-k-results-of-a-larger-request',
  role: 'metamorphic.maxPrefix',
  title: 'maxSearchResults=k returns the first k results of a larger request',
  body: async (t, { s, id: PREFIX }) => {
    const f = await familyFor(s)(t);
    let compared = 0;
    await Promise.all(
      f.probes.map(async (probe) => {
        for (let attempt = 0; attempt < 3; attempt++) {
          const q = { matchScoreThreshold: 0 };
          const big = await search(t, probe.identity, { ...q, maxSearchResults: 10 }, [PREFIX]);
          const smalls = await Promise.all(
            [1, 2, 3]
              .filter((k) => k < big.length)
              .map(async (k) => ({
                k,
                hits: await search(t, probe.identity, { ...q, maxSearchResults: k }, [PREFIX]),
              })),
          );
          const again = await search(t, probe.identity, { ...q, maxSearchResults: 10 }, [PREFIX]);
          // Compared on the family's own identities: other records come and go while the searches run (a record
          // soft-deleted and restored between them leaves `big` and `again` alike but not the smaller searches, and
          // with files side by side some record changes between almost any two searches), while the family's ranking
          // holds still unless the family itself changed.
          if (fmt(ownOnly(again, f.own)) !== fmt(ownOnly(big, f.own))) continue; // the family's results changed in between: try again
          for (const s of smalls)
            t.judge(
              PREFIX_BROKEN,
              PREFIX,
              prefixBroken(ownOnly(s.hits, f.own), ownOnly(big, f.own), `${probe.name}, maxSearchResults=${s.k}`),
            );
          compared += smalls.filter((s) => ownOnly(s.hits, f.own).length).length; // a smaller search with none of the family's identities shows nothing
          break;
        }
      }),
    );
    if (!compared)
      t.skip(
        "no smaller search (of more than one result) returned any of the family's identities, or results kept " +
          'changing: nothing to compare',
      );
  },
};

/**
 * A search with an exact copy of the family's base identity returns it first, with the highest score.
 * Source: organization-identity-api.md, What the service does.
 */
const SELF_FIRST: MetamorphicCheck = {
  id: 'a-search-with-an-exact-copy-returns-its-identity-first-with-the-highest-score',
  role: 'metamorphic.selfFirst',
  title: 'a search with an exact copy returns its identity first with the highest score',
  body: async (t, { s, id: SELF }) => {
    const f = await familyFor(s)(t);
    const found = await search(t, f.base, { matchScoreThreshold: 0, maxSearchResults: 10 }, [SELF]);
    t.judge(SELF_NOT_FIRST, SELF, selfNotFirst(f.baseLinkId, found));
  },
};

/**
 * The same search twice, and with requested response views, gives the same family identities and scores.
 * Source: organization-identity-api.md, What the service does (responseIdentityFormatNames; scores).
 */
const DETERMINISTIC: MetamorphicCheck = {
  id: 'the-same-search-twice-and-with-a-requested-view-gives-the-same-identities-and-scores',
  role: 'metamorphic.deterministic',
  title: 'the same search twice, and with a requested view, gives the same identities and scores',
  body: async (t, { s, id: DET }) => {
    const f = await familyFor(s)(t);
    const q = { matchScoreThreshold: 0, maxSearchResults: 10 };
    const views = t.profile.responseViews.length ? t.profile.responseViews : ['DEFAULT'];
    const observed = await Promise.all(
      f.probes.map(async (probe) => {
        const [one, two, viewed] = await Promise.all([
          search(t, probe.identity, q, [DET]),
          search(t, probe.identity, q, [DET]),
          search(t, probe.identity, { ...q, responseIdentityFormatNames: views }, [DET]),
        ]);
        return { probe, one, two, viewed };
      }),
    );
    for (const { probe, one, two, viewed } of observed) {
      // A full list is cut at maxSearchResults: other records that come or go between the searches (other checks', or
      // the run's own being removed) move family identities at or below its lowest score in or out of it. Those are
      // compared only when no list was cut above them.
      const cut = (h: Hit[]) =>
        h.length >= q.maxSearchResults ? Math.min(...h.map((x) => x.score)) : Number.NEGATIVE_INFINITY;
      const floor = Math.max(cut(one), cut(two), cut(viewed));
      const key = (h: Hit[]) =>
        fmt([...ownOnly(h, f.own)].filter((x) => x.score > floor).sort((a, b) => a.linkId.localeCompare(b.linkId)));
      t.judge(
        NONDETERMINISTIC,
        DET,
        nondeterministic(key(one), [
          { what: `${probe.name}: second identical search`, key: key(two) },
          { what: `${probe.name}: same search with responseIdentityFormatNames`, key: key(viewed) },
        ]),
      );
    }
  },
};

/**
 * One match threshold explains every postIdentity link decision and every demographicsQuery answer.
 * Source: organization-identity-api.md, What the service does (the match threshold demographicsQuery applies);
 * person-provider-identity-api.md, Endpoints (/v2/demographicsQuery: the same threshold used when matching in
 * postIdentity).
 */
const ONE_THRESHOLD: MetamorphicCheck = {
  id: 'one-match-threshold-explains-every-post-and-query-decision',
  role: 'metamorphic.oneThreshold',
  title: 'one match threshold explains every post and query decision',
  options: { chain: true },
  body: async (t, { s: { check, generate }, id: ONE }) => {
    const f = await postFamily(t, generate, [ONE], { decisions: true });
    const decisions = [...f.decisions];
    const queried = await Promise.all(
      f.probes.map(async (probe) => {
        const read = async () => {
          const [hits, q] = await Promise.all([
            search(t, probe.identity, { matchScoreThreshold: 0, maxSearchResults: 5 }, [ONE]),
            t.call('demographicsQuery', { identity: probe.identity }),
          ]);
          return { probe, score: hits[0]?.score ?? 0, q };
        };
        // A lagging search index may still show an identity as it was before the family's last post: read again,
        // within the consistency budget, until the query agrees with the posts' decisions; a deployment whose
        // decisions no threshold explains keeps disagreeing.
        return t.settle(
          `demographicsQuery of ${probe.name} agrees with the posts' decisions`,
          read,
          (x) =>
            x.q.success !== true ||
            oneThreshold([...f.decisions, { what: '', score: x.score, matched: !isAbsent(x.q) }]).contradictions
              .length === 0,
        );
      }),
    );
    for (const { probe, score, q } of queried) {
      t.judge(REQUEST_REFUSED, ONE, requestRefused(`demographicsQuery of ${probe.name}`, answerOf(q)), q);
      decisions.push({ what: `demographicsQuery of ${probe.name}`, score, matched: !isAbsent(q) });
    }
    const r = oneThreshold(decisions);
    if (r.interval)
      verboseLine(
        `[metamorphic] ${check.service}: the match threshold lies in (${r.interval[0]}, ${r.interval[1]}] ` +
          `(${decisions.length} decisions)`,
      );
    t.judge(THRESHOLDS_CONTRADICT, ONE, thresholdsContradict(decisions));
  },
};

/**
 * demographicsQuery, whenever it returns an identity, returns the top demographicsSearch result of the same probe.
 * Source: organization-identity-api.md, What the service does (query by demographics: best match).
 */
const QUERY_BEST_MATCH: MetamorphicCheck = {
  id: 'demographicsquery-returns-the-top-demographicssearch-result-whenever-it-returns-one',
  role: 'query.bestMatch',
  title: 'demographicsQuery returns the top demographicsSearch result whenever it returns one',
  body: async (t, { s, id: BEST }) => {
    const f = await familyFor(s)(t);
    let returned = 0;
    const observed = await Promise.all(
      f.probes.map(async (probe) => {
        const [q, found] = await Promise.all([
          t.call('demographicsQuery', { identity: probe.identity }),
          search(t, probe.identity, { matchScoreThreshold: 0, maxSearchResults: 10 }, [BEST]),
        ]);
        return { probe, q, found };
      }),
    );
    for (const { probe, q, found } of observed) {
      if (isAbsent(q)) continue;
      returned++;
      t.judge(
        QUERY_NOT_BEST,
        BEST,
        queryNotBest(
          String(q.content?.linkId),
          found.map((h) => ({ linkId: h.linkId, matchScore: h.score })),
        ).map((x) => `${probe.name}: ${x}`),
        q,
      );
    }
    if (!returned) t.skip('demographicsQuery returned no identity for any probe, so there was nothing to compare');
  },
};

/**
 * The family the checks that only search it share: posted once per run (per detection variant) by whichever of them
 * asks first, with a Faker of its own (run seed + a fixed key), so every one of them sees the same family whatever
 * order they start in or which of them a filter selects, and a replay posts the same identities. Its exchanges go with
 * the check that asked first. A family that cannot be posted leaves each of them unable to judge (the post requirements
 * are other checks' business). "One match threshold explains every decision" posts its own: its decisions depend on the
 * order of its posts.
 * Source: organization-identity-api.md, Endpoints rule 1; person-provider-identity-api.md, same.
 */
function sharedFamily(service: ServiceName, generate: Generate, cites: string[]): (t: Check) => Promise<Family> {
  const perRun = new Map<string, { poster: Check; posted: Promise<Family> }>();
  return async (t) => {
    let entry = perRun.get(t.run.runId);
    const first = !entry;
    if (!entry) {
      const poster = new Check(
        t.service,
        cites,
        seededFaker(testSeed(runInfo().seed, `${service}/metamorphic/shared-family`)),
        t.client,
        t.profile,
        t.run,
        t.file,
      );
      entry = { poster, posted: postFamily(poster, generate, cites) };
      perRun.set(t.run.runId, entry);
    }
    try {
      return await entry.posted;
    } catch (e) {
      throw new CouldNotJudge(
        `the family of identities the searching checks share could not be posted: ` +
          `${e instanceof Error ? e.message : String(e)}`,
      );
    } finally {
      if (first) {
        t.exchanges.push(...entry.poster.exchanges);
        // What posting the family cost the deployment is counted once, with the check that asked first.
        t.requestsSent += entry.poster.requestsSent;
      }
    }
  };
}
