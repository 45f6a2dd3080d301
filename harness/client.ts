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
import { redactHeaders, redactJson, redactText, registerSecret } from './redact.js';
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
    readonly options: { timeoutMs: number; maxInFlight: number },
  ) {
    const tls = target.tls;
    this.agent = new Agent({
      connections: options.maxInFlight,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
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
    const reply = await this.limit(async (): Promise<Reply> => {
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
          ...(parsed !== undefined ? { body: redactJson(parsed) } : { text: redactText(truncate(text)) }),
        };
        const b = isObject ? (parsed as Record<string, unknown>) : undefined;
        return { exchange, status: res.statusCode, body: b, content: b?.content, success: typeof b?.success === 'boolean' ? (b.success as boolean) : undefined };
      } catch (e) {
        const err = e as Error & { code?: string };
        exchange.error = err.name === 'TimeoutError' || err.name === 'AbortError' ? `no reply within ${this.options.timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)` : `${err.code ?? err.name}: ${err.message}`;
        return { exchange, status: undefined, body: undefined, content: undefined, success: undefined };
      } finally {
        exchange.durationMs = Date.now() - started;
      }
    });
    options.record?.(exchange);
    this.noteOwnership(op, c, reply);
    return reply;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
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
