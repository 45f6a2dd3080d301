/**
 * Clauses of the contract every check's requests are read against (harness/check.ts `call`, `ok`): a reply is a JSON
 * response envelope whose members have the envelope's types, a successful reply's content has the members and types of
 * its Endpoints row and resource tables, and a valid request a check needs is answered with success. The judging
 * functions live with the validator (harness/contract.ts); what a reply's content is judged against is the operations
 * table.
 * Source: organization-identity-api.md, What the service does ("a JSON reply in the envelope"), Resources and their
 * fields, Endpoints; person-provider-identity-api.md, Resources, Endpoints.
 */
import { type Answer, said } from '../common/answer.js';
import { clause } from '../common/clause.js';

export const REPLY_NOT_ENVELOPE = clause(
  'REPLY-NOT-ENVELOPE',
  'a reply whose body is not a JSON object (the response envelope)',
  ['envelope.reply'],
);
export const ENVELOPE_MEMBER_TYPE = clause(
  'ENVELOPE-MEMBER-TYPE',
  'an envelope member of another type than the envelope table gives (success not a boolean, warnings or errors ' +
    'not arrays of strings, ...)',
  ['envelope.reply'],
);
export const CONTENT_SHAPE = clause(
  'CONTENT-SHAPE',
  'a successful reply whose content has a documented member of another type or shape than its Endpoints row and ' +
    'resource tables give (an array that is not one, an object that is not one, a required member missing, a value ' +
    'outside its stated range or values)',
  ['op.*', 'governs:*'],
);
export const WIRE_FORM = clause(
  'WIRE-FORM',
  'a value of a typed field in another wire form than its data type gives (a DATE not yyyy-MM-dd, a NUMBER that ' +
    'is not a string holding a number, ...)',
  ['type.*'],
);
export const REQUEST_REFUSED = clause(
  'REQUEST-REFUSED',
  'a valid request a check sends in the state its rule starts from (its own records) answered without success=true',
  ['*'],
  { citesNote: 'the requirements of the check that sends the request (its set-up or its action)' },
);

export const CONTRACT_CLAUSES = [REPLY_NOT_ENVELOPE, ENVELOPE_MEMBER_TYPE, CONTENT_SHAPE, WIRE_FORM, REQUEST_REFUSED];

/** REPLY-NOT-ENVELOPE: a reply of `op` whose body did not parse as a JSON object (`raw`: the body as text). */
export function replyNotEnvelope(op: string, status: number | undefined, body: unknown, raw: string): string[] {
  if (body && typeof body === 'object' && !Array.isArray(body)) return [];
  return [
    `${op} replied HTTP ${status} with ` +
      `${raw ? `a body that is not a JSON object: ${raw.slice(0, 200)}` : 'an empty body'}`,
  ];
}

/** REQUEST-REFUSED: the reply to a valid request of `op`, when it does not say success=true. */
export function requestRefused(op: string, a: Answer): string[] {
  return a.success === true ? [] : [`${op} replied ${said(a)}`];
}
