/**
 * postIdentity: a new identity is added; rule 2 read literally (linkId null when nothing
 * matched, a link ID when something did: which one is not judged); events; re-posting the same
 * source and native ID is an update.
 * Source: organization-identity-api.md, Endpoints (rule 2), Events, What the service does.
 */
import { postContent } from '../../generators/common.js';
import {
  EVENTS_NOT_ARRAY,
  LINKID_NULL_ON_MATCH,
  LINKID_WITHOUT_MATCH,
  UPDATE_NOT_APPLIED,
  eventsNotArray,
  postLinkId,
  updateNotApplied,
} from '../../specs/clauses/post.js';
import { groupedSources, sameSource } from '../../specs/common/identity-content.js';
import { area, org } from './org.js';

const { check } = area('post');

check(
  'postIdentity returns linkId null when the record matched no existing identity',
  ['ORG-POST-LINKID-NULL'],
  async (t) => {
    const a = await org.postNew(t, ['ORG-POST-LINKID-NULL']);
    const found = await org.lookup(t, a.source);
    // Our identities are random and far apart; if the deployment still joined a foreign record, rule 2 wants a link ID.
    const matched = groupedSources(found.content).some((s) => !sameSource(s, a.source));
    const judged = postLinkId(a.reply.content?.linkId, matched);
    t.judge(LINKID_WITHOUT_MATCH, 'ORG-POST-LINKID-NULL', judged.withoutMatch, a.reply);
    t.judge(LINKID_NULL_ON_MATCH, 'ORG-POST-LINKID-NULL', judged.nullOnMatch, a.reply);
  },
);

check(
  "postIdentity returns the matched identity's linkId when an exact copy from another source links",
  ['ORG-POST-LINKID-NULL'],
  async (t) => {
    const a = await org.postNew(t, ['ORG-POST-LINKID-NULL']);
    const copySource = t.source(1);
    const copy = await t.ok('postIdentity', postContent(a.identity, copySource, t.profile.sourcePlacement), {
      cites: ['ORG-POST-LINKID-NULL'],
    });
    // Matched: the copy is in one identity with the original now (whichever link ID that identity has), or with
    // another record; not matched: neither (as in the check above, an identity that lists no sources is taken as the copy's alone).
    const [copyFound, originalLink] = await Promise.all([
      org.lookupUntil(t, copySource, 'the copy resolves', (r) => typeof r.content?.linkId === 'string'),
      org.linkIdOf(t, a.source),
    ]);
    const copyLink = copyFound.content?.linkId;
    const matched =
      (typeof copyLink === 'string' && copyLink === originalLink) ||
      groupedSources(copyFound.content).some((s) => !sameSource(s, copySource));
    const judged = postLinkId(copy.content?.linkId, matched);
    t.judge(LINKID_WITHOUT_MATCH, 'ORG-POST-LINKID-NULL', judged.withoutMatch, copy);
    t.judge(LINKID_NULL_ON_MATCH, 'ORG-POST-LINKID-NULL', judged.nullOnMatch, copy);
  },
);

check('postIdentity reports generated events as an array', ['ORG-POST-EVENTS'], async (t) => {
  const a = await org.postNew(t, ['ORG-POST-EVENTS']);
  const events = a.reply.content?.events;
  // "postIdentity may return generated events" (Events): no events member is conforming; one that is there is an array.
  t.judge(EVENTS_NOT_ARRAY, 'ORG-POST-EVENTS', eventsNotArray(events), a.reply);
});

check(
  're-posting the same source and native ID updates the record instead of adding an identity',
  ['ORG-POST-SAME-SOURCE-UPDATES'],
  async (t) => {
    const a = await org.postNew(t, ['ORG-POST-SAME-SOURCE-UPDATES']);
    const changed = structuredClone(a.identity) as any;
    const newPhone = `720555${t.faker.string.numeric(4)}`;
    changed.phoneNumbers[0].number = newPhone;
    await t.ok('postIdentity', postContent(changed, a.source, t.profile.sourcePlacement), {
      cites: ['ORG-POST-SAME-SOURCE-UPDATES'],
    });
    const after = await org.lookupUntil(t, a.source, 'the update shows', (r) =>
      JSON.stringify(r.content?.identity ?? {}).includes(newPhone),
    );
    const shown = {
      linkId: after.content?.linkId,
      timesListed: groupedSources(after.content).filter((s) => sameSource(s, a.source)).length,
      shows: JSON.stringify(after.content?.identity ?? {}).includes(newPhone),
    };
    t.judge(UPDATE_NOT_APPLIED, 'ORG-POST-SAME-SOURCE-UPDATES', updateNotApplied(a.linkId, shown, newPhone), after);
  },
);

check('a posted organization whose legal business name is blank is added', ['ORG-POST-ADDS'], async (t) => {
  // A legal business name is TEXT, a string (Resources, "Field data types": "TEXT | string"), and "No other field is
  // marked required" (Resources, Organization identity): an identity whose legalBusinessName is the empty string is a
  // valid post, and postIdentity adds it (Endpoints, rule 2). Posted after another organization, so the service has an
  // identity with a name to score it against.
  await org.postNew(t, ['ORG-POST-ADDS']);
  const made = org.make(t);
  const identity = structuredClone(made.identity) as { organizationNames?: Array<Record<string, unknown>> };
  for (const name of identity.organizationNames ?? []) name.legalBusinessName = '';
  const content = postContent(identity, made.source, t.profile.sourcePlacement);
  await org.postAndRead(t, { ...made, identity, content }, ['ORG-POST-ADDS']);
});
