/**
 * postIdentity: a new identity is added; the source plus native ID decides between create and
 * update; an exact copy from another source joins the same link ID.
 * Source: person-provider-identity-api.md, Endpoints (/v2/postIdentity), What the service does.
 */
import type { Reply } from '../../harness/reply.js';
import { postContent } from '../../generators/common.js';
import { NATIVEID_WRONG_IDENTITY, nativeIdWrongIdentity } from '../../specs/clauses/query.js';
import {
  EXACT_COPY_NOT_LINKED,
  UPDATE_NOT_APPLIED,
  exactCopyNotLinked,
  updateNotApplied,
} from '../../specs/clauses/post.js';
import { groupedSources, sameSource } from '../../specs/common/identity-content.js';
import { area, person } from './person.js';

const { check } = area('post');

check(
  'a posted person is added and found through nativeIdQuery',
  ['PERSON-POST-ADDS', 'PERSON-NATIVEID-QUERY'],
  async (t) => {
    const a = await person.postNew(t, ['PERSON-POST-ADDS']);
    const found = await person.lookupUntil(
      t,
      a.source,
      'the posted source resolves',
      (r) => r.content?.linkId === a.linkId,
    );
    t.judge(
      NATIVEID_WRONG_IDENTITY,
      'PERSON-NATIVEID-QUERY',
      nativeIdWrongIdentity(a.source, a.linkId, {
        linkId: found.content?.linkId,
        grouped: groupedSources(found.content),
      }),
      found,
    );
  },
);

check('a posted person whose address carries no postal code is added', ['PERSON-POST-ADDS'], async (t) => {
  // Every field of an address is optional (Resources, Person identity: "addresses | type, line1, line2, city, state,
  // postalCode, country (string) ..."; none is marked required): such a person is a valid post, and is added. Posted
  // after another person, so the service has an identity to match it against.
  await person.postNew(t, ['PERSON-POST-ADDS']);
  const made = person.make(t);
  const identity = structuredClone(made.identity) as { addresses?: Array<Record<string, unknown>> };
  for (const address of identity.addresses ?? []) delete address.postalCode;
  const content = postContent(identity, made.source, t.profile.sourcePlacement);
  await person.postAndRead(t, { ...made, identity, content }, ['PERSON-POST-ADDS']);
});

check(
  're-posting the same source and native ID updates the record in its link ID',
  ['PERSON-POST-SAME-SOURCE-UPDATES'],
  async (t) => {
    const a = await person.postNew(t, ['PERSON-POST-SAME-SOURCE-UPDATES']);
    const changed = structuredClone(a.identity) as any;
    const newEmail = `updated.${t.faker.string.alphanumeric({ length: 8, casing: 'lower' })}@example.com`;
    changed.emails[0].email = newEmail;
    await t.ok('postIdentity', postContent(changed, a.source, t.profile.sourcePlacement), {
      cites: ['PERSON-POST-SAME-SOURCE-UPDATES'],
    });
    // The new e-mail in any letter case: a standardised view may change case (the standardised-text variant).
    const showsNew = (r: Reply) =>
      JSON.stringify((r.content as { identity?: unknown } | undefined)?.identity ?? {})
        .toLowerCase()
        .includes(newEmail);
    const after = await person.lookupUntil(t, a.source, 'the update shows', showsNew);
    const shown = {
      linkId: after.content?.linkId,
      timesListed: groupedSources(after.content).filter((s) => sameSource(s, a.source)).length,
      shows: showsNew(after),
    };
    t.judge(UPDATE_NOT_APPLIED, 'PERSON-POST-SAME-SOURCE-UPDATES', updateNotApplied(a.linkId, shown, newEmail), after);
  },
);

check('an exact copy posted from another source joins the same link ID', ['PERSON-POST-EXACT-LINKS'], async (t) => {
  const a = await person.postNew(t, ['PERSON-POST-EXACT-LINKS']);
  // Matching may read a search index that lags writes: the copy goes out once a search shows the original.
  await person.whenSearchable(t, a);
  const copy = t.source(1);
  await t.ok('postIdentity', postContent(a.identity, copy, t.profile.sourcePlacement), {
    cites: ['PERSON-POST-EXACT-LINKS'],
  });
  const linkId = await person.resolved(t, copy);
  t.judge(EXACT_COPY_NOT_LINKED, 'PERSON-POST-EXACT-LINKS', exactCopyNotLinked(a.linkId, linkId));
});
