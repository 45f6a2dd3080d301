/**
 * Relationships between two person link IDs: add (verb, start and end dates, status), search by
 * each filter (subject, object, verb), delete (a search no longer finds it). Member names follow
 * the profile (person.relationshipSubject / relationshipObject) and the vendor filter members.
 * Source: person-provider-identity-api.md, Resources (Relationship), Endpoints.
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { relationshipMembers } from '../../harness/profile.js';
import { relationshipContent } from '../shared/requests.js';
import { area, person, relationshipFilter, relationshipsIn } from './person.js';

const { check } = area('relationships');

async function added(t: Check, cites: string[]) {
  const [a, b] = await Promise.all([person.postNew(t, cites), person.postNew(t, cites)]);
  const endDate = new Date(Date.UTC(2030, 11, 31)).toISOString();
  const r = await t.ok('addRelationshipService', relationshipContent(t, a.linkId, b.linkId, { endDate }), { cites });
  const relationship = r.content?.relationship;
  const id = relationship?.id;
  if (!relationship || typeof id !== 'string' || !id) return t.fail(cites, 'addRelationshipService replied without relationship.id');
  return { a, b, id, relationship };
}

check(
  'addRelationshipService creates the relationship between two link IDs with its verb, dates and status',
  ['PERSON-REL-ADD'],
  async (t) => {
    const { a, b, relationship: rel } = await added(t, ['PERSON-REL-ADD']);
    const m = relationshipMembers(t.profile, 'person');
    await t.rule('PERSON-REL-ADD', () => {
      expect(rel[m.subject], 'subject link ID').toBe(a.linkId);
      expect(rel[m.object], 'object link ID').toBe(b.linkId);
      expect(rel.relationshipVerb, 'verb').toBe(t.profile.relationship.verb);
      if (t.profile.relationship.status) expect(rel.status, 'status').toBe(t.profile.relationship.status);
    });
  },
);

type Filter = { subject?: string; object?: string; verb?: string };
const FILTERS: Array<{ req: string; by: string; filter: (a: string, b: string, v: string) => Filter }> = [
  { req: 'PERSON-REL-SEARCH-SUBJECT', by: 'subject link ID', filter: (a: string, _b: string, _v: string) => ({ subject: a }) },
  { req: 'PERSON-REL-SEARCH-OBJECT', by: 'object link ID', filter: (_a: string, b: string, _v: string) => ({ object: b }) },
  { req: 'PERSON-REL-SEARCH-VERB', by: 'relationship verb', filter: (_a: string, _b: string, v: string) => ({ verb: v }) },
];

for (const f of FILTERS) {
  check(`searchRelationshipsService by ${f.by} finds the relationship and only matching ones`, [f.req], async (t) => {
    const { a, b, id } = await added(t, [f.req]);
    const filter = f.filter(a.linkId, b.linkId, t.profile.relationship.verb);
    const m = relationshipMembers(t.profile, 'person');
    const hit = await t.eventually(`relationship ${id} searchable by ${f.by}`, async () => {
      const r = await t.ok('searchRelationshipsService', relationshipFilter(filter), { cites: [f.req] });
      return relationshipsIn(r.content).some((x) => x.id === id) ? r : undefined;
    });
    await t.rule(f.req, () => {
      expect(hit, `search by ${f.by} finds ${id}`).toBeDefined();
      const off = relationshipsIn(hit!.content).filter(
        (x) =>
          (filter.subject && x[m.subject] !== filter.subject) ||
          (filter.object && x[m.object] !== filter.object) ||
          (filter.verb && x.relationshipVerb !== filter.verb),
      );
      expect(
        off.map((x) => x.id),
        `relationships not meeting the ${f.by} filter`,
      ).toEqual([]);
    });
  });
}

check('deleteRelationshipService deletes the relationship and a search no longer finds it', ['PERSON-REL-DELETE'], async (t) => {
  const { a, id } = await added(t, ['PERSON-REL-DELETE']);
  await t.ok('deleteRelationshipService', { id });
  const gone = await t.eventually(`relationship ${id} gone from search`, async () => {
    const r = await t.ok('searchRelationshipsService', relationshipFilter({ subject: a.linkId }), { cites: ['PERSON-REL-DELETE'] });
    return relationshipsIn(r.content).some((x) => x.id === id) ? undefined : true;
  });
  await t.rule('PERSON-REL-DELETE', () => expect(gone, 'deleted relationship no longer found').toBe(true));
});
