/**
 * demographicsQuery (best match), identityIdQuery (rule 3: requestedLinkId echoed), and the
 * required identity of postIdentity, demographicsSearch and demographicsQuery.
 * Source: organization-identity-api.md, What the service does; Endpoints (rule 3);
 * Resources ("The identity object is required").
 */
import { expect } from 'vitest';
import { describeReply } from '../../harness/check.js';
import { isRejection } from '../../harness/client.js';
import { area, org } from './org.js';

const { check } = area('query');

check('demographicsQuery returns the top demographicsSearch result when it returns an identity', ['ORG-QUERY-BEST-MATCH'], async (t) => {
  const a = await org.postNew(t, ['ORG-QUERY-BEST-MATCH']);
  const [query, search] = await Promise.all([t.call('demographicsQuery', { identity: a.identity }), t.call('demographicsSearch', { identity: a.identity })]);
  const linkId = query.content?.linkId;
  if (!linkId) t.skip('demographicsQuery returned no identity for an exact copy (ORG-QUERY-FINDS-EXACT reports it)');
  const list = (search.content?.searchResults ?? []) as Array<{ linkId?: string; matchScore: number }>;
  await t.rule('ORG-QUERY-BEST-MATCH', () => {
    expect(list.length, 'demographicsSearch returns the identity demographicsQuery found').toBeGreaterThan(0);
    const top = list[0]!.matchScore;
    const best = list.filter((r) => r.matchScore === top).map((r) => r.linkId);
    expect(best, 'the query result is (one of) the best-scored search results').toContain(linkId);
  });
});

check('demographicsQuery with an exact copy of a posted identity returns it', ['ORG-QUERY-FINDS-EXACT'], async (t) => {
  const a = await org.postNew(t, ['ORG-QUERY-FINDS-EXACT']);
  const found = await t.eventually('query finds the posted identity', async () => {
    const r = await t.call('demographicsQuery', { identity: a.identity });
    return r.content?.linkId === a.linkId ? r : undefined;
  });
  await t.rule('ORG-QUERY-FINDS-EXACT', () => expect(found, `demographicsQuery returned ${a.linkId}`).toBeDefined());
});

check('identityIdQuery returns the identity and echoes requestedLinkId', ['ORG-IDQUERY-RETURNS', 'ORG-IDQUERY-ECHO'], async (t) => {
  const a = await org.postNew(t, ['ORG-IDQUERY-RETURNS']);
  const r = await t.ok('identityIdQuery', { linkId: a.linkId }, { cites: ['ORG-IDQUERY-RETURNS'] });
  await t.rule('ORG-IDQUERY-RETURNS', () => expect(r.content?.linkId, 'the identity with the requested link ID').toBe(a.linkId));
  await t.rule('ORG-IDQUERY-ECHO', () => expect(r.content?.requestedLinkId, 'requestedLinkId echoes the request').toBe(a.linkId));
});

for (const op of ['postIdentity', 'demographicsSearch', 'demographicsQuery']) {
  check(`${op} without content.identity is rejected`, ['ORG-IDENTITY-REQUIRED'], async (t) => {
    const r = await t.raw(op, { responseIdentityFormatNames: ['DEFAULT'] });
    await t.rule('ORG-IDENTITY-REQUIRED', () => expect(isRejection(r), `${op} without identity must be rejected, got ${describeReply(r)}`).toBe(true));
  });
}
