/**
 * Relationships shared by the organization and provider services: add (replied with its id; a
 * member it echoes holds what was sent), search finds it (by subject, by object and verb; none
 * whose criteria member holds another value), delete (a search no longer finds it).
 * Source: organization-identity-api.md, What the service does, Endpoints, Resources (Relationship);
 * person-provider-identity-api.md, Endpoints (provider relationship operations).
 */
import { DateTimeString } from '../../../specs/common/wire.js';
import { WIRE_FORM } from '../../../specs/clauses/contract.js';
import {
  DELETE_ECHOES_OTHER,
  ECHO_OTHER_VALUE,
  OFF_CRITERIA,
  RELATIONSHIP_NOT_FOUND,
  RELATIONSHIP_WITHOUT_ID,
  STILL_FOUND,
  deleteEchoesOther,
  echoOtherValue,
  offCriteria,
  relationshipNotFound,
  relationshipWithoutId,
  stillFound,
} from '../../../specs/clauses/relationships.js';
import { wrongWireForm } from '../../../specs/clauses/types.js';
import type { Check } from '../../../harness/check.js';
import { relationshipContent } from '../requests.js';
import { type Shared, idsFor, titled } from './types.js';

export const RELATIONSHIP_ROLES = ['add', 'search', 'delete', 'dateTime'] as const;
export type RelationshipRole = (typeof RELATIONSHIP_ROLES)[number];

const found = (content: any): Array<Record<string, unknown>> => {
  const r = content?.relationship;
  return Array.isArray(r) ? r : r ? [r] : [];
};

export function relationshipChecks({ check, verifies, kit, label }: Shared): void {
  const ids = idsFor(check, 'relationships', RELATIONSHIP_ROLES, verifies);
  const T = (s: string) => titled(s, label);
  const added = async (t: Check, cites: string[]) => {
    const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
    const r = await t.ok('addRelationshipService', relationshipContent(t, a.linkId, b.linkId), { cites });
    const relationship = r.content?.relationship;
    t.judge(RELATIONSHIP_WITHOUT_ID, cites, relationshipWithoutId(relationship), r);
    return { a, b, id: relationship!.id as string, relationship: relationship! };
  };

  if (ids.add) {
    const id = ids.add;
    check(T('addRelationshipService adds the relationship and replies with its id'), [id], async (t) => {
      const { a, b, relationship: rel } = await added(t, [id]);
      const m = t.profile.members;
      const sent = { [m.relationshipSubject]: a.linkId, [m.relationshipObject]: b.linkId, relationshipVerb: t.profile.relationship.verb };
      t.judge(ECHO_OTHER_VALUE, id, echoOtherValue(sent, rel, ['relationshipVerb']));
    });
  }

  if (ids.search) {
    const id = ids.search;
    check(T('searchRelationshipsService finds an added relationship by subject, and by object and verb'), [id], async (t) => {
      const { a, b, id: relId } = await added(t, [id]);
      const m = t.profile.members;
      for (const criteria of [
        { [m.relationshipSubject]: a.linkId },
        { [m.relationshipObject]: b.linkId, relationshipVerb: t.profile.relationship.verb },
      ]) {
        const hit = await t.eventually(`relationship ${relId} searchable by ${Object.keys(criteria).join('+')}`, async () => {
          const r = await t.ok('searchRelationshipsService', { relationship: criteria });
          return found(r.content).some((x) => x.id === relId) ? r : undefined;
        });
        t.judge(RELATIONSHIP_NOT_FOUND, id, relationshipNotFound(relId, JSON.stringify(criteria), hit !== undefined));
      }
    });

    check(T('searchRelationshipsService returns only relationships that meet the criteria'), [id], async (t) => {
      const { a } = await added(t, [id]);
      const subject = t.profile.members.relationshipSubject;
      const r = await t.ok('searchRelationshipsService', { relationship: { [subject]: a.linkId } });
      t.judge(OFF_CRITERIA, id, offCriteria({ [subject]: a.linkId }, found(r.content)), r);
    });
  }

  if (ids.delete) {
    const id = ids.delete;
    check(T('deleteRelationshipService deletes the relationship and a search no longer finds it'), [id], async (t) => {
      const { a, id: relId } = await added(t, [id]);
      const del = await t.ok('deleteRelationshipService', { id: relId });
      t.judge(DELETE_ECHOES_OTHER, id, deleteEchoesOther(relId, del.content?.id), del);
      const gone = await t.eventually(`relationship ${relId} gone from search`, async () => {
        const r = await t.ok('searchRelationshipsService', { relationship: { [t.profile.members.relationshipSubject]: a.linkId } });
        return found(r.content).some((x) => x.id === relId) ? undefined : true;
      });
      t.judge(STILL_FOUND, id, stillFound(relId, gone !== true));
    });
  }

  if (ids.dateTime) {
    const id = ids.dateTime;
    check(T('relationship DATE-TIME members are ISO 8601 UTC timestamps'), [id], async (t) => {
      const { relationship: rel } = await added(t, [id]);
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
    });
  }
}
