/**
 * householdQuery by each of its three keys (link ID, source plus native ID, household ID),
 * consistent with one another (judged as the walks judge them: each form against the others);
 * people posted at one shared address form one household. How households form is "not shown":
 * the key checks skip when no form finds a household.
 * Source: person-provider-identity-api.md, Endpoints (/householdQuery).
 */
import type { Check } from '../../harness/check.js';
import { POSTED_NOT_FOUND, postedNotFound } from '../../specs/clauses/post.js';
import { HOUSEHOLD_NOT_SHARED, householdNotShared } from '../../specs/clauses/person.js';
import { describeReply } from '../../harness/check.js';
import { postContent } from '../../generators/common.js';
import { personHousehold } from '../../generators/person.js';
import { personStateSpec } from '../../specs/person/state-spec.js';
import { answerOf } from '../../harness/reply.js';
import { withRejects } from '../../specs/clause-registry.js';
import { householdForms } from '../../specs/state/households.js';
import { area, list, person, src } from './person.js';

const { check } = area('households');

/** Posts a household of three people sharing one address; returns their sources and link IDs. */
async function household(t: Check, cites: string[]) {
  const sources = [t.source(0), t.source(1), t.source(0)];
  const members = personHousehold(t.faker, sources, 3);
  await Promise.all(
    members.map((m, i) => t.ok('postIdentity', postContent(m, sources[i]!, t.profile.sourcePlacement), { cites })),
  );
  const linkIds = await Promise.all(sources.map((s) => person.resolved(t, s)));
  t.judge(
    POSTED_NOT_FOUND,
    cites,
    sources.flatMap((s, i) => postedNotFound(s, Boolean(linkIds[i]))),
  );
  return { sources, linkIds: linkIds as string[] };
}

/**
 * Looks the household of member `i` up by its source, its link ID and the household ID either
 * found, and judges the three forms against one another (the whole-state oracle's judgement,
 * specs/state/households.ts householdForms), keeping the problems that cite `id`. Skips when
 * no form finds a household: how households form is not shown.
 */
async function householdCheck(t: Check, id: string, i: number) {
  const h = await household(t, [id]);
  const rules = personStateSpec.queries.households!;
  const [bySource, byLink] = await Promise.all([
    t.call('householdQuery', { source: src(h.sources[i]!) }),
    t.call('householdQuery', { linkId: h.linkIds[i] }),
  ]);
  const found = [bySource, byLink].map((r) => r.content?.householdId).find(isHouseholdId);
  if (!found)
    t.skip(`no lookup form finds a household for ${h.linkIds[i]} on this deployment (${describeReply(byLink)})`);
  const byId = await t.call('householdQuery', { householdId: found });
  const problems = householdForms(rules, 'the member', h.linkIds[i]!, answerOf(bySource), answerOf(byLink), (x) =>
    x === found ? answerOf(byId) : undefined,
  );
  // The whole-state oracle's clauses judge the lookup forms; this check keeps the findings citing its own requirement.
  t.reject(withRejects(problems.filter((p) => p.requirement === id)), byId);
}

const isHouseholdId = (x: unknown): x is string => typeof x === 'string' && x.length > 0;

check('householdQuery by link ID returns the household holding it', ['PERSON-HOUSEHOLD-BY-LINKID'], (t) =>
  householdCheck(t, 'PERSON-HOUSEHOLD-BY-LINKID', 0),
);

check(
  "householdQuery by source and native ID returns the household of that record's identity",
  ['PERSON-HOUSEHOLD-BY-SOURCE'],
  (t) => householdCheck(t, 'PERSON-HOUSEHOLD-BY-SOURCE', 1),
);

check('householdQuery by household ID returns that household with the same link IDs', ['PERSON-HOUSEHOLD-BY-ID'], (t) =>
  householdCheck(t, 'PERSON-HOUSEHOLD-BY-ID', 2),
);

check('people posted at one shared address form one household', ['PERSON-HOUSEHOLD-SHARED-ADDRESS'], async (t) => {
  const h = await household(t, ['PERSON-HOUSEHOLD-SHARED-ADDRESS']);
  const found = await t.eventually('household of the shared address', async () => {
    const r = await t.raw('householdQuery', { linkId: h.linkIds[0] });
    return h.linkIds.every((l) => list(r.content?.linkIdsInHousehold).includes(l)) ? r : undefined;
  });
  t.judge(HOUSEHOLD_NOT_SHARED, 'PERSON-HOUSEHOLD-SHARED-ADDRESS', householdNotShared(h.linkIds, found !== undefined));
});
