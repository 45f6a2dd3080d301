/**
 * What came back from one request, and the predicates checks read it with. Scenarios import these, never the HTTP
 * client.
 *
 * A reply is one of three things:
 * - transient: the deployment could not answer now (no reply, HTTP 429/502/503/504, or a reply marked
 *   retryableError=true to a request the suite believes valid). It is never evidence of behaviour: checks turn it into
 *   "could not judge" (harness/check.ts), never into a rejection, an absence or a failure.
 * - a rejection: the deployment answered and declined the request: HTTP 4xx, or any reply whose envelope says
 *   success=false (also an enveloped 5xx: the seeds leave HTTP statuses other than
 *   200 "not shown", organization-identity-api.md, Errors).
 * - an acceptance: success=true.
 */

import type { OperationName } from '../specs/common/operation-names.js';
import type { Answer } from '../specs/common/answer.js';
import type { ReplyContent } from '../specs/services.js';

/** A record of one request and what came back (secrets and foreign identities already redacted). */
export interface Exchange {
  service: string;
  operation: string;
  method: 'POST';
  url: string;
  startedAt: string;
  durationMs: number;
  request: { headers: Record<string, string>; body: unknown };
  reply?: { status: number; headers: Record<string, string>; body?: unknown; text?: string };
  /** Transport failure (connection refused, reset, timeout); no reply then. */
  error?: string;
  /** Earlier attempts of this request that were retried (see retryReason), oldest first. */
  retries?: Array<{
    status?: number;
    error?: string;
    reason: string;
    durationMs: number;
    waitedMs: number;
    text?: string;
  }>;
}

/** Reply bodies as parsed, for replies whose kept (redacted) body is made only when read (harness/transport.ts). */
const parsedBodies = new WeakMap<object, unknown>();

/** Remembers the body an exchange's reply was parsed to, when its kept body is made only when read. */
export function rememberParsed(reply: NonNullable<Exchange['reply']>, body: unknown): void {
  parsedBodies.set(reply, body);
}

/**
 * The body of an exchange's reply for reading what redaction keeps as it is (the envelope's `success`, each search
 * result's `matchScore`: harness/redact-foreign.ts), without making the redacted copy. Nothing else may be read from
 * it: it may hold other people's data.
 */
export function bodyForKeptMembers(reply: NonNullable<Exchange['reply']>): unknown {
  return parsedBodies.has(reply) ? parsedBodies.get(reply) : reply.body;
}

/**
 * What a call of operation `O` returns: the exchange plus the parsed envelope when the body was a JSON object. A reply
 * of any operation is a Reply (of every operation's content).
 */
export interface Reply<O extends OperationName = OperationName> {
  exchange: Exchange;
  status: number | undefined;
  /** The reply body when it parsed as a JSON object, else undefined. */
  body: Record<string, unknown> | undefined;
  /**
   * body.content, typed as the operation's contract gives it (specs/services.ts ReplyContent). Checked against the
   * contract only when the reply said success=true and came through a check's `call` or `ok`; otherwise its members are
   * whatever the deployment sent (read them tolerantly).
   */
  content: ReplyContent<O> | null | undefined;
  success: boolean | undefined;
}

/** HTTP statuses that say "not now" rather than "no": the request may succeed later. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * True when the reply says nothing about the deployment's behaviour: no reply at all, a "not now" HTTP status, or a
 * failure marked retryableError=true. With `sentInvalid` (the request was wrong on purpose) the retryable flag is not
 * transient: it is judged by the ERR-NOT-RETRYABLE requirements instead.
 */
export function isTransient(reply: Reply, options: { sentInvalid?: boolean } = {}): boolean {
  if (reply.exchange.error !== undefined || reply.status === undefined) return true;
  if (TRANSIENT_STATUSES.has(reply.status)) return true;
  return !options.sentInvalid && reply.body?.retryableError === true && reply.success !== true;
}

/**
 * True when the deployment answered and declined the request: HTTP 4xx (other than 429), or an envelope with
 * success=false whatever the status. A transient reply is never a rejection.
 */
export function isRejection(reply: Reply, options: { sentInvalid?: boolean } = {}): boolean {
  if (isTransient(reply, options)) return false;
  const status = reply.status!;
  if (status >= 400 && status < 500) return true;
  return reply.success === false;
}

/** True when credentials were refused (HTTP 401/403). */
export const isAuthFailure = (reply: Reply) => reply.status === 401 || reply.status === 403;

/**
 * True when a lookup found nothing: rejected (not for want of credentials), or accepted with no link ID. A transient
 * reply is never an absence.
 */
export function isAbsent(reply: Reply): boolean {
  if (isTransient(reply)) return false;
  if (isRejection(reply)) return !isAuthFailure(reply);
  return reply.success === true && (reply.content?.linkId === undefined || reply.content?.linkId === null);
}

/** The parts of a reply a clause reads (specs/common/answer.ts), with the reply in words (made when read). */
export const answerOf = (reply: Reply): Answer => ({
  status: reply.status,
  success: reply.success,
  content: reply.content,
  absent: isAbsent(reply),
  get described() {
    return describeReply(reply);
  },
});

/** Short description of what came back, for failure messages. */
export function describeReply(reply: Reply): string {
  if (reply.exchange.error) return `no reply (${reply.exchange.error})`;
  const b = reply.body;
  const detail = b
    ? // A message the errors repeat (or errors that repeat each other) is said once.
      [...new Set([b.message, ...(Array.isArray(b.errors) ? b.errors : [])].filter(Boolean).map(String))].join('; ')
    : (reply.exchange.reply?.text ?? '').slice(0, 200);
  const retried = reply.exchange.retries?.length ? ` after ${reply.exchange.retries.length} retries` : '';
  return (
    `HTTP ${reply.status}, ` +
    `success=${String(reply.success)}${b?.retryableError === true ? ', retryableError=true' : ''}${detail ? ` (${detail})` : ''}${retried}`
  );
}
