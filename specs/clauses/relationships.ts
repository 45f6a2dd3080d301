/**
 * Clauses of the relationship checks: an added relationship has an id and echoes what was sent, a search by its
 * criteria finds it and returns none that meets other criteria, a deleted one is no longer found. Member names of
 * subject and object are profile settings (person payloads are not shown): a member a reply leaves out is not judged,
 * one it gives must hold what was sent.
 * Source: organization-identity-api.md, What the service does, Endpoints (relationship rows);
 * person-provider-identity-api.md, Endpoints (person and provider relationship operations).
 */
import { clause } from '../common/clause.js';

/** Every relationship requirement (a set-up add of any relationship check may lack an id). */
const ANY_RELATIONSHIP = [
  'relationships.add',
  'relationships.search',
  'relationships.delete',
  'relationships.dateTime',
  'PERSON-REL-ADD',
  'PERSON-REL-SEARCH-SUBJECT',
  'PERSON-REL-SEARCH-OBJECT',
  'PERSON-REL-SEARCH-VERB',
  'PERSON-REL-DELETE',
];
const SEARCHES = [
  'relationships.search',
  'PERSON-REL-SEARCH-SUBJECT',
  'PERSON-REL-SEARCH-OBJECT',
  'PERSON-REL-SEARCH-VERB',
];

export const RELATIONSHIP_WITHOUT_ID = clause(
  'RELATIONSHIP-WITHOUT-ID',
  'an addRelationshipService success reply without the added relationship or its id (deleteRelationshipService ' +
    'addresses a relationship by it)',
  ['*'],
  {
    on: 'deleteRelationshipService',
    citesNote: `the relationship requirements (${ANY_RELATIONSHIP.join(', ')}) and any check whose set-up adds one`,
  },
);
/** RELATIONSHIP-WITHOUT-ID: the reply's relationship, when it carries no non-empty string id. */
export function relationshipWithoutId(relationship: unknown): string[] {
  const id = (relationship as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' && id ? [] : [`relationship ${JSON.stringify(relationship ?? null).slice(0, 200)}`];
}

export const ECHO_OTHER_VALUE = clause(
  'ECHO-OTHER-VALUE',
  'an added relationship whose reply gives its subject, object, verb or status another value than was sent ' +
    '(letter case aside for the verb and status; a member left out is not judged)',
  ['relationships.add', 'PERSON-REL-ADD'],
);
/** ECHO-OTHER-VALUE: members of the reply's relationship that are present and differ from `sent`. */
export function echoOtherValue(
  sent: Record<string, string | null | undefined>,
  got: Record<string, unknown>,
  caseless: readonly string[],
): string[] {
  return Object.entries(sent)
    .filter(([k, v]) => v !== undefined && v !== null && got[k] !== undefined && got[k] !== null)
    .filter(([k, v]) => (caseless.includes(k) ? String(got[k]).toLowerCase() !== v!.toLowerCase() : got[k] !== v))
    .map(([k, v]) => `${k} ${JSON.stringify(got[k])}, sent ${JSON.stringify(v)}`);
}

export const RELATIONSHIP_NOT_FOUND = clause(
  'RELATIONSHIP-NOT-FOUND',
  'a search by the criteria of a relationship the run added that does not find it within the consistency budget',
  SEARCHES,
);
/** RELATIONSHIP-NOT-FOUND: the criteria, when no search found the relationship. */
export function relationshipNotFound(id: string, criteria: string, found: boolean): string[] {
  return found ? [] : [`relationship ${id} not found by ${criteria}`];
}

export const OFF_CRITERIA = clause(
  'OFF-CRITERIA',
  "a relationship a search returns whose criteria member (subject, object or verb; the organization's domain) holds " +
    'another value than the search asked for (letter case aside for the verb; a member the reply leaves out is ' +
    'judged by what the run sent at its add where the run added it, else not judged; a domain the run sent none ' +
    'of is another value)',
  SEARCHES,
);
/**
 * A member's value against the one asked for: the verb with its letter case aside (its format is not shown), as
 * ECHO-OTHER-VALUE reads it.
 */
const same = (member: string, got: unknown, asked: string) =>
  member === 'relationshipVerb' ? String(got).toLowerCase() === asked.toLowerCase() : got === asked;

/**
 * OFF-CRITERIA: returned relationships with a criteria member present and different (`criteria`: member name -> value
 * asked).
 */
export function offCriteria(criteria: Record<string, string>, found: ReadonlyArray<Record<string, unknown>>): string[] {
  return found.flatMap((r) =>
    Object.entries(criteria)
      .filter(([k, v]) => r[k] !== undefined && r[k] !== null && !same(k, r[k], v))
      .map(
        ([k, v]) =>
          `relationship ${String(r.id)}: ${k} ${JSON.stringify(r[k])}, the search asked for ${JSON.stringify(v)}`,
      ),
  );
}

export const DELETE_ECHOES_OTHER = clause(
  'DELETE-ECHOES-OTHER',
  "a deleteRelationshipService reply whose id is another relationship's than the one deleted (a reply without " +
    'id is not judged)',
  ['relationships.delete'],
);
/** DELETE-ECHOES-OTHER: the reply's id, when present and not the one asked. */
export function deleteEchoesOther(asked: string, id: unknown): string[] {
  return id === undefined || id === null || id === asked
    ? []
    : [`deleted ${asked}, the reply names ${JSON.stringify(id)}`];
}

export const STILL_FOUND = clause(
  'STILL-FOUND',
  'a relationship deleteRelationshipService deleted that a search still finds after the consistency budget',
  ['relationships.delete', 'PERSON-REL-DELETE'],
);
/** STILL-FOUND: the relationship, when the last search still found it. */
export function stillFound(id: string, found: boolean): string[] {
  return found ? [`relationship ${id} still found after its delete`] : [];
}

export const OTHER_DELETED = clause(
  'OTHER-DELETED',
  'a relationship the run added and never deleted that a search by its subject no longer finds, within the ' +
    'consistency budget, after deleteRelationshipService deleted another relationship of that subject',
  ['relationships.delete', 'PERSON-REL-DELETE'],
);
/** OTHER-DELETED: the relationship kept, when the search after deleting `deleted` no longer finds it. */
export function otherDeleted(deleted: string, kept: string, found: boolean): string[] {
  return found ? [] : [`relationship ${kept} of the same subject no longer found after deleting ${deleted}`];
}

export const RELATIONSHIP_CLAUSES = [
  RELATIONSHIP_WITHOUT_ID,
  ECHO_OTHER_VALUE,
  RELATIONSHIP_NOT_FOUND,
  OFF_CRITERIA,
  DELETE_ECHOES_OTHER,
  STILL_FOUND,
  OTHER_DELETED,
];
