/**
 * Transport: sends one HTTP POST to a deployment and records what happened. One undici Agent per target (bounded
 * connections, optional mutual TLS); per service an adaptive pacing shared across threads (harness/pacing.ts: a "not
 * now" reply pauses all of the service's requests for the time asked, repeated throttling lowers the in-flight bound
 * and the rate, a quiet spell raises them again); a bound on requests in flight (p-limit, and the run's shared bound);
 * a timeout per attempt; retries with exponential backoff (p-retry) of what may be retried, until a time budget is
 * spent (CONFORMANCE_RETRY_BUDGET_MS) rather than after a fixed count; and a circuit breaker (cockatiel) so that a
 * service answering nothing fails its requests soon instead of each one spending the budget: a request that meets the
 * open circuit waits for the service to be tried again (a restart of a few seconds passes), and gives up once the
 * circuit has opened again OUTAGE_REOPENINGS times since (the service stayed down).
 *
 * Never throws for transport problems: a refused, reset or timed-out request comes back as a Reply whose exchange has
 * `error` set, so a check can report it with the exchange attached.
 */
import { readFileSync } from 'node:fs';
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhenResult,
} from 'cockatiel';
import PQueue from 'p-queue';
import pRetry from 'p-retry';
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from 'undici';
import type { ProxySettings, TlsFiles } from './config.js';
import { type AttemptEnd, ServicePacing } from './pacing.js';
import { redactHeaders, redactText } from './redact.js';
import {
  INTERRUPTED,
  type Outgoing,
  bodyWhenRead,
  failedReply,
  interruptedReply,
  newExchange,
  truncate,
} from './outgoing.js';
import { type Exchange, type Reply, rememberParsed } from './reply.js';
import { attemptEnd, backoffMs, retryReason } from './retry-policy.js';

/** How an exchange's error begins when the circuit breaker kept the request from being sent. */
export const CIRCUIT_OPEN = 'circuit open';

/** Ends the count of one request as waiting for a place (SharedBound.queue); calls after the first do nothing. */
export type Queued = () => void;

/** Runs a request once a slot of a bound shared beyond this transport is free (harness/shared-limit.ts SharedLimit). */
export interface SharedBound {
  /**
   * Runs `fn` once fewer than `max` (at most the bound's own) hold a slot; `queued` ends the request's count as waiting
   * then.
   */
  run<T>(fn: () => Promise<T>, max?: number, queued?: Queued): Promise<T>;
  /** Counts a request as waiting for a place until the `Queued` returned is called (by `run`). */
  queue?(): Queued;
}

export interface TransportOptions {
  /** Longest wait for one attempt's reply, ms. */
  timeoutMs: number;
  /** Most requests in flight at once through this transport: the ceiling of the adaptive bound (harness/pacing.ts). */
  maxInFlight: number;
  /** A bound shared with the run's other workers (harness/shared-limit.ts), taken inside this transport's own. */
  sharedLimit?: SharedBound;
  /** The service's pacing, shared with the run's other threads (harness/pacing.ts); default one of its own. */
  pacing?: ServicePacing;
  /** Longest a request is retried for, ms from its first attempt (CONFORMANCE_RETRY_BUDGET_MS; 0: never retried). */
  retryBudgetMs: number;
  /**
   * Most retries of a request that was processed or may have been, whatever the budget (CONFORMANCE_RETRIES);
   * undefined: the budget alone.
   */
  retries?: number;
  /** Requests per second at most (undefined or 0: no limit); the ceiling of the learned rate. */
  ratePerSecond?: number;
  tls?: TlsFiles;
  /**
   * The environment's proxies (harness/config.ts ProxySettings): requests go through them, the TLS settings holding for
   * the deployment through the tunnel.
   */
  proxy?: ProxySettings;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));
/**
 * Attempts in a row of one transport that failed transiently (not throttled: the service answers) after which its
 * circuit opens: a deployment that answers nothing for that long is taken as down, and its requests fail at once (could
 * not judge) instead of each spending the retry budget.
 */
