/**
 * The HTTP client: one undici Agent per service target (bounded connections, optional mutual
 * TLS), a bound on requests in flight (p-limit), a timeout per request, the request envelope
 * (unique trackingId per request), authentication, the data-safety guard and an exchange
 * record of every call with secrets redacted.
 *
 * Errors: GuardRefusal when a mutating request names something the run does not own (nothing is
 * sent); transport problems (refused, reset, timeout) are returned as an Exchange with `error`
 * set, never thrown, so a check can report them with the exchange attached.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import type { OperationSpec, WireNames } from '../specs/common/model.js';
import type { SourceRef } from '../specs/common/wire.js';
import { operation } from '../specs/services.js';
import type { ServiceTarget } from './config.js';
import { type Profile, relationshipMembers } from './profile.js';
import { redactForeignIdentities, redactHeaders, redactJson, redactText, registerSecret } from './redact.js';
import type { RunContext } from './run.js';

/** A record of one request and what came back (secrets already redacted). */
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
  retries?: Array<{ status?: number; error?: string; reason: string; durationMs: number; waitedMs: number; text?: string }>;
}

/** What a call returns: the exchange plus the parsed envelope when the body was a JSON object. */
export interface Reply {
  exchange: Exchange;
  status: number | undefined;
  /** The reply body when it parsed as a JSON object, else undefined. */
  body: Record<string, unknown> | undefined;
  /** body.content (any), for convenience. */
  content: any;
  success: boolean | undefined;
}

export type AuthMode = 'default' | 'none' | 'malformed' | { header: string };

export interface CallOptions {
  /** Authentication to send: the target's (default), none, a malformed token, or a literal header. */
  auth?: AuthMode;
  /** Send this exact body instead of a JSON envelope (malformed-JSON checks). */
  rawBody?: string;
  /** Extra envelope members (e.g. override auditId). */
  envelope?: Record<string, unknown>;
  /** Called with every exchange (the check's recorder). */
  record?: (exchange: Exchange) => void;
}

export class GuardRefusal extends Error {
  constructor(message: string) {
    super(`Guard refused the request: ${message}`);
    this.name = 'GuardRefusal';
  }
}

const MAX_RAW = 4000;
const truncate = (text: string) => (text.length > MAX_RAW ? `${text.slice(0, MAX_RAW)}... [${text.length - MAX_RAW} more characters]` : text);

export function wireNames(profile: Profile): WireNames {
  return {
    restoreSourceMember: profile.members.restoreSource,
    deactivateSourceMember: profile.members.deactivateSource,
    reactivateSourceMember: profile.members.reactivateSource,
  };
}

export class ServiceClient {
  private readonly agent: Agent;
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly ownedLinkIds = new Set<string>();
  private readonly ownedRelationships = new Set<string>();

  constructor(
    readonly target: ServiceTarget,
    readonly profile: Profile,
    readonly run: RunContext,
    readonly options: { timeoutMs: number; maxInFlight: number; retries?: number; ratePerSecond?: number },
  ) {
    const tls = target.tls;
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
    this.limit = pLimit(options.maxInFlight);
    if (target.auth.scheme === 'bearer') registerSecret(target.auth.token);
    else {
      registerSecret(target.auth.password);
      registerSecret(`${target.auth.username}:${target.auth.password}`);
    }
  }

  url(op: OperationSpec): string {
    return `${this.target.baseUrl}${this.target.servicePath}${op.path}`;
  }

  /** The Authorization header value for an auth mode, or undefined for none. */
  authorization(mode: AuthMode = 'default'): string | undefined {
    if (mode === 'none') return undefined;
    if (mode === 'malformed') return this.target.auth.scheme === 'bearer' ? 'Bearer not-a-jwt' : 'Basic %%%not-base64%%%';
    if (typeof mode === 'object') return mode.header;
    const a = this.target.auth;
    return a.scheme === 'bearer' ? `Bearer ${a.token}` : `Basic ${Buffer.from(`${a.username}:${a.password}`).toString('base64')}`;
  }

  /** Marks a link ID as belonging to the run (its identity holds only run-created sources). */
  adoptLinkId(linkId: unknown): void {
    if (typeof linkId === 'string' && linkId) this.ownedLinkIds.add(linkId);
  }

  /** Marks a relationship ID as created by the run (cleanup re-reads them from the ledger). */
  adoptRelationship(id: string): void {
    this.ownedRelationships.add(id);
  }

  ownsSource(source: Partial<SourceRef> | undefined): boolean {
    return Boolean(source && this.target.sources.includes(source.name ?? '') && this.run.ownsNativeId(source.id));
  }

