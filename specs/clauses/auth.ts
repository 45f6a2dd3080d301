/**
 * Clauses of the authentication checks: a request without valid credentials (none, malformed, not issued by the
 * deployment) is not served: not accepted, answered with no identity data it did not carry itself, and changes nothing.
 * How a rejection looks (status, body) is not shown.
 * Source: organization-identity-api.md, Authentication; person-provider-identity-api.md, Authentication.
 */
import { type Answer, accepted, said } from '../common/answer.js';
import { clause } from '../common/clause.js';

export const UNAUTHENTICATED_ACCEPTED = clause(
  'UNAUTHENTICATED-ACCEPTED',
  'a request without valid credentials accepted (success=true)',
  ['auth.rejected'],
);
/** UNAUTHENTICATED-ACCEPTED: the operations whose reply accepted the request. */
export function unauthenticatedAccepted(replies: ReadonlyArray<{ op: string; answer: Answer }>): string[] {
  return replies.filter((x) => accepted(x.answer)).map((x) => `${x.op}: ${said(x.answer)}`);
}

export const UNAUTHENTICATED_LEAKS = clause(
  'UNAUTHENTICATED-LEAKS',
  'identity data (linkId, identity, identityGroupedBySource, linkIdentity, searchResults) in the reply to a ' +
    'request without valid credentials, other than values the request itself carried',
  ['auth.rejected'],
);
const IDENTITY_MEMBERS = ['linkId', 'identity', 'identityGroupedBySource', 'linkIdentity'];
/** UNAUTHENTICATED-LEAKS: identity members of each reply that the request did not send itself. */
export function unauthenticatedLeaks(
  replies: ReadonlyArray<{
    op: string;
    sent: Record<string, unknown>;
    content: Record<string, unknown> | null | undefined;
  }>,
): string[] {
  return replies.flatMap((x) => {
    const c = x.content ?? {};
    const members = IDENTITY_MEMBERS.filter(
      (k) => c[k] !== undefined && c[k] !== null && JSON.stringify(c[k]) !== JSON.stringify(x.sent[k]),
    ).concat(Array.isArray(c.searchResults) && c.searchResults.length ? ['searchResults'] : []);
    return members.length ? [`${x.op}: ${members.join(', ')}`] : [];
  });
}

export const UNAUTHENTICATED_CHANGES = clause(
  'UNAUTHENTICATED-CHANGES',
  "a change to the check's records, its relationship or its unposted source after requests without valid credentials",
  ['auth.rejected'],
);
/** UNAUTHENTICATED-CHANGES: what differs between the state before and after. */
export function unauthenticatedChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(before)
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map(
      (k) => `${k}: ${JSON.stringify(before[k]).slice(0, 200)} before, ${JSON.stringify(after[k]).slice(0, 200)} after`,
    );
}

export const AUTH_CLAUSES = [UNAUTHENTICATED_ACCEPTED, UNAUTHENTICATED_LEAKS, UNAUTHENTICATED_CHANGES];
