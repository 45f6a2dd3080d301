/**
 * Relationships shared by the organization and provider services: add (replied with its id; a member it echoes holds
 * what was sent), search finds it (by subject, by object and verb; none whose criteria member holds another value),
 * delete (a search no longer finds it).
 * Source: organization-identity-api.md, What the service does, Endpoints, Resources (Relationship);
 * person-provider-identity-api.md, Endpoints (provider relationship operations).
 */
import { DateTimeString } from '../../../specs/common/wire.js';
import { WIRE_FORM } from '../../../specs/clauses/contract.js';
import {
  DELETE_ECHOES_OTHER,
  ECHO_OTHER_VALUE,
  OFF_CRITERIA,
  OTHER_DELETED,
  RELATIONSHIP_NOT_FOUND,
  RELATIONSHIP_WITHOUT_ID,
  STILL_FOUND,
  deleteEchoesOther,
  echoOtherValue,
  offCriteria,
  otherDeleted,
  relationshipNotFound,
  relationshipWithoutId,
  stillFound,
} from '../../../specs/clauses/relationships.js';
import { wrongWireForm } from '../../../specs/clauses/types.js';
import type { Check } from '../../../harness/check.js';
import { relationshipContent } from '../requests.js';
import { type Kit, type Shared, type SharedCheck, registerShared } from './types.js';

const found = (content: any): Array<Record<string, unknown>> => {
  const r = content?.relationship;
  return Array.isArray(r) ? r : r ? [r] : [];
};

/** The relationship checks a service's catalogue gives requirements, in this order. */
export const relationshipChecks = (s: Shared) =>
  registerShared(s, [
    ADD,
    SEARCH_BY_SUBJECT_OBJECT,
    SEARCH_ONLY_MEETING,
    SEARCH_EACH_CRITERION,
    DELETE_ONLY_NAMED,
    DELETE_GONE_FROM_SEARCH,
    DATE_TIME,
  ]);

/** Adds a relationship between two new identities; judged: the reply names it with an id. */
async function added(t: Check, kit: Kit, cites: string[]) {
  const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
  const r = await t.ok('addRelationshipService', relationshipContent(t, a.linkId, b.linkId), { cites });
  const relationship = r.content?.relationship;
  t.judge(RELATIONSHIP_WITHOUT_ID, cites, relationshipWithoutId(relationship), r);
  return { a, b, id: relationship!.id as string, relationship: relationship! };
}

/**
 * Adds relationships subject -> object (with the profile's verb, or another), in parallel; returns those the deployment
 * accepted with the members sent (a reply that leaves a criteria member out is judged by what was sent: the
 * relationship holds it). A relationship of the profile's own verb must be accepted; one of another verb may be refused
 * (verbs are "not shown"): it is left out.
 */
async function addSet(
  t: Check,
  cites: string[],
  plan: ReadonlyArray<{ subject: string; object: string; verb?: string }>,
) {
  const m = t.profile.members;
  const { verb } = t.profile.relationship;
  const added = await Promise.all(
    plan.map(async (p) => {
      const content = relationshipContent(
        t,
        p.subject,
        p.object,
        p.verb ? { relationshipVerb: p.verb, inverseRelationshipVerb: verb } : {},
      );
      const r = p.verb
        ? await t.raw('addRelationshipService', content)
        : await t.ok('addRelationshipService', content, { cites });
      if (p.verb && (r.success !== true || typeof r.content?.relationship?.id !== 'string')) return undefined;
      t.judge(RELATIONSHIP_WITHOUT_ID, cites, relationshipWithoutId(r.content?.relationship), r);
      const sent = {
        [m.relationshipSubject]: p.subject,
        [m.relationshipObject]: p.object,
        relationshipVerb: p.verb ?? verb,
      };
      return { id: r.content!.relationship!.id as string, sent };
    }),
  );
  return added;
}

/** A search's relationships, each with the members sent at its add where the reply leaves them out. */
const asSent = (
  list: ReadonlyArray<Record<string, unknown>>,
  sets: ReadonlyArray<{ id: string; sent: Record<string, string> } | undefined>,
) =>
  list.map((r) => {
    const s = sets.find((x) => x?.id === r.id)?.sent ?? {};
    return { ...s, ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined && v !== null)) };
  });