  /**
   * Refuses any mutating request that names a source, link ID or relationship the run did not
   * create. Source: ARCHITECTURE.md, "Run isolation"; DEVELOPERS.md, "Safety first".
   * @throws GuardRefusal
   */
  guard(op: OperationSpec, content: Record<string, unknown>): void {
    if (!op.mutates) return;
    for (const source of op.sourcesNamed(content ?? {}, wireNames(this.profile))) {
      if (source === undefined || source === null) continue;
      if (!this.ownsSource(source)) {
        throw new GuardRefusal(
          `${op.service}.${op.name} names source ${JSON.stringify(source)}, which is not in this run's namespace ` +
            `(source name one of ${this.target.sources.join(', ')}, native ID starting ${this.run.namespace})`,
        );
      }
    }
    if (op.name === 'addRelationshipService') {
      const rel = (content?.relationship ?? {}) as Record<string, unknown>;
      const m = relationshipMembers(this.profile, op.service);
      for (const member of [m.subject, m.object]) {
        const linkId = rel[member];
        if (linkId !== undefined && !this.ownedLinkIds.has(String(linkId)))
          throw new GuardRefusal(`${op.service}.${op.name} names link ID ${JSON.stringify(linkId)} in ${member}, which is not an identity this run created`);
      }
    }
    for (const name of op.namesCreated?.(content ?? {}) ?? []) {
      if (typeof name !== 'string' || !name.startsWith(this.run.namespace))
        throw new GuardRefusal(`${op.service}.${op.name} would create ${JSON.stringify(name)}, which is not in this run's namespace (names must start ${this.run.namespace})`);
    }
    if (op.name === 'deleteRelationshipService') {
      const id = content?.id;
      if (id !== undefined && !this.ownedRelationships.has(String(id)))
        throw new GuardRefusal(`${op.service}.${op.name} names relationship ${JSON.stringify(id)}, which this run did not create`);
    }
  }

  private noteOwnership(op: OperationSpec, content: Record<string, unknown>, reply: Reply): void {
    if (!reply.body || reply.success !== true) return;
    const c = reply.content ?? {};
    if (op.name === 'addRelationshipService' && typeof c.relationship?.id === 'string') {
      this.ownedRelationships.add(c.relationship.id);
      this.run.record({ kind: 'relationship', service: op.service, id: c.relationship.id, at: new Date().toISOString() });
    }
    // A query or post naming one of the run's own sources tells the link ID of a run-owned identity.
    const named = op.name === 'nativeIdQuery' ? [content.source as Partial<SourceRef>] : op.name === 'postIdentity' ? op.sourcesNamed(content, wireNames(this.profile)) : [];
    if (named.some((s) => this.ownsSource(s))) this.adoptLinkId(c.linkId);
  }

