/**
 * Clauses of the bad-input checks: a request the seeds make invalid (no identity where it is required, maxSearchResults
 * not above 0, more than 10 data sources) is not accepted; structurally invalid content is rejected, never answered
 * HTTP 5xx without a failure envelope, never marked retryable, and changes nothing (what any identity service does:
 * EXPECT).
 * Source: organization-identity-api.md, Resources (Organization identity, Field data types), Endpoints rule 1, Limits,
 * Errors; person-provider-identity-api.md, Resources, Limits, Errors.
 */
import { type Answer, accepted, said } from '../common/answer.js';
import { clause } from '../common/clause.js';

export const IDENTITY_MISSING_ACCEPTED = clause(
  'IDENTITY-MISSING-ACCEPTED',
  'a postIdentity, demographicsSearch or demographicsQuery without content.identity accepted (success=true)',
  ['ORG-IDENTITY-REQUIRED'],
);
export const OVER_LIMIT_ACCEPTED = clause(
  'OVER-LIMIT-ACCEPTED',
  'a createDataSource call naming more than 10 data sources accepted (success=true)',
  ['badInput.dataSourceLimit'],
  { on: 'at most 10' },
);
export const BAD_INPUT_ACCEPTED = clause(
  'BAD-INPUT-ACCEPTED',
  'a request with malformed or wrongly typed content accepted (success=true)',
  ['badInput.generated', 'ORG-BADINPUT-REJECTED', 'PERSON-BADINPUT-REJECTED'],
);
/**
 * IDENTITY-MISSING-ACCEPTED, OVER-LIMIT-ACCEPTED, BAD-INPUT-ACCEPTED: the reply to an invalid request `what`, when it
 * accepted it.
 */
export function invalidAccepted(what: string, a: Answer): string[] {
  return accepted(a) ? [`${what} was accepted (${said(a)})`] : [];
}

export const BAD_INPUT_UNANSWERED = clause(
  'BAD-INPUT-UNANSWERED',
  'a reply to malformed content that is neither a rejection (HTTP 4xx, or success=false) nor an acceptance',
  ['badInput.generated', 'ORG-BADINPUT-REJECTED', 'PERSON-BADINPUT-REJECTED'],
);
/** BAD-INPUT-UNANSWERED: the reply, when it neither accepted nor rejected. */
export function badInputUnanswered(what: string, a: Answer): string[] {
  const rejected = (a.status !== undefined && a.status >= 400 && a.status < 500) || a.success === false;
  return rejected || accepted(a) ? [] : [`${what}: ${said(a)}`];
}

export const BAD_INPUT_RETRYABLE = clause(
  'BAD-INPUT-RETRYABLE',
  'a rejection of malformed content marked retryableError=true',
  ['ORG-ERR-NOT-RETRYABLE', 'PERSON-ERR-NOT-RETRYABLE'],
);
/** BAD-INPUT-RETRYABLE: the reply, when it marks the rejection retryable. */
export function badInputRetryable(what: string, retryableError: unknown): string[] {
  return retryableError === true ? [`${what} marked retryableError=true`] : [];
}

export const SERVER_ERROR = clause(
  'SERVER-ERROR',
  'an HTTP 5xx reply that carries no failure envelope (success=false)',
  ['badInput.noServerError', 'walk.noServerError'],
);
/** SERVER-ERROR: the reply, when it is a 5xx that carries no failure envelope. */
export function serverError(what: string, a: Answer): string[] {
  return (a.status ?? 0) >= 500 && a.success !== false ? [`${what}: ${said(a)}`] : [];
}

export const REJECTED_CHANGED = clause('REJECTED-CHANGED', "a rejected request that changed the run's records", [
  'badInput.rejectedNoChange',
]);
/** REJECTED-CHANGED: the changes seen after a rejected request. */
export function rejectedChanged(what: string, changes: readonly string[]): string[] {
  return changes.map((c) => `${what}: ${c}`);
}

export const BAD_INPUT_CLAUSES = [
  IDENTITY_MISSING_ACCEPTED,
  OVER_LIMIT_ACCEPTED,
  BAD_INPUT_ACCEPTED,
  BAD_INPUT_UNANSWERED,
  BAD_INPUT_RETRYABLE,
  SERVER_ERROR,
  REJECTED_CHANGED,
];
