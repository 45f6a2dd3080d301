/**
 * Relationships between two person link IDs: add (verb, start and end dates, status), search by
 * each filter (subject, object, verb), delete (a search no longer finds it; of two relationships
 * of one subject, the other stays). Member names follow
 * the profile (person.relationshipSubject / relationshipObject) and the vendor filter members.
 * Source: person-provider-identity-api.md, Resources (Relationship), Endpoints.
 */
import type { Check } from '../../harness/check.js';
import {
  ECHO_OTHER_VALUE,
  OFF_CRITERIA,
  RELATIONSHIP_NOT_FOUND,
  RELATIONSHIP_WITHOUT_ID,
  OTHER_DELETED,
  STILL_FOUND,
  echoOtherValue,
  offCriteria,
  otherDeleted,
  relationshipNotFound,
  relationshipWithoutId,
  stillFound,
} from '../../specs/clauses/relationships.js';
import { relationshipMembers } from '../../harness/profile.js';
import { relationshipContent } from '../shared/requests.js';
import { area, person, relationshipFilter, relationshipsIn } from './person.js';

const { check } = area('relationships');

async function added(t: Check, cites: string[]) {
  const [a, b] = await Promise.all([person.postNew(t, cites), person.postNew(t, cites)]);
  const endDate = new Date(Date.UTC(2030, 11, 31)).toISOString();
  const r = await t.ok('addRelationshipService', relationshipContent(t, a.linkId, b.linkId, { endDate }), { cites });
  const relationship = r.content?.relationship;
  t.judge(RELATIONSHIP_WITHOUT_ID, cites, relationshipWithoutId(relationship), r);
  return { a, b, id: relationship!.id as string, relationship: relationship as Record<string, unknown> };
}

check(
  'addRelationshipService creates the relationship between two link IDs with its verb, dates and status',
  ['PERSON-REL-ADD'],
  async (t) => {
    const { a, b, relationship: rel } = await added(t, ['PERSON-REL-ADD']);
    const m = relationshipMembers(t.profile, 'person');
    const sent = {
      [m.subject]: a.linkId,
      [m.object]: b.linkId,
      relationshipVerb: t.profile.relationship.verb,
      status: t.profile.relationship.status,
    };
    t.judge(ECHO_OTHER_VALUE, 'PERSON-REL-ADD', echoOtherValue(sent, rel, ['relationshipVerb', 'status']));
  },
);

type Filter = { subject?: string; object?: string; verb?: string };
const FILTERS: Array<{ req: string; by: string; filter: (a: string, b: string, v: string) => Filter }> = [
  {
    req: 'PERSON-REL-SEARCH-SUBJECT',
    by: 'subject link ID',
    filter: (a: string, _b: string, _v: string) => ({ subject: a }),
  },
  {
    req: 'PERSON-REL-SEARCH-OBJECT',
    by: 'object link ID',
    filter: (_a: string, b: string, _v: string) => ({ object: b }),
  },
  {
    req: 'PERSON-REL-SEARCH-VERB',
    by: 'relationship verb',
    filter: (_a: string, _b: string, v: string) => ({ verb: v }),
  },
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
    t.judge(RELATIONSHIP_NOT_FOUND, f.req, relationshipNotFound(id, f.by, hit !== undefined));
    const criteria = {
      ...(filter.subject ? { [m.subject]: filter.subject } : {}),
      ...(filter.object ? { [m.object]: filter.object } : {}),
      ...(filter.verb ? { relationshipVerb: filter.verb } : {}),
    };
    t.judge(OFF_CRITERIA, f.req, offCriteria(criteria, relationshipsIn(hit!.content)), hit);
  });
}

/**
 * Each filter alone among relationships that differ from a first one only in it, and all together:
 * a relationship another filter excludes is not returned; one excluded by a filter the reply leaves
 * out is judged by what was sent at its add. A relationship of a second verb (profile
 * relationship.inverseVerb) may be refused (verbs are "not shown"): the verb then goes untested alone.
 */