export const BREAKER_FAILURES = 20;
/** Time after which an open circuit lets one request through to try the service again, ms. */
export const BREAKER_HALF_OPEN_MS = 5000;
/**
 * Times the circuit may open again (its trial request failed), without closing in between, after a request met it open,
 * before that request gives up: a service that restarts (down a few seconds) is waited for, one that stays down ends
 * its requests as could-not-judge within about this many half-open periods. A service back from a restart that still
 * fails a share p of requests transiently fails each trial with chance p, so a waiting request gives up on a service
 * that is up with chance p^OUTAGE_REOPENINGS: 2 gave 1.2 % per restart at p = 0.11 (seen: three walk checks not judged
 * in one run), 4 gives 0.015 % (0.16 % at p = 0.2).
 */
export const OUTAGE_REOPENINGS = 4;

/** How long after its check's time to send (Outgoing.until) an attempt under way may still run, ms. */
export const ATTEMPT_GRACE_MS = 5000;

/** A reply the retry loop should retry, carried as an error through p-retry. */
class RetryableReply extends Error {
  constructor(
    readonly reply: Reply,
    readonly reason: string,
    readonly end: AttemptEnd,
  ) {
    super(reason);
  }
}

/** What an exchange lists of an attempt that is retried, but the wait before the retry. */
type RetryRecord = Omit<NonNullable<Exchange['retries']>[number], 'waitedMs'>;

/** The record of the attempt `error` carries: its status or transport error, the start of its text, why, how long. */
const retryRecord = ({ reply, reason }: RetryableReply, exchange: Exchange): RetryRecord => ({
  ...(reply.status !== undefined ? { status: reply.status } : {}),
  ...(exchange.error ? { error: exchange.error } : {}),
  ...(exchange.reply?.text ? { text: exchange.reply.text.slice(0, 200) } : {}),
  reason,
  durationMs: exchange.durationMs,
});

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** What one attempt through the circuit breaker gives: the reply, and whether it counts as the service failing. */
interface Attempt {
  reply: Reply;
  failed: boolean;
}

export class Transport {
  private readonly agent: Dispatcher;
  /**
   * How this transport reaches its deployment (proxy and TLS), for requests that go the same way (harness/oauth.ts).
   */
  get dispatcher(): Dispatcher {
    return this.agent;
  }
  /**
   * This transport's bound on requests in flight: a queue in which a request of a chain check goes first
   * (Outgoing.priority).
   */
  private readonly own: PQueue;
  private readonly pacing: ServicePacing;
  private readonly breaker: CircuitBreakerPolicy;
  /** Times the circuit opened, when it last did, and a promise settled at its next change (opened or closed). */
  private breaks = 0;
  private resets = 0;
  private openedAt = 0;
  /** True from the circuit's opening to its closing (half-open included). */
  private open = false;
  private change = signal();

  constructor(readonly options: TransportOptions) {
    const tls = options.tls;
    // The deployment's TLS: on the connection to it, or inside the proxy's tunnel to it.
    const deploymentTls = {
      timeout: Math.min(options.timeoutMs, 10000),
      ...(tls?.ca ? { ca: readFileSync(tls.ca) } : {}),
      ...(tls?.cert ? { cert: readFileSync(tls.cert) } : {}),
      ...(tls?.key ? { key: readFileSync(tls.key) } : {}),
    };
    const agentOptions = {
      connections: options.maxInFlight,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // Retire idle sockets after 4 s whatever keep-alive the server advertises: a server that closes idle sockets
      // after (typically) 5 s or more then never closes one we are reusing.
      keepAliveTimeout: 4000,
      keepAliveMaxTimeout: 4000,
      connect: deploymentTls,
    };
    const proxy = options.proxy;
    // The proxies are given as the settings read them (harness/config.ts), an unset one as '', so that undici does not
    // read the environment again.
    this.agent = proxy
      ? new EnvHttpProxyAgent({
          ...agentOptions,
          httpProxy: proxy.http?.url ?? '',
          httpsProxy: proxy.https?.url ?? proxy.http?.url ?? '',
          noProxy: proxy.noProxy?.value ?? '',
          requestTls: deploymentTls,
          proxyTls: { timeout: deploymentTls.timeout },
        })
      : new Agent(agentOptions);
    this.own = new PQueue({ concurrency: options.maxInFlight });
    this.pacing = options.pacing ?? ServicePacing.local(options.maxInFlight, options.ratePerSecond || undefined);
    this.breaker = circuitBreaker(
      handleWhenResult((a) => (a as Attempt).failed),
      { halfOpenAfter: BREAKER_HALF_OPEN_MS, breaker: new ConsecutiveBreaker(BREAKER_FAILURES) },
    );
    const changed = () => {
      this.change.resolve();
      this.change = signal();
    };
    this.breaker.onBreak(() => {
      this.breaks++;
      this.open = true;
      this.openedAt = Date.now();
      changed();
    });
    this.breaker.onReset(() => {
      this.resets++;
      this.open = false;
      changed();
    });
  }

