/**
 * Relationships: add, search finds it (by subject, by object and verb), delete, search no
 * longer finds it; DATE-TIME members keep their wire form.
 * Source: organization-identity-api.md, What the service does; Endpoints; Resources (Relationship).
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { relationshipContent } from '../shared/exercise.js';
import { area, org } from './org.js';

const { check } = area('relationships');

const found = (content: any): Array<Record<string, unknown>> => {
  const r = content?.relationship;
  return Array.isArray(r) ? r : r ? [r] : [];
};

async function added(t: Check, cites: string[]) {
  const [a, b] = await Promise.all([org.postNew(t, cites), org.postNew(t, cites)]);
  const r = await t.ok('addRelationshipService', relationshipContent(t, a.linkId, b.linkId), { cites });
  const id = r.content?.relationship?.id;
  if (typeof id !== 'string' || !id) t.fail(cites, 'addRelationshipService replied without relationship.id');
  return { a, b, id: id as string, reply: r };
}

check('addRelationshipService adds the relationship and replies with its id', ['ORG-REL-ADD'], async (t) => {
  const { a, b, reply } = await added(t, ['ORG-REL-ADD']);
  await t.rule('ORG-REL-ADD', () => {
    const rel = reply.content.relationship;
    expect(rel[t.profile.members.relationshipSubject], 'subject echoed').toBe(a.linkId);
    expect(rel[t.profile.members.relationshipObject], 'object echoed').toBe(b.linkId);
    expect(rel.relationshipVerb).toBe(t.profile.relationship.verb);
  });
});

check('searchRelationshipsService finds an added relationship by subject, and by object and verb', ['ORG-REL-SEARCH'], async (t) => {
  const { a, b, id } = await added(t, ['ORG-REL-SEARCH']);
  const m = t.profile.members;
  for (const criteria of [{ [m.relationshipSubject]: a.linkId }, { [m.relationshipObject]: b.linkId, relationshipVerb: t.profile.relationship.verb }]) {
    const hit = await t.eventually(`relationship ${id} searchable by ${Object.keys(criteria).join('+')}`, async () => {
      const r = await t.ok('searchRelationshipsService', { relationship: criteria });
      return found(r.content).some((x) => x.id === id) ? r : undefined;
    });
    await t.rule('ORG-REL-SEARCH', () => expect(hit, `search by ${JSON.stringify(criteria)} finds ${id}`).toBeDefined());
  }
});

check('searchRelationshipsService returns only relationships that meet the criteria', ['ORG-REL-SEARCH'], async (t) => {
  const { a } = await added(t, ['ORG-REL-SEARCH']);
  const subject = t.profile.members.relationshipSubject;
  const r = await t.ok('searchRelationshipsService', { relationship: { [subject]: a.linkId } });
  await t.rule('ORG-REL-SEARCH', () => expect(found(r.content).filter((x) => x[subject] !== a.linkId).map((x) => x.id), 'relationships of other subjects').toEqual([]));
});

check('deleteRelationshipService deletes the relationship and a search no longer finds it', ['ORG-REL-DELETE'], async (t) => {
  const { a, id } = await added(t, ['ORG-REL-DELETE']);
  const del = await t.ok('deleteRelationshipService', { id });
  await t.rule('ORG-REL-DELETE', () => expect(del.content?.id, 'reply echoes the id').toBe(id));
  const gone = await t.eventually(`relationship ${id} gone from search`, async () => {
    const r = await t.ok('searchRelationshipsService', { relationship: { [t.profile.members.relationshipSubject]: a.linkId } });
    return found(r.content).some((x) => x.id === id) ? undefined : true;
  });
  await t.rule('ORG-REL-DELETE', () => expect(gone, 'deleted relationship no longer found').toBe(true));
});

check('relationship DATE-TIME members are ISO 8601 UTC timestamps', ['ORG-TYPE-DATETIME'], async (t) => {
  const { reply } = await added(t, ['ORG-TYPE-DATETIME']);
  const rel = reply.content.relationship;
  if (rel.startDate === undefined || rel.startDate === null) t.skip('the reply carries no startDate to check');
  await t.rule('ORG-TYPE-DATETIME', () => expect(rel.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/));
});