/**
 * addRelationshipService replies with the new relationship's id, and a member it echoes holds what was sent.
 * Source: organization-identity-api.md, What the service does; Endpoints (addRelationshipService); Resources
 * (Relationship); person-provider-identity-api.md, Endpoints (provider /addRelationshipService).
 */
const ADD: SharedCheck = {
  id: 'addrelationshipservice-adds-the-relationship-and-replies-with-its-id',
  role: 'relationships.add',
  title: 'addRelationshipService adds the relationship and replies with its id',
  body: async (t, { s: { kit }, id }) => {
    const { a, b, relationship: rel } = await added(t, kit, [id]);
    const m = t.profile.members;
    const sent = {
      [m.relationshipSubject]: a.linkId,
      [m.relationshipObject]: b.linkId,
      relationshipVerb: t.profile.relationship.verb,
    };
    t.judge(ECHO_OTHER_VALUE, id, echoOtherValue(sent, rel, ['relationshipVerb']));
  },
};

/**
 * searchRelationshipsService finds an added relationship by its subject, and by its object and verb.
 * Source: organization-identity-api.md, What the service does; Endpoints (searchRelationshipsService: relationship used
 * as the search criteria); person-provider-identity-api.md, Endpoints (searchRelationshipsService).
 */
const SEARCH_BY_SUBJECT_OBJECT: SharedCheck = {
  id: 'searchrelationshipsservice-finds-an-added-relationship-by-subject-and-by-object-and-verb',
  role: 'relationships.search',
  title: 'searchRelationshipsService finds an added relationship by subject, and by object and verb',
  body: async (t, { s: { kit }, id }) => {
    const { a, b, id: relId } = await added(t, kit, [id]);
    const m = t.profile.members;
    const criteria = [
      { [m.relationshipSubject]: a.linkId },
      { [m.relationshipObject]: b.linkId, relationshipVerb: t.profile.relationship.verb },
    ];
    // Two searches by different criteria, neither depending on the other: sent together, judged in order.
    const hits = await Promise.all(
      criteria.map((c) =>
        t.eventually(`relationship ${relId} searchable by ${Object.keys(c).join('+')}`, async () => {
          const r = await t.ok('searchRelationshipsService', { relationship: c });
          return found(r.content).some((x) => x.id === relId) ? r : undefined;
        }),
      ),
    );
    criteria.forEach((c, i) =>
      t.judge(RELATIONSHIP_NOT_FOUND, id, relationshipNotFound(relId, JSON.stringify(c), hits[i] !== undefined)),
    );
  },
};

/**
 * searchRelationshipsService returns no relationship whose criteria member holds another value.
 * Source: organization-identity-api.md, What the service does; Endpoints (searchRelationshipsService: relationship used
 * as the search criteria).
 */
const SEARCH_ONLY_MEETING: SharedCheck = {
  id: 'searchrelationshipsservice-returns-only-relationships-that-meet-the-criteria',
  role: 'relationships.search',
  title: 'searchRelationshipsService returns only relationships that meet the criteria',
  body: async (t, { s: { kit }, id }) => {
    const { a, id: relId } = await added(t, kit, [id]);
    const subject = t.profile.members.relationshipSubject;
    const r = await t.ok('searchRelationshipsService', { relationship: { [subject]: a.linkId } });
    t.judge(OFF_CRITERIA, id, offCriteria({ [subject]: a.linkId }, found(r.content)), r);
    if (t.service === 'organization') await offDomain(t, id, { [subject]: a.linkId }, relId);
  },
};

/**
 * Organization: the search's relationship is "used as the search criteria" (Endpoints), its domain too (Resources,
 * Relationship: "domain | string"). A search by the subject and a domain the run's relationship was not added with
 * returns it not; where the reply leaves its domain out it is judged by the one sent at its add (none: the profile's
 * relationship.domain null). A search refused is not judged (the domain's values are "not shown"). The provider's and
 * the person's search criteria (subject, object, verb) name no domain.
 */
async function offDomain(t: Check, id: string, criteria: Record<string, string>, relId: string): Promise<void> {
  const domain = `conformance-${t.faker.string.alphanumeric(12)}`;
  const r = await t.call('searchRelationshipsService', { relationship: { ...criteria, domain } });
  if (r.success !== true) return;
  const sent = t.profile.relationship.domain ?? '(none sent)';
  const list = found(r.content).map((x) =>
    x.id === relId && (x.domain ?? null) === null ? { ...x, domain: sent } : x,
  );
  t.judge(OFF_CRITERIA, id, offCriteria({ ...criteria, domain }, list), r);
}