check(
  'searchRelationshipsService by each filter alone, and by all together, returns only relationships meeting every filter given',
  ['PERSON-REL-SEARCH-SUBJECT', 'PERSON-REL-SEARCH-OBJECT', 'PERSON-REL-SEARCH-VERB'],
  async (t) => {
    const REQ = {
      subject: 'PERSON-REL-SEARCH-SUBJECT',
      object: 'PERSON-REL-SEARCH-OBJECT',
      verb: 'PERSON-REL-SEARCH-VERB',
    } as const;
    const cites = Object.values(REQ);
    const m = relationshipMembers(t.profile, 'person');
    const { verb, inverseVerb } = t.profile.relationship;
    const [a, b, c, d] = await Promise.all([0, 1, 2, 3].map(() => person.postNew(t, cites)));
    const plan = [
      { subject: a.linkId, object: b.linkId, verb },
      { subject: a.linkId, object: c.linkId, verb },
      { subject: d.linkId, object: b.linkId, verb },
      ...(inverseVerb && inverseVerb !== verb ? [{ subject: a.linkId, object: b.linkId, verb: inverseVerb }] : []),
    ];
    const set = await Promise.all(
      plan.map(async (p, i) => {
        const content = relationshipContent(t, p.subject, p.object, {
          relationshipVerb: p.verb,
          inverseRelationshipVerb: verb,
        });
        const r =
          i < 3
            ? await t.ok('addRelationshipService', content, { cites })
            : await t.raw('addRelationshipService', content);
        if (i === 3 && (r.success !== true || typeof r.content?.relationship?.id !== 'string')) return undefined;
        t.judge(RELATIONSHIP_WITHOUT_ID, cites, relationshipWithoutId(r.content?.relationship), r);
        return {
          id: r.content!.relationship!.id as string,
          sent: { [m.subject]: p.subject, [m.object]: p.object, relationshipVerb: p.verb },
        };
      }),
    );
    const otherVerb = set[3];
    const all = { subject: a.linkId, object: b.linkId, verb };
    // What a search must find: every relationship the run added that meets its filters (the verb alone matches
    // relationships of every check and run, and a capped list may hold none of the run's: there only what it returns
    // is judged; the check of the verb filter above judges what it finds).
    const meeting = (by: Array<keyof typeof REQ>) =>
      set.filter((x, i) => x && by.every((k) => plan[i]![k] === all[k])).map((x) => x!.id);
    const searches = (
      [['subject'], ['object'], ...(otherVerb ? [['verb']] : []), ['subject', 'object', 'verb']] as Array<
        Array<keyof typeof REQ>
      >
    ).map((by) => ({ by, finds: by.length === 1 && by[0] === 'verb' ? [] : meeting(by) }));
    if (!otherVerb)
      t.note('the verb alone was not exercised: no second verb (profile relationship.inverseVerb) was accepted');
    const member = { subject: m.subject, object: m.object, verb: 'relationshipVerb' };
    const has = (x: { content?: unknown }, id: string) => relationshipsIn(x.content).some((y) => y.id === id);
    const one = (x: { content?: any }) => !Array.isArray(x.content?.relationships ?? x.content?.relationship);
    // The searches by each filter only read: sent together, judged in order.
    const replies = await Promise.all(
      searches.map((s) =>
        t.settle(
          `relationships ${s.finds.join(', ')} searchable by ${s.by.join('+')}`,
          () =>
            t.ok('searchRelationshipsService', relationshipFilter(Object.fromEntries(s.by.map((k) => [k, all[k]]))), {
              cites: s.by.map((k) => REQ[k]),
            }),
          (x) => (one(x) ? s.finds.some((f) => has(x, f)) || !s.finds.length : s.finds.every((f) => has(x, f))),
        ),
      ),
    );
    for (const [i, s] of searches.entries()) {
      const r = replies[i]!;
      // Members the reply leaves out are judged by what the run sent at the add.
      const list = relationshipsIn(r.content).map((x) => ({ ...(set.find((y) => y?.id === x.id)?.sent ?? {}), ...x }));
      for (const k of s.by) {
        // A reply of one relationship (not a list) shows one of those found.
        const missing = one(r)
          ? s.finds.length && !s.finds.some((f) => has(r, f))
            ? [s.finds.join(' or ')]
            : []
          : s.finds.filter((f) => !has(r, f));
        for (const f of missing)
          if (s.by.length === 1) t.judge(RELATIONSHIP_NOT_FOUND, REQ[k], relationshipNotFound(f, k, false), r);
        // The filter of `k` excludes a relationship the other filters match: returned, it breaks that filter.
        t.judge(OFF_CRITERIA, REQ[k], offCriteria({ [member[k]]: all[k] }, list), r);
        t.exercised(REQ[k], s.by.length === 1 ? `criterion:${k}` : 'criteria:combined');
      }
    }
  },
);

check(
  'deleteRelationshipService deletes the relationship and a search no longer finds it',
  ['PERSON-REL-DELETE'],
  async (t) => {
    const { a, id } = await added(t, ['PERSON-REL-DELETE']);
    await t.ok('deleteRelationshipService', { id });
    const gone = await t.eventually(`relationship ${id} gone from search`, async () => {
      const r = await t.ok('searchRelationshipsService', relationshipFilter({ subject: a.linkId }), {
        cites: ['PERSON-REL-DELETE'],
      });
      return relationshipsIn(r.content).some((x) => x.id === id) ? undefined : true;
    });
    t.judge(STILL_FOUND, 'PERSON-REL-DELETE', stillFound(id, gone !== true));
    t.exercised('PERSON-REL-DELETE', 'relationships-of-subject:1');
  },
);

check(
  'deleteRelationshipService deletes only the relationship named: the other relationships of its subject stay',
  ['PERSON-REL-DELETE'],
  async (t) => {
    const cites = ['PERSON-REL-DELETE'];
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => person.postNew(t, cites)));
    const [gone, kept] = await Promise.all(
      [b, c].map(async (o) => {
        const r = await t.ok('addRelationshipService', relationshipContent(t, a.linkId, o.linkId), { cites });
        t.judge(RELATIONSHIP_WITHOUT_ID, cites, relationshipWithoutId(r.content?.relationship), r);
        return r.content!.relationship!.id as string;
      }),
    );
    await t.ok('deleteRelationshipService', { id: gone! });
    const has = (r: { content?: unknown }, id: string) => relationshipsIn(r.content).some((x) => x.id === id);
    const r = await t.settle(
      `relationship ${gone} gone from search and ${kept} still found`,
      () => t.ok('searchRelationshipsService', relationshipFilter({ subject: a.linkId }), { cites }),
      (x) => !has(x, gone!) && has(x, kept!),
    );
    t.judge(STILL_FOUND, 'PERSON-REL-DELETE', stillFound(gone!, has(r, gone!)), r);
    t.judge(OTHER_DELETED, 'PERSON-REL-DELETE', otherDeleted(gone!, kept!, has(r, kept!)), r);
    t.exercised('PERSON-REL-DELETE', 'relationships-of-subject:2+');
  },
);
