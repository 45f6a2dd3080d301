/**
 * One request as the transport sends it (Outgoing), and the exchange that records it: built when the request starts,
 * its request shown with the headers redacted and the body made when first read, and the replies of a request that got
 * none (not sent, interrupted, a transport error).
 */
import { redactHeaders } from './redact.js';
import type { Exchange, Reply } from './reply.js';

/** How an exchange's error begins when the run was interrupted before its reply (Outgoing.signal). */
export const INTERRUPTED = 'interrupted';

/** One request to send: where, what, and what may be re-sent. */
export interface Outgoing {
  service: string;
  operation: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** How the exchange shows the request's body (secrets redacted): made when the exchange's request is first read. */
  shownBody: () => unknown;
  /**
   * True when sending twice has the effect of sending once (reads, postIdentity), so an outcome-unknown failure may be
   * re-sent.
   */
  idempotent: boolean;
  /** Most retries for this request (default: the transport's); throttled attempts are not counted. */
  retries?: number;
  /**
   * Most retries of a reply marked retryableError=true (default: the budget alone): for a request wrong on purpose,
   * where the flag may be the deployment's answer (harness/check.ts invalid).
   */
  flaggedRetries?: number;
  /**
   * Place in the queue for a place in flight: higher goes first, equal in order of arrival (default 0). A check whose
   * requests follow one another (a walk) waits less behind the bursts of checks that send many at once, so it no longer
   * holds the run up.
   */
  priority?: number;
  /**
   * Latest time (ms since the epoch) a retry may be sent (the check's time to send); an attempt under way then ends
   * ATTEMPT_GRACE_MS later at most. Default: the retry budget alone.
   */
  until?: number;
  /**
   * Turns a parsed reply body into what the exchange keeps (redaction): returns how to make it, called when the
   * exchange's body is first read.
   */
  keep?: (parsed: unknown) => () => unknown;
  /**
   * Aborted when the run is interrupted (the check's vitest signal): the request is not sent, or not sent again, and an
   * attempt under way ends at once; the reply is then an error beginning INTERRUPTED.
   */
  signal?: AbortSignal;
}

const MAX_RAW = 4000;
/** A reply text cut to MAX_RAW characters, saying how many more there were. */
export const truncate = (text: string) =>
  text.length > MAX_RAW ? `${text.slice(0, MAX_RAW)}... [${text.length - MAX_RAW} more characters]` : text;

/** A new exchange of `out`, begun at `startedAt` (ms since the epoch), its request shown as `out` says. */
export const newExchange = (out: Outgoing, startedAt: number): Exchange => ({
  service: out.service,
  operation: out.operation,
  method: 'POST',
  url: out.url,
  startedAt: new Date(startedAt).toISOString(),
  durationMs: 0,
  request: requestShown(out),
});

/** The reply of a request that was not sent (or not awaited), its exchange's error saying why. */
export const notSent = (out: Outgoing, error: string): Reply => failedReply({ ...newExchange(out, Date.now()), error });

/** The reply of an attempt that got none: its exchange's error says why. */
export const failedReply = (exchange: Exchange): Reply => ({
  exchange,
  status: undefined,
  body: undefined,
  content: undefined,
  success: undefined,
});

/** The reply of a request the run's interrupt stopped (Outgoing.signal). */
export const interruptedReply = (out: Outgoing, what: string): Reply =>
  notSent(out, `${INTERRUPTED}: the run was stopped; ${what}`);

/** An exchange's request: its headers redacted, its body shown as `out.shownBody` makes it when first read. */
export function requestShown(out: Outgoing): Exchange['request'] {
  const request = { headers: redactHeaders(out.headers) } as Exchange['request'];
  bodyWhenRead(request, out.shownBody);
  return request;
}

/**
 * Defines an exchange reply's (or request's) `body` as what `make` returns, made when the body is first read (by a
 * report, a failure's explanation, an exchange file) and kept from then on. Most exchanges are never read in full
 * (CONFORMANCE_EXCHANGES keeps those of failing checks), so most redacted copies are never made.
 */
export function bodyWhenRead(reply: { body?: unknown }, make: () => unknown): void {
  let pending: (() => unknown) | undefined = make;
  let body: unknown;
  Object.defineProperty(reply, 'body', {
    enumerable: true,
    configurable: true,
    get() {
      if (pending) [body, pending] = [pending(), undefined];
      return body;
    },
    set(value: unknown) {
      [body, pending] = [value, undefined];
    },
  });
}