/**
 * searchRelationshipsService by subject, object or verb alone, and by all three, finds every relationship of the run
 * meeting them and none another criterion excludes.
 * Source: organization-identity-api.md, What the service does; Endpoints (searchRelationshipsService: relationship used
 * as the search criteria); person-provider-identity-api.md, Endpoints (searchRelationshipsService: filters are subject,
 * object and verb).
 */
const SEARCH_EACH_CRITERION: SharedCheck = {
  id: 'searchrelationshipsservice-by-each-criterion-alone-and-by-all-together-returns-only-relationships-meeting-every-criterion-given',
  role: 'relationships.search',
  title:
    'searchRelationshipsService by each criterion alone, and by all together, returns only relationships meeting every criterion given',
  body: async (t, { s: { kit }, id }) => {
    const m = t.profile.members;
    const { verb, inverseVerb } = t.profile.relationship;
    const [a, b, c, d] = await Promise.all([0, 1, 2, 3].map(() => kit.postNew(t, [id])));
    // The first relationship, and one per criterion differing from it in that criterion only.
    const set = await addSet(
      t,
      [id],
      [
        { subject: a.linkId, object: b.linkId },
        { subject: a.linkId, object: c.linkId },
        { subject: d.linkId, object: b.linkId },
        ...(inverseVerb && inverseVerb !== verb ? [{ subject: a.linkId, object: b.linkId, verb: inverseVerb }] : []),
      ],
    );
    const otherVerb = set[3];
    // What a search must find: every relationship the run added that meets its criteria (the verb alone matches
    // relationships of every check and run, and a reply of one or a capped list may hold none of the run's: there
    // only what it returns is judged; the searches with a link ID judge what it finds).
    const meeting = (criteria: Record<string, string>) =>
      set.filter((x) => x && Object.entries(criteria).every(([k, v]) => x.sent[k] === v)).map((x) => x!.id);
    const searches = [
      { category: 'criterion:subject', criteria: { [m.relationshipSubject]: a.linkId } },
      { category: 'criterion:object', criteria: { [m.relationshipObject]: b.linkId } },
      ...(otherVerb ? [{ category: 'criterion:verb', criteria: { relationshipVerb: verb }, any: true }] : []),
      {
        category: 'criteria:combined',
        criteria: { [m.relationshipSubject]: a.linkId, [m.relationshipObject]: b.linkId, relationshipVerb: verb },
      },
    ].map((x) => ({ ...x, finds: 'any' in x ? [] : meeting(x.criteria) }));
    if (!otherVerb)
      t.note(`criterion:verb not exercised: no second verb (profile relationship.inverseVerb) was accepted`);
    // A reply of one relationship (the seed's `relationship`, not `relationship[]`) shows one of those found.
    const shows = (x: { content?: unknown }, f: string) => found(x.content).some((y) => y.id === f);
    const all = (x: { content?: any }) => Array.isArray(x.content?.relationship);
    // The searches by each criterion only read: sent together, judged in order.
    const replies = await Promise.all(
      searches.map((s) =>
        t.settle(
          `relationships ${s.finds.join(', ')} searchable by ${Object.keys(s.criteria).join('+')}`,
          () => t.ok('searchRelationshipsService', { relationship: s.criteria }),
          (x) => !s.finds.length || (all(x) ? s.finds.every((f) => shows(x, f)) : s.finds.some((f) => shows(x, f))),
        ),
      ),
    );
    for (const [i, s] of searches.entries()) {
      const r = replies[i]!;
      const list = found(r.content);
      const missing =
        all(r) || !s.finds.length
          ? s.finds.filter((f) => !shows(r, f))
          : s.finds.some((f) => shows(r, f))
            ? []
            : [s.finds.join(' or ')];
      for (const f of missing)
        t.judge(RELATIONSHIP_NOT_FOUND, id, relationshipNotFound(f, JSON.stringify(s.criteria), false), r);
      // "used as the search criteria": a relationship another criterion excludes is not returned.
      t.judge(OFF_CRITERIA, id, offCriteria(s.criteria, asSent(list, set)), r);
      t.exercised(id, s.category);
    }
  },
};

