/**
 * postIdentity: a new identity is added; the source plus native ID decides between create and
 * update; an exact copy from another source joins the same link ID.
 * Source: person-provider-identity-api.md, Endpoints (/v2/postIdentity), What the service does.
 */
import { expect } from 'vitest';
import { postContent } from '../../generators/common.js';
import { groupedSources, sameSource } from '../shared/steps.js';
import { area, person } from './person.js';

const { check } = area('post');

check('a posted person is added and found through nativeIdQuery', ['PERSON-POST-ADDS', 'PERSON-NATIVEID-QUERY'], async (t) => {
  const a = await person.postNew(t, ['PERSON-POST-ADDS']);
  const found = await person.lookupUntil(t, a.source, 'the posted source resolves', (r) => r.content?.linkId === a.linkId);
  await t.rule('PERSON-NATIVEID-QUERY', () => {
    expect(found.content?.linkId, 'nativeIdQuery returns the identity holding the source').toBe(a.linkId);
    const sources = groupedSources(found.content);
    if (sources.length)
      expect(
        sources.some((s) => sameSource(s, a.source)),
        'identityGroupedBySource lists the posted source',
      ).toBe(true);
  });
});

check('re-posting the same source and native ID updates the record in its link ID', ['PERSON-POST-SAME-SOURCE-UPDATES'], async (t) => {
  const a = await person.postNew(t, ['PERSON-POST-SAME-SOURCE-UPDATES']);
  const changed = structuredClone(a.identity) as any;
  const newEmail = `updated.${t.faker.string.alphanumeric({ length: 8, casing: 'lower' })}@example.com`;
  changed.emails[0].email = newEmail;
  await t.ok('postIdentity', postContent(changed, a.source, t.profile.sourcePlacement), { cites: ['PERSON-POST-SAME-SOURCE-UPDATES'] });
  const after = await person.lookupUntil(t, a.source, 'the update shows', (r) =>
    JSON.stringify(r.content?.identity ?? {}).includes(newEmail),
  );
  await t.rule('PERSON-POST-SAME-SOURCE-UPDATES', () => {
    expect(after.content?.linkId, 'the record keeps its link ID').toBe(a.linkId);
    expect(
      groupedSources(after.content).filter((s) => sameSource(s, a.source)).length,
      'the source is listed at most once',
    ).toBeLessThanOrEqual(1);
    expect(JSON.stringify(after.content?.identity ?? {}), 'the updated value is stored').toContain(newEmail);
  });
});

check('an exact copy posted from another source joins the same link ID', ['PERSON-POST-EXACT-LINKS'], async (t) => {
  const a = await person.postNew(t, ['PERSON-POST-EXACT-LINKS']);
  // Matching may read a search index that lags writes: the copy goes out once a search shows the original.
  await person.whenSearchable(t, a);
  const copy = t.source(1);
  await t.ok('postIdentity', postContent(a.identity, copy, t.profile.sourcePlacement), { cites: ['PERSON-POST-EXACT-LINKS'] });
  const linkId = await person.resolved(t, copy);
  await t.rule('PERSON-POST-EXACT-LINKS', () => expect(linkId, "the copy is in the first record's link ID").toBe(a.linkId));
});
