/**
 * Transport: sends one HTTP POST to a deployment and records what happened. One undici Agent per
 * target (bounded connections, optional mutual TLS), a bound on requests in flight (p-limit), an
 * optional rate limit (p-throttle), a timeout per attempt, and retries with exponential backoff
 * and Retry-After (p-retry) for replies that say "not now".
 *
 * Never throws for transport problems: a refused, reset or timed-out request comes back as a
 * Reply whose exchange has `error` set, so a check can report it with the exchange attached.
 */
import { readFileSync } from 'node:fs';
import pLimit from 'p-limit';
import pRetry from 'p-retry';
import pThrottle from 'p-throttle';
import { Agent, request } from 'undici';
import type { TlsFiles } from './config.js';
import { redactHeaders, redactText } from './redact.js';
import type { Exchange, Reply } from './reply.js';

/** Runs a request once a slot of a bound shared beyond this transport is free (harness/shared-limit.ts SharedLimit). */
export interface SharedBound {
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export interface TransportOptions {
  /** Longest wait for one attempt's reply, ms. */
  timeoutMs: number;
  /** Most requests in flight at once through this transport. */
  maxInFlight: number;
  /** A bound shared with the run's other workers (harness/shared-limit.ts), taken inside this transport's own. */
  sharedLimit?: SharedBound;
  /** Retries per request at most (0 disables). */
  retries: number;
  /** Requests per second at most (undefined or 0: no limit). */
  ratePerSecond?: number;
  tls?: TlsFiles;
}

/** One request to send: where, what, and what may be re-sent. */
export interface Outgoing {
  service: string;
  operation: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The request as the exchange should show it (secrets already redacted). */
  shownBody: unknown;
  /** True when sending twice has the effect of sending once (reads, postIdentity), so an outcome-unknown failure may be re-sent. */
  idempotent: boolean;
  /** Retries for this request (default: the transport's). */
  retries?: number;
  /** Turns a parsed reply body into what the exchange keeps (redaction of foreign identities). */
  keep?: (parsed: unknown) => unknown;
}

/** First backoff step in ms; doubles per retry, randomised up to twice as long. */
export const RETRY_BASE_MS = 200;
/** Longest wait before a retry, also for a larger Retry-After. */
export const RETRY_MAX_WAIT_MS = 5000;

/** Connection errors where the request never reached the deployment (safe to re-send anything). */
const NOT_SENT = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)\b/;
/** Connection errors after the request may have been processed (outcome unknown). */
const OUTCOME_UNKNOWN = /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|UND_ERR_BODY_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)\b/;

/**
 * Whether a reply may be retried, and why. Retried: retryableError=true, HTTP 429/503 (not
 * processed), connection refused: any request; HTTP 502/504 and resets (outcome unknown): only
 * idempotent requests. Never retried: timeouts (the run stays bounded), and a non-idempotent
 * request whose outcome is unknown (a merge must not be re-sent blindly; the check reports it).
 */
export function retryReason(idempotent: boolean, reply: Reply): string | undefined {
  const error = reply.exchange.error;
  if (error) {
    if (NOT_SENT.test(error)) return `connection error before the request was sent (${error.split(':')[0]})`;
    if (OUTCOME_UNKNOWN.test(error) && idempotent) return `connection error (${error.split(':')[0]}) on an idempotent request`;
    return undefined;
  }
  if (reply.body?.retryableError === true && reply.success !== true) return 'reply marked retryableError=true';
  if (reply.status === 429) return 'HTTP 429 (rate limited)';
  if (reply.status === 503) return 'HTTP 503 (unavailable)';
  if ((reply.status === 502 || reply.status === 504) && idempotent) return `HTTP ${reply.status} on an idempotent request`;
  return undefined;
}

/** Retry-After (seconds or an HTTP date) as ms, capped; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const secs = Number(value);
  const ms = Number.isFinite(secs) ? secs * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), RETRY_MAX_WAIT_MS) : undefined;
}

const MAX_RAW = 4000;
const truncate = (text: string) =>
  text.length > MAX_RAW ? `${text.slice(0, MAX_RAW)}... [${text.length - MAX_RAW} more characters]` : text;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A reply the retry loop should retry, carried as an error through p-retry. */