/**
 * deleteRelationshipService deletes only the relationship it names: another of the same subject is still found.
 * Source: organization-identity-api.md, What the service does; Endpoints (deleteRelationshipService);
 * person-provider-identity-api.md, Endpoints (deleteRelationshipService).
 */
const DELETE_ONLY_NAMED: SharedCheck = {
  id: 'deleterelationshipservice-deletes-only-the-relationship-named-the-other-relationships-of-its-subject-stay',
  role: 'relationships.delete',
  title: 'deleteRelationshipService deletes only the relationship named: the other relationships of its subject stay',
  body: async (t, { s: { kit }, id }) => {
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => kit.postNew(t, [id])));
    const [gone, kept] = await addSet(
      t,
      [id],
      [
        { subject: a.linkId, object: b.linkId },
        { subject: a.linkId, object: c.linkId },
      ],
    );
    const del = await t.ok('deleteRelationshipService', { id: gone!.id });
    t.judge(DELETE_ECHOES_OTHER, id, deleteEchoesOther(gone!.id, del.content?.id), del);
    const bySubject = { relationship: { [t.profile.members.relationshipSubject]: a.linkId } };
    const lists = (x: { content?: unknown }, rel: { id: string }) => found(x.content).some((y) => y.id === rel.id);
    const r = await t.settle(
      `relationship ${gone!.id} gone from search and ${kept!.id} still found`,
      () => t.ok('searchRelationshipsService', bySubject),
      (x) => !lists(x, gone!) && lists(x, kept!),
    );
    t.judge(STILL_FOUND, id, stillFound(gone!.id, lists(r, gone!)), r);
    t.judge(OTHER_DELETED, id, otherDeleted(gone!.id, kept!.id, lists(r, kept!)), r);
    t.exercised(id, 'relationships-of-subject:2+');
  },
};

/**
 * deleteRelationshipService echoes the id deleted, and a search by its subject no longer finds it.
 * Source: organization-identity-api.md, What the service does; Endpoints (deleteRelationshipService);
 * person-provider-identity-api.md, Endpoints (deleteRelationshipService).
 */
const DELETE_GONE_FROM_SEARCH: SharedCheck = {
  id: 'deleterelationshipservice-deletes-the-relationship-and-a-search-no-longer-finds-it',
  role: 'relationships.delete',
  title: 'deleteRelationshipService deletes the relationship and a search no longer finds it',
  body: async (t, { s: { kit }, id }) => {
    const { a, id: relId } = await added(t, kit, [id]);
    const del = await t.ok('deleteRelationshipService', { id: relId });
    t.judge(DELETE_ECHOES_OTHER, id, deleteEchoesOther(relId, del.content?.id), del);
    t.exercised(id, 'relationships-of-subject:1');
    const gone = await t.eventually(`relationship ${relId} gone from search`, async () => {
      const r = await t.ok('searchRelationshipsService', {
        relationship: { [t.profile.members.relationshipSubject]: a.linkId },
      });
      return found(r.content).some((x) => x.id === relId) ? undefined : true;
    });
    t.judge(STILL_FOUND, id, stillFound(relId, gone !== true));
  },
};

/**
 * A relationship's DATE-TIME member (startDate) is an ISO 8601 UTC timestamp.
 * Source: organization-identity-api.md, Resources, Field data types (DATE-TIME), Relationship (startDate).
 */
const DATE_TIME: SharedCheck = {
  id: 'relationship-date-time-members-are-iso-8601-utc-timestamps',
  role: 'relationships.dateTime',
  title: 'relationship DATE-TIME members are ISO 8601 UTC timestamps',
  body: async (t, { s: { kit }, id }) => {
    const { relationship: rel } = await added(t, kit, [id]);
    if (rel.startDate === undefined || rel.startDate === null) t.skip('the reply carries no startDate to check');
    // Any ISO 8601 UTC form ("Z", "+00:00"), as specs/common/wire.ts DateTimeString reads the seed's DATE-TIME.
    t.judge(
      WIRE_FORM,
      id,
      wrongWireForm(
        [{ pointer: '/content/relationship/startDate', value: rel.startDate }],
        (v) => DateTimeString.safeParse(v).success,
        'an ISO 8601 UTC timestamp',
      ),
    );
  },
};
