/**
 * householdQuery by each of its three keys (link ID, source plus native ID, household ID),
 * consistent with one another; people posted at one shared address form one household.
 * How households form is "not shown": the key checks skip when the deployment puts the
 * identity in no household.
 * Source: person-provider-identity-api.md, Endpoints (/householdQuery).
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { describeReply } from '../../harness/check.js';
import { isRejection } from '../../harness/reply.js';
import { postContent } from '../../generators/common.js';
import { personHousehold } from '../../generators/person.js';
import { area, list, person, src } from './person.js';

const { check } = area('households');

/** Posts a household of three people sharing one address; returns their sources and link IDs. */
async function household(t: Check, cites: string[]) {
  const sources = [t.source(0), t.source(1), t.source(0)];
  const members = personHousehold(t.faker, sources, 3);
  await Promise.all(members.map((m, i) => t.ok('postIdentity', postContent(m, sources[i]!, t.profile.sourcePlacement), { cites })));
  const linkIds = await Promise.all(sources.map((s) => person.resolved(t, s)));
  if (linkIds.some((l) => !l)) t.fail(cites, 'a posted household member is not found by nativeIdQuery');
  return { sources, linkIds: linkIds as string[] };
}

/** householdQuery by link ID; skips when the deployment holds the identity in no household. */
async function byLinkId(t: Check, linkId: string) {
  const r = await t.call('householdQuery', { linkId });
  if (isRejection(r) || !r.content?.householdId) t.skip(`identity ${linkId} is in no household on this deployment (${describeReply(r)})`);
  return r;
}

check('householdQuery by link ID returns the household holding it', ['PERSON-HOUSEHOLD-BY-LINKID'], async (t) => {
  const h = await household(t, ['PERSON-HOUSEHOLD-BY-LINKID']);
  const r = await byLinkId(t, h.linkIds[0]!);
  await t.rule('PERSON-HOUSEHOLD-BY-LINKID', () =>
    expect(list(r.content?.linkIdsInHousehold), 'linkIdsInHousehold').toContain(h.linkIds[0]),
  );
});

check(
  "householdQuery by source and native ID returns the household of that record's identity",
  ['PERSON-HOUSEHOLD-BY-SOURCE'],
  async (t) => {
    const h = await household(t, ['PERSON-HOUSEHOLD-BY-SOURCE']);
    const viaLink = await byLinkId(t, h.linkIds[1]!);
    const r = await t.ok('householdQuery', { source: src(h.sources[1]!) });
    await t.rule('PERSON-HOUSEHOLD-BY-SOURCE', () => {
      expect(list(r.content?.linkIdsInHousehold), 'linkIdsInHousehold').toContain(h.linkIds[1]);
      expect(r.content?.householdId, 'the same household as by link ID').toBe(viaLink.content.householdId);
    });
  },
);

check('householdQuery by household ID returns that household with the same link IDs', ['PERSON-HOUSEHOLD-BY-ID'], async (t) => {
  const h = await household(t, ['PERSON-HOUSEHOLD-BY-ID']);
  const viaLink = await byLinkId(t, h.linkIds[2]!);
  const r = await t.ok('householdQuery', { householdId: viaLink.content.householdId });
  await t.rule('PERSON-HOUSEHOLD-BY-ID', () => {
    expect(r.content?.householdId, 'householdId').toBe(viaLink.content.householdId);
    expect([...list(r.content?.linkIdsInHousehold)].sort(), 'the same link IDs').toEqual(
      [...list(viaLink.content.linkIdsInHousehold)].sort(),
    );
  });
});

check('people posted at one shared address form one household', ['PERSON-HOUSEHOLD-SHARED-ADDRESS'], async (t) => {
  const h = await household(t, ['PERSON-HOUSEHOLD-SHARED-ADDRESS']);
  const found = await t.eventually('household of the shared address', async () => {
    const r = await t.raw('householdQuery', { linkId: h.linkIds[0] });
    return h.linkIds.every((l) => list(r.content?.linkIdsInHousehold).includes(l)) ? r : undefined;
  });
  await t.rule('PERSON-HOUSEHOLD-SHARED-ADDRESS', () => expect(found, `one household holds ${h.linkIds.join(', ')}`).toBeDefined());
});