  /** Sends one operation. Never throws for transport problems; see Reply / Exchange. @throws GuardRefusal */
  async call(name: string, content: unknown, options: CallOptions = {}): Promise<Reply> {
    const op = operation(this.target.service, name);
    const c = (content ?? {}) as Record<string, unknown>;
    this.guard(op, c);
    if (op.name === 'postIdentity') {
      for (const source of op.sourcesNamed(c, wireNames(this.profile)))
        if (source) this.run.record({ kind: 'source', service: op.service, source: source as SourceRef, at: new Date().toISOString() });
    }
    for (const name of op.namesCreated?.(c) ?? []) this.run.record({ kind: 'dataSource', service: op.service, name: String(name), at: new Date().toISOString() });
    const envelope: Record<string, unknown> = {
      auditId: `cf-audit-${randomUUID()}`,
      trackingId: `cf-track-${randomUUID()}`,
      auditLogMap: { suite: 'identity-conformance', runId: this.run.runId },
      ...(this.target.customerId ? { customerId: this.target.customerId } : {}),
      content,
      ...options.envelope,
    };
    const body = options.rawBody ?? JSON.stringify(envelope);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    const authorization = this.authorization(options.auth);
    if (authorization) headers.authorization = authorization;

    const url = this.url(op);
    const started = Date.now();
    const exchange: Exchange = {
      service: op.service,
      operation: op.name,
      method: 'POST',
      url,
      startedAt: new Date(started).toISOString(),
      durationMs: 0,
      request: { headers: redactHeaders(headers), body: options.rawBody !== undefined ? redactText(options.rawBody) : redactJson(envelope) },
    };
    const attempt = () =>
      this.limit(async (): Promise<Reply> => {
        await this.pace();
        const begun = Date.now();
        delete exchange.reply;
        delete exchange.error;
        try {
          const res = await request(url, {
            method: 'POST',
            headers,
            body,
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
            ...(parsed !== undefined ? { body: redactForeignIdentities(redactJson(parsed), (s) => this.ownsSource(s)) } : { text: redactText(truncate(text)) }),
          };
          const b = isObject ? (parsed as Record<string, unknown>) : undefined;
          return { exchange, status: res.statusCode, body: b, content: b?.content, success: typeof b?.success === 'boolean' ? (b.success as boolean) : undefined };
        } catch (e) {
          const err = e as Error & { code?: string; cause?: { code?: string } };
          exchange.error = err.name === 'TimeoutError' || err.name === 'AbortError' ? `no reply within ${this.options.timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)` : `${err.code ?? err.cause?.code ?? err.name}: ${err.message}`;
          return { exchange, status: undefined, body: undefined, content: undefined, success: undefined };
        } finally {
          exchange.durationMs = Date.now() - begun;
        }
      });
    let reply = await attempt();
    const maxRetries = this.options.retries ?? DEFAULT_RETRIES;
    for (let n = 0; n < maxRetries; n++) {
      const reason = retryReason(op, reply);
      if (!reason) break;
      const waitedMs = retryDelayMs(n, reply.exchange.reply?.headers?.['retry-after']);
      (exchange.retries ??= []).push({ ...(reply.status !== undefined ? { status: reply.status } : {}), ...(exchange.error ? { error: exchange.error } : {}), ...(exchange.reply?.text ? { text: exchange.reply.text.slice(0, 200) } : {}), reason, durationMs: exchange.durationMs, waitedMs });
      await sleep(waitedMs);
      reply = await attempt();
    }
    exchange.durationMs = Date.now() - started;
    options.record?.(exchange);
    this.noteOwnership(op, c, reply);
    return reply;
  }

  private nextSlot = 0;

  /** Client-side rate limit (CONFORMANCE_RATE_LIMIT requests per second per service): waits for the next free slot. */
  private async pace(): Promise<void> {
    const rate = this.options.ratePerSecond ?? rateLimitFromEnv();
    if (!rate) return;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / rate;
    if (slot > now) await sleep(slot - now);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retries per request at most (CONFORMANCE_RETRIES overrides; 0 disables). */
export const DEFAULT_RETRIES = Number(process.env.CONFORMANCE_RETRIES ?? 2);
/** First backoff step in ms; doubles per retry, with up to 25% jitter. */
export const RETRY_BASE_MS = 200;
/** Longest wait before a retry, also for a larger Retry-After. */
export const RETRY_MAX_WAIT_MS = 5000;

/** Connection errors where the request never reached the deployment (safe to re-send anything). */
const NOT_SENT = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)\b/;
/** Connection errors after the request may have been processed (outcome unknown). */
const OUTCOME_UNKNOWN = /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|UND_ERR_BODY_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)\b/;

/**
 * Whether a reply may be retried, and why. Retried: retryableError=true, HTTP 429/503 (not
 * processed), connection refused: any operation; HTTP 502/504 and resets (outcome unknown): only
 * read-only operations and postIdentity (re-posting the same source and native ID is an
 * update). Never retried: timeouts (the run stays bounded), and a mutating operation whose
 * outcome is unknown (a merge must not be re-sent blindly; the check reports the error).
 */
export function retryReason(op: OperationSpec, reply: Reply): string | undefined {
  const idempotent = !op.mutates || op.name === 'postIdentity';
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

/** Wait before retry `n` (0-based): Retry-After (seconds or HTTP date) when given, else exponential backoff; capped. */
export function retryDelayMs(n: number, retryAfter?: string): number {
  if (retryAfter !== undefined) {
    const secs = Number(retryAfter);
    const ms = Number.isFinite(secs) ? secs * 1000 : Date.parse(retryAfter) - Date.now();
    if (Number.isFinite(ms)) return Math.min(Math.max(0, ms), RETRY_MAX_WAIT_MS);
  }
  return Math.min(RETRY_BASE_MS * 2 ** n * (1 + Math.random() * 0.25), RETRY_MAX_WAIT_MS);
}

/** CONFORMANCE_RATE_LIMIT: requests per second per service (0 or unset = no limit), shared by the workers. */
export function rateLimitFromEnv(env: Record<string, string | undefined> = process.env): number | undefined {
  const raw = env.CONFORMANCE_RATE_LIMIT;
  if (!raw) return undefined;
  const rate = Number(raw);
  if (!Number.isFinite(rate) || rate < 0) return undefined;
  const workers = Math.max(1, Number(env.CONFORMANCE_RATE_LIMIT_WORKERS) || 1);
  return rate > 0 ? rate / workers : undefined;
}

/** True when the deployment rejected the request: HTTP 4xx, or a 2xx reply with success=false. */
export function isRejection(reply: Reply): boolean {
  if (reply.status === undefined) return false;
  if (reply.status >= 400 && reply.status < 500) return true;
  return reply.status >= 200 && reply.status < 300 && reply.success === false;
}

/** True when a lookup found nothing: rejected, or success with no link ID. */
export function isAbsent(reply: Reply): boolean {
  if (isRejection(reply)) return true;
  return reply.success === true && (reply.content?.linkId === undefined || reply.content?.linkId === null);
}