class RetryableReply extends Error {
  constructor(
    readonly reply: Reply,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export class Transport {
  private readonly agent: Agent;
  private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>;
  private readonly paced: <T>(fn: () => Promise<T>) => Promise<T>;

  constructor(readonly options: TransportOptions) {
    const tls = options.tls;
    this.agent = new Agent({
      connections: options.maxInFlight,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // Retire idle sockets after 4 s whatever keep-alive the server advertises: a server that
      // closes idle sockets after (typically) 5 s or more then never closes one we are reusing.
      keepAliveTimeout: 4000,
      keepAliveMaxTimeout: 4000,
      connect: {
        timeout: Math.min(options.timeoutMs, 10000),
        ...(tls?.ca ? { ca: readFileSync(tls.ca) } : {}),
        ...(tls?.cert ? { cert: readFileSync(tls.cert) } : {}),
        ...(tls?.key ? { key: readFileSync(tls.key) } : {}),
      },
    });
    const own = pLimit(options.maxInFlight);
    const shared = options.sharedLimit;
    this.limit = shared ? <T>(fn: () => Promise<T>) => own(() => shared.run(fn)) : own;
    const rate = options.ratePerSecond;
    if (rate && rate > 0) {
      // One call per 1/rate s: evenly spaced, no bursts against a shared deployment.
      const throttle = pThrottle({ limit: 1, interval: Math.max(1, Math.round(1000 / rate)) });
      const gate = throttle(async () => {});
      this.paced = async (fn) => {
        await gate();
        return fn();
      };
    } else this.paced = (fn) => fn();
  }

  /** Sends one request, retrying what may be retried; the exchange lists every attempt. */
  async send(out: Outgoing): Promise<Reply> {
    const started = Date.now();
    const exchange: Exchange = {
      service: out.service,
      operation: out.operation,
      method: 'POST',
      url: out.url,
      startedAt: new Date(started).toISOString(),
      durationMs: 0,
      request: { headers: redactHeaders(out.headers), body: out.shownBody },
    };
    let lastEnded = started;
    let pendingRetry: Omit<NonNullable<Exchange['retries']>[number], 'waitedMs'> | undefined;
    const attempt = async (): Promise<Reply> => {
      if (pendingRetry) {
        (exchange.retries ??= []).push({ ...pendingRetry, waitedMs: Math.max(0, Date.now() - lastEnded) });
        pendingRetry = undefined;
      }
      const reply = await this.limit(() => this.paced(() => this.once(out, exchange)));
      lastEnded = Date.now();
      const reason = retryReason(out.idempotent, reply);
      if (reason) throw new RetryableReply(reply, reason);
      return reply;
    };
    let reply: Reply;
    try {
      reply = await pRetry(attempt, {
        retries: out.retries ?? this.options.retries,
        minTimeout: RETRY_BASE_MS,
        factor: 2,
        maxTimeout: RETRY_MAX_WAIT_MS,
        randomize: true,
        shouldRetry: ({ error }) => error instanceof RetryableReply,
        onFailedAttempt: async ({ error, retriesLeft }) => {
          if (!(error instanceof RetryableReply) || retriesLeft <= 0) return;
          const r = error.reply;
          pendingRetry = {
            ...(r.status !== undefined ? { status: r.status } : {}),
            ...(exchange.error ? { error: exchange.error } : {}),
            ...(exchange.reply?.text ? { text: exchange.reply.text.slice(0, 200) } : {}),
            reason: error.reason,
            durationMs: exchange.durationMs,
          };
          // Retry-After asks for at least this long; p-retry's own backoff follows it.
          const after = retryAfterMs(r.exchange.reply?.headers?.['retry-after']);
          if (after) await sleep(after);
        },
      });
    } catch (e) {
      if (!(e instanceof RetryableReply)) throw e;
      reply = e.reply; // retries spent: the last reply stands (checks treat it as transient)
    }
    exchange.durationMs = Date.now() - started;
    return reply;
  }

  /** One attempt; fills `exchange` (reply or error) and returns the parsed reply. */
  private async once(out: Outgoing, exchange: Exchange): Promise<Reply> {
    const begun = Date.now();
    delete exchange.reply;
    delete exchange.error;
    try {
      const res = await request(out.url, {
        method: 'POST',
        headers: out.headers,
        body: out.body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const text = await res.body.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
      exchange.reply = {
        status: res.statusCode,
        headers: redactHeaders(res.headers as Record<string, string>),
        ...(parsed !== undefined ? { body: out.keep ? out.keep(parsed) : parsed } : { text: redactText(truncate(text)) }),
      };
      const b = isObject ? (parsed as Record<string, unknown>) : undefined;
      return {
        exchange,
        status: res.statusCode,
        body: b,
        content: b?.content,
        success: typeof b?.success === 'boolean' ? (b.success as boolean) : undefined,
      };
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string } };
      exchange.error =
        err.name === 'TimeoutError' || err.name === 'AbortError'
          ? `no reply within ${this.options.timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)`
          : `${err.code ?? err.cause?.code ?? err.name}: ${err.message}`;
      return { exchange, status: undefined, body: undefined, content: undefined, success: undefined };
    } finally {
      exchange.durationMs = Date.now() - begun;
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
