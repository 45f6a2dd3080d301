/**
 * Clauses of the postIdentity checks: linkId is null exactly when the posted record matched nothing (rule 2), events is
 * an array when present, a posted record is found, a re-post of the same source and native ID updates it; person: an
 * exact copy from another source links.
 * Source: organization-identity-api.md, Endpoints (rule 2, the postIdentity row), Events;
 * person-provider-identity-api.md, Endpoints (/v2/postIdentity, provider /postIdentity).
 */
import { clause } from '../common/clause.js';

export const LINKID_WITHOUT_MATCH = clause(
  'LINKID-WITHOUT-MATCH',
  'a postIdentity reply naming a link ID although the posted record matched no existing identity (its identity ' +
    'holds no other source record)',
  ['ORG-POST-LINKID-NULL'],
);
export const LINKID_NULL_ON_MATCH = clause(
  'LINKID-NULL-ON-MATCH',
  'a postIdentity reply whose linkId is null although the posted record joined an existing identity',
  ['ORG-POST-LINKID-NULL'],
  { on: 'null if no match' },
);
/**
 * LINKID-WITHOUT-MATCH and LINKID-NULL-ON-MATCH: the reply's linkId against what the record did (`matched`: it joined
 * an existing identity; false: its identity holds no other record; undefined: not known, not judged). Which link ID a
 * match names is not judged beyond "not null".
 */
export function postLinkId(
  replyLinkId: unknown,
  matched: boolean | undefined,
): { withoutMatch: string[]; nullOnMatch: string[] } {
  const isNull = replyLinkId === undefined || replyLinkId === null;
  return {
    withoutMatch:
      matched === false && !isNull ? [`linkId ${JSON.stringify(replyLinkId)} for a record that matched nothing`] : [],
    nullOnMatch:
      matched === true && isNull
        ? [`linkId ${JSON.stringify(replyLinkId ?? null)} for a record that joined an existing identity`]
        : [],
  };
}

export const EVENTS_NOT_ARRAY = clause(
  'EVENTS-NOT-ARRAY',
  'a postIdentity reply whose events member is there but not an array',
  ['ORG-POST-EVENTS'],
);
/** EVENTS-NOT-ARRAY: `events` when present (not null) and not an array. */
export function eventsNotArray(events: unknown): string[] {
  return events === undefined || events === null || Array.isArray(events)
    ? []
    : [`events is ${JSON.stringify(events).slice(0, 200)}`];
}

export const POSTED_NOT_FOUND = clause(
  'POSTED-NOT-FOUND',
  'a source record postIdentity accepted that nativeIdQuery does not find within the consistency budget',
  ['*'],
  { citesNote: 'the requirements of the check that posts the record (its set-up or its action)' },
);
/** POSTED-NOT-FOUND: the source, when its lookup found nothing. */
export function postedNotFound(source: { name: string; id: string }, found: boolean, reply?: string): string[] {
  return found ? [] : [`nativeIdQuery found no identity for ${source.name}/${source.id}${reply ? ` (${reply})` : ''}`];
}

export const UPDATE_NOT_APPLIED = clause(
  'UPDATE-NOT-APPLIED',
  "a re-post of a record's source and native ID that moved it to another link ID, listed the source twice, or " +
    'did not store the new value',
  ['walk.update'],
);
/** UPDATE-NOT-APPLIED: what the identity shows after the re-post that an update of the record would not. */
export function updateNotApplied(
  was: string,
  after: { linkId: unknown; timesListed: number; shows: boolean },
  value: string,
): string[] {
  const out: string[] = [];
  if (after.linkId !== was) out.push(`the record moved from ${was} to ${JSON.stringify(after.linkId)}`);
  if (after.timesListed > 1) out.push(`the source is listed ${after.timesListed} times`);
  if (!after.shows) out.push(`the updated value ${value} is not in the identity`);
  return out;
}

export const EXACT_COPY_NOT_LINKED = clause(
  'EXACT-COPY-NOT-LINKED',
  "an exact copy of a person posted from another source that does not join the first record's link ID",
  ['PERSON-POST-EXACT-LINKS'],
);
/** EXACT-COPY-NOT-LINKED: where the copy landed, when not in the original's link ID. */
export function exactCopyNotLinked(original: string, copy: string | undefined): string[] {
  return copy === original ? [] : [`the copy is in ${copy ?? 'no identity'}, the original in ${original}`];
}

export const TYPE_NOT_KEPT = clause('TYPE-NOT-KEPT', 'a posted provider read back with another provider type', [
  'PROV-POST-TYPES',
]);
/** TYPE-NOT-KEPT: the type read back, when it is not the type posted (compared as strings). */
export function typeNotKept(expected: string, returned: unknown): string[] {
  return String(returned) === expected ? [] : [`posted type ${expected}, read back ${JSON.stringify(returned)}`];
}

export const POST_CLAUSES = [
  LINKID_WITHOUT_MATCH,
  LINKID_NULL_ON_MATCH,
  EVENTS_NOT_ARRAY,
  POSTED_NOT_FOUND,
  UPDATE_NOT_APPLIED,
  EXACT_COPY_NOT_LINKED,
  TYPE_NOT_KEPT,
];
