/**
 * The retry policy of the transport (harness/transport.ts): which replies may be retried and why, how long the backoff
 * before a retry is, what a Retry-After asks for, and how an attempt's reply bears on the service's pacing
 * (harness/pacing.ts).
 */
import { type AttemptEnd, MAX_PAUSE_MS } from './pacing.js';
import { type Reply, isTransient } from './reply.js';

/** First backoff step in ms; doubles per retry, randomised up to twice as long. */
export const RETRY_BASE_MS = 200;
/** Longest backoff step before a retry (a Retry-After pauses the service instead: harness/pacing.ts). */
export const RETRY_MAX_WAIT_MS = 5000;

/**
 * The backoff before retry `n` (1, 2, ...): RETRY_BASE_MS doubling, randomised up to twice as long, at most
 * RETRY_MAX_WAIT_MS.
 */
export const backoffMs = (n: number) =>
  Math.min(RETRY_MAX_WAIT_MS, Math.round((1 + Math.random()) * RETRY_BASE_MS * 2 ** (n - 1)));

/** Connection errors where the request never reached the deployment (safe to re-send anything). */
const NOT_SENT = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)\b/;
/** Connection errors after the request may have been processed (outcome unknown). */
const OUTCOME_UNKNOWN =
  /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|UND_ERR_BODY_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)\b/;

/**
 * Whether a reply may be retried, and why. Retried: retryableError=true, HTTP 429/503 (not processed), connection
 * refused: any request; HTTP 502/504 and resets (outcome unknown): only idempotent requests. Never retried: timeouts
 * (the run stays bounded), and a non-idempotent request whose outcome is unknown (a merge must not be re-sent blindly;
 * the check reports it).
 */
export function retryReason(idempotent: boolean, reply: Reply): string | undefined {
  const error = reply.exchange.error;
  if (error) {
    if (NOT_SENT.test(error)) return `connection error before the request was sent (${error.split(':')[0]})`;
    if (OUTCOME_UNKNOWN.test(error) && idempotent)
      return `connection error (${error.split(':')[0]}) on an idempotent request`;
    return undefined;
  }
  if (reply.body?.retryableError === true && reply.success !== true) return 'reply marked retryableError=true';
  if (reply.status === 429) return 'HTTP 429 (rate limited)';
  if (reply.status === 503) return 'HTTP 503 (unavailable)';
  if ((reply.status === 502 || reply.status === 504) && idempotent)
    return `HTTP ${reply.status} on an idempotent request`;
  return undefined;
}

/** Retry-After (seconds or an HTTP date) as ms, capped at MAX_PAUSE_MS; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const secs = Number(value);
  const ms = Number.isFinite(secs) ? secs * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), MAX_PAUSE_MS) : undefined;
}

/**
 * How an attempt's reply bears on the service's pacing: throttled (HTTP 429, or 429/503 with Retry-After: the service
 * answers "not now", so its requests pause), transient (it failed transiently otherwise), or answered.
 */
export function attemptEnd(reply: Reply, reason: string | undefined): AttemptEnd {
  const after = retryAfterMs(reply.exchange.reply?.headers?.['retry-after']);
  if (reply.status === 429 || (reply.status === 503 && after !== undefined))
    return { kind: 'throttled', ...(after !== undefined ? { pauseMs: after } : {}) };
  return reason !== undefined || isTransient(reply) ? { kind: 'transient' } : { kind: 'answered' };
}