  /**
   * Waits, at most `maxMs`, until the open circuit may let a trial request through (its half-open time), or, once that
   * time has passed (another request is the trial), until the circuit opens again or closes.
   */
  private async outageWait(maxMs: number): Promise<void> {
    const untilTrial = this.openedAt + BREAKER_HALF_OPEN_MS - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const wait = untilTrial > 0 ? Math.min(untilTrial, maxMs) : maxMs;
    await Promise.race([this.change.promise, new Promise<void>((r) => (timer = setTimeout(r, wait)))]);
    clearTimeout(timer);
  }

  /**
   * Runs one attempt within the in-flight bound (this transport's, and the run's shared one), as lowered by the pacing.
   */
  private bounded<T>(fn: () => Promise<T>, priority = 0): Promise<T> {
    const bound = this.pacing.bound();
    if (this.own.concurrency !== bound) this.own.concurrency = bound;
    const shared = this.options.sharedLimit;
    // Counted as waiting from here, through this transport's own queue, until it holds a place.
    const queued = shared?.queue?.();
    return this.own.add(() => (shared ? shared.run(fn, bound, queued) : fn()), { priority }) as Promise<T>;
  }

  /**
   * Sends one request, retrying what may be retried (retryReason) until the retry budget is spent; the exchange lists
   * every attempt. A throttled attempt pauses the service (harness/pacing.ts) and is tried again once the pause is
   * over, without a backoff step of its own and without counting against CONFORMANCE_RETRIES.
   */
  async send(out: Outgoing): Promise<Reply> {
    const { signal } = out;
    if (!signal) return this.sendUntilDone(out);
    if (signal.aborted) return interruptedReply(out, 'not sent');
    // An interrupt ends the wait at once, whatever the request waits for (a place in flight, a pause, a backoff step):
    // the attempts left see the signal and send nothing more.
    let onAbort!: () => void;
    const aborted = new Promise<Reply>((resolve) => {
      onAbort = () => resolve(interruptedReply(out, 'not sent, or its reply not awaited'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.sendUntilDone(out), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async sendUntilDone(out: Outgoing): Promise<Reply> {
    const started = Date.now();
    const exchange = newExchange(out, started);
    let lastEnded = started;
    let flagged = 0;
    // The retry budget runs from the first attempt (CONFORMANCE_RETRY_BUDGET_MS): the wait for a place within the
    // in-flight bound before it is not retrying, however long the queue.
    let firstAttempt: number | undefined;
    // Retries end where the budget does, or earlier where the check's time to send does (out.until).
    const end = () =>
      Math.min((firstAttempt ?? Date.now()) + this.options.retryBudgetMs, out.until ?? Number.POSITIVE_INFINITY);
    const spent = () => Date.now() >= end();
    const outageOver = this.outageTracker();
    let pendingRetry: RetryRecord | undefined;
    // A retry's wait is the time until it is sent: its backoff, and any pause or rate slot before it.
    const sending = () => {
      firstAttempt ??= Date.now();
      if (pendingRetry)
        (exchange.retries ??= []).push({ ...pendingRetry, waitedMs: Math.max(0, Date.now() - lastEnded) });
      pendingRetry = undefined;
    };
    const attempt = async (): Promise<Reply> => {
      // The attempt ends when its reply is in, not when the queue hands it back a tick later: a retry's wait
      // (Retry-After included) is counted from then.
      const reply = await this.bounded(async () => {
        const r = await this.throughBreaker(out, exchange, sending);
        lastEnded = Date.now();
        return r;
      }, out.priority);
      return this.retriedOrGiven(out, reply, end, outageOver);
    };
    const maxCount = out.retries ?? this.options.retries ?? Number.POSITIVE_INFINITY;
    let counted = 0;
    let reply: Reply;
    try {
      // The count cap is kept here, not by p-retry's `retries`, which would stop at throttled attempts too; the budget
      // as well, not by `maxRetryTime`, which would count the first wait for a place in the queue. So the backoff is
      // waited here too, cut short where the budget ends.
      reply = await pRetry(attempt, {
        retries: Number.POSITIVE_INFINITY,
        minTimeout: 0,
        maxTimeout: 0,
        // A throttled attempt was not processed, and the pacing's pause is its wait.
        shouldConsumeRetry: ({ error }) => !(error instanceof RetryableReply && error.end.kind === 'throttled'),
        shouldRetry: async ({ error }) => {
          if (!(error instanceof RetryableReply) || spent() || out.signal?.aborted) return false;
          if (error.end.kind === 'throttled') return true;
          const isFlagged = error.reply.body?.retryableError === true && out.flaggedRetries !== undefined;
          if (isFlagged && ++flagged > out.flaggedRetries!) return false;
          if (++counted > maxCount) return false;
          await sleep(Math.min(backoffMs(counted), end() - Date.now()));
          return !spent();
        },
        onFailedAttempt: ({ error }) => {
          if (error instanceof RetryableReply) pendingRetry = retryRecord(error, exchange);
        },
      });
    } catch (e) {
      if (!(e instanceof RetryableReply)) throw e;
      reply = e.reply; // budget spent: the last reply stands (checks treat it as transient)
    }
    exchange.durationMs = Date.now() - started;
    return reply;
  }

  /**
   * Notes the outage a request is in (a later one, after the circuit closed, starts afresh): the function returned is
   * true once the circuit has opened OUTAGE_REOPENINGS more times in it since the request first met it open (the
   * service stayed down).
   */
  private outageTracker(): () => boolean {
    // How often the circuit had opened, and closed, when this request met it open in the current outage.
    let met: { breaks: number; resets: number } | undefined;
    return () => {
      if (!met || met.resets !== this.resets) met = { breaks: this.breaks, resets: this.resets };
      return this.breaks - met.breaks >= OUTAGE_REOPENINGS;
    };
  }

  /**
   * What becomes of an attempt's reply: it stands, or it is thrown as a RetryableReply for the retry loop. One the open
   * circuit kept from being sent waits for the service's trial request first, unless the budget (ending at `end()`) is
   * spent or the service stayed down.
   */
  private async retriedOrGiven(out: Outgoing, reply: Reply, end: () => number, outageOver: () => boolean) {
    if (reply.exchange.error?.startsWith(CIRCUIT_OPEN)) {
      // Nothing was sent. A restart passes: wait for the service's trial request and go again.
      const left = end() - Date.now();
      if (outageOver() || left <= 0) return reply;
      await this.outageWait(left);
      throw new RetryableReply(reply, 'circuit open: waited for the service to be tried again', { kind: 'throttled' });
    }
    const reason = retryReason(out.idempotent, reply);
    // A request sent as the open circuit's trial, and failed, is in the outage too: without this one whose backoff
    // kept ending at the half-open time retried until its whole budget was spent.
    if (reason && this.open && outageOver()) return reply;
    if (reason) throw new RetryableReply(reply, reason, attemptEnd(reply, reason));
    return reply;
  }

  /**
   * One attempt through the circuit breaker, once the pacing lets it go; an open circuit sends nothing and answers with
   * a transport error saying so.
   */
  private async throughBreaker(out: Outgoing, exchange: Exchange, sending: () => void): Promise<Reply> {
    try {
      const { reply } = await this.breaker.execute(async (): Promise<Attempt> => {
        const sentAt = await this.pacing.ready();
        sending();
        const reply = await this.once(out, exchange);
        // An attempt the run's interrupt cut short says nothing of the service: neither its pacing nor its circuit
        // counts it.
        if (exchange.error?.startsWith(INTERRUPTED)) return { reply, failed: false };
        const end = attemptEnd(reply, retryReason(out.idempotent, reply));
        this.pacing.ended(sentAt, end);
        // retryableError=true to a request wrong on purpose may be the answer, not the service failing.
        const failed =
          end.kind === 'transient' && !(out.flaggedRetries !== undefined && reply.body?.retryableError === true);
        return { reply, failed };
      });
      return reply;
    } catch (e) {
      if (!(e instanceof BrokenCircuitError)) throw e;
      sending();
      delete exchange.reply;
      exchange.error =
        `${CIRCUIT_OPEN}: ${BREAKER_FAILURES} attempts in a row to the ${out.service} service failed transiently; ` +
        `not sent (the service is tried again ${BREAKER_HALF_OPEN_MS / 1000} s after the circuit opened)`;
      exchange.durationMs = 0;
      return failedReply(exchange);
    }
  }

  /** One attempt; fills `exchange` (reply or error) and returns the parsed reply. */
  private async once(out: Outgoing, exchange: Exchange): Promise<Reply> {
    const begun = Date.now();
    // An attempt ends by the request timeout, or ATTEMPT_GRACE_MS after the check's time to send.
    const checkLeft = out.until !== undefined ? out.until + ATTEMPT_GRACE_MS - begun : Number.POSITIVE_INFINITY;
    const limitMs = Math.max(1, Math.min(this.options.timeoutMs, checkLeft));
    delete exchange.reply;
    delete exchange.error;
    if (out.signal?.aborted) {
      exchange.error = `${INTERRUPTED}: the run was stopped; not sent`;
      return failedReply(exchange);
    }
    // One controller per attempt, ended by its timer or the run's stop, removed when the attempt ends:
    // AbortSignal.timeout and AbortSignal.any make weakly held signals kept until collected.
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, limitMs).unref();
    const stop = () => abort.abort();
    out.signal?.addEventListener('abort', stop, { once: true });
    try {
      const res = await request(out.url, {
        method: 'POST',
        headers: out.headers,
        body: out.body,
        dispatcher: this.agent,
        signal: abort.signal,
      });
      const text = await res.body.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
      const kept: NonNullable<Exchange['reply']> = {
        status: res.statusCode,
        headers: redactHeaders(res.headers as Record<string, string>),
      };
      if (parsed === undefined) kept.text = redactText(truncate(text));
      else if (out.keep) {
        bodyWhenRead(kept, out.keep(parsed));
        rememberParsed(kept, parsed);
      } else kept.body = parsed;
      exchange.reply = kept;
      const b = isObject ? (parsed as Record<string, unknown>) : undefined;
      return {
        exchange,
        status: res.statusCode,
        body: b,
        // Typed as the contract gives it; what is checked, and when, is Reply's to say (harness/reply.ts).
        content: b?.content as Reply['content'],
        success: typeof b?.success === 'boolean' ? (b.success as boolean) : undefined,
      };
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string } };
      // undici's own aborts (a proxy that refused the tunnel: "Proxy response (407) !== 200") are no timeout.
      exchange.error = out.signal?.aborted
        ? `${INTERRUPTED}: the run was stopped while this request waited for its reply`
        : timedOut
          ? limitMs < this.options.timeoutMs
            ? `no reply within ${limitMs} ms, when the check's time ran out`
            : `no reply within ${this.options.timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)`
          : `${err.code ?? err.cause?.code ?? err.name}: ${err.message}`;
      return failedReply(exchange);
    } finally {
      clearTimeout(timer);
      out.signal?.removeEventListener('abort', stop);
      exchange.durationMs = Date.now() - begun;
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
