/**
 * postIdentity: a new identity is added; rule 2 read literally (linkId null when nothing
 * matched, the matched identity's link ID when something did); events; re-posting the same
 * source and native ID is an update.
 * Source: organization-identity-api.md, Endpoints (rule 2), Events, What the service does.
 */
import { expect } from 'vitest';
import { postContent } from '../../generators/common.js';
import { groupedSources, sameSource } from '../shared/steps.js';
import { area, org } from './org.js';

const { check } = area('post');

check('postIdentity returns linkId null when the record matched no existing identity', ['ORG-POST-LINKID-NULL'], async (t) => {
  const a = await org.postNew(t, ['ORG-POST-LINKID-NULL']);
  const found = await org.lookup(t, a.source);
  const others = groupedSources(found.content).filter((s) => !sameSource(s, a.source));
  // Our identities are random and far apart; if the deployment still joined a foreign record, rule 2 wants that link ID.
  await t.rule('ORG-POST-LINKID-NULL', () =>
    others.length
      ? expect(a.reply.content?.linkId, 'the posted record matched an existing identity').toBe(a.linkId)
      : expect(a.reply.content?.linkId ?? null, 'nothing matched, so linkId is null').toBeNull(),
  );
});

check(
  "postIdentity returns the matched identity's linkId when an exact copy from another source links",
  ['ORG-POST-LINKID-NULL'],
  async (t) => {
    const a = await org.postNew(t, ['ORG-POST-LINKID-NULL']);
    const copySource = t.source(1);
    const copy = await t.ok('postIdentity', postContent(a.identity, copySource, t.profile.sourcePlacement), {
      cites: ['ORG-POST-LINKID-NULL'],
    });
    const copyLink = await org.resolved(t, copySource);
    await t.rule('ORG-POST-LINKID-NULL', () =>
      copyLink === a.linkId
        ? expect(copy.content?.linkId, 'the copy matched the first identity, so linkId names it').toBe(a.linkId)
        : expect(copy.content?.linkId ?? null, 'the copy did not match, so linkId is null').toBeNull(),
    );
  },
);

check('postIdentity reports generated events as an array', ['ORG-POST-EVENTS'], async (t) => {
  const a = await org.postNew(t, ['ORG-POST-EVENTS']);
  const events = a.reply.content?.events;
  // "postIdentity may return generated events" (Events): no events member is conforming; one that is there is an array.
  await t.rule('ORG-POST-EVENTS', () => {
    if (events !== undefined && events !== null) expect(Array.isArray(events), 'content.events is an array').toBe(true);
  });
});

check(
  're-posting the same source and native ID updates the record instead of adding an identity',
  ['ORG-POST-SAME-SOURCE-UPDATES'],
  async (t) => {
    const a = await org.postNew(t, ['ORG-POST-SAME-SOURCE-UPDATES']);
    const changed = structuredClone(a.identity) as any;
    const newPhone = `720555${t.faker.string.numeric(4)}`;
    changed.phoneNumbers[0].number = newPhone;
    await t.ok('postIdentity', postContent(changed, a.source, t.profile.sourcePlacement), { cites: ['ORG-POST-SAME-SOURCE-UPDATES'] });
    const after = await org.lookupUntil(t, a.source, 'the update shows', (r) =>
      JSON.stringify(r.content?.identity ?? {}).includes(newPhone),
    );
    await t.rule('ORG-POST-SAME-SOURCE-UPDATES', () => {
      expect(after.content?.linkId, 'the record keeps its link ID').toBe(a.linkId);
      const listed = groupedSources(after.content).filter((s) => sameSource(s, a.source));
      expect(listed.length, 'the source is listed at most once').toBeLessThanOrEqual(1);
      expect(JSON.stringify(after.content?.identity ?? {}), 'the updated value is stored').toContain(newPhone);
    });
  },
);
