/**
 * What a reply said, as the clauses read it: an acceptance (success=true on a status below 400) or not. HTTP statuses
 * other than 200 are "not shown", so a rejection is any reply that is not an acceptance; a clause that forbids
 * accepting a request rejects acceptances only.
 * Source: organization-identity-api.md, Errors ("Failures are carried in the response envelope"; "HTTP status codes
 * other than 200: not shown"); person-provider-identity-api.md, Errors.
 */

/** The parts of a reply the clauses read. */
export interface Answer {
  status?: number;
  success?: unknown;
  /** Short words for the reply (harness/reply.ts describeReply), shown in a finding. */
  described?: string;
  /** The envelope's `content` member. */
  content?: any;
  /**
   * A lookup found nothing: a rejection not for want of credentials, or a success naming no link ID (harness/reply.ts
   * isAbsent).
   */
  absent?: boolean;
}

/** True when the deployment accepted the request: success=true on a status below 400. */
export const accepted = (a: Answer) => a.success === true && a.status !== undefined && a.status < 400;

/** `a` in words: its description, or its status and success flag. */
export const said = (a: Answer) => a.described ?? `HTTP ${a.status ?? '-'}, success=${String(a.success)}`;
