/**
 * The service client: builds the request envelope (unique trackingId and auditId per request, customerId for the person
 * service), authenticates, asks the guard before anything mutating leaves, writes the ledger before anything is
 * created, sends through the transport and learns what the run owns from the reply. Scenarios never use it directly:
 * they call operations through their check (harness/check.ts) and read replies with harness/reply.ts.
 *
 * Errors: GuardRefusal (harness/guard.ts) when a mutating request names something the run does not own (nothing is
 * sent). Transport problems come back as a Reply, never thrown.
 */
import { randomUUID } from 'node:crypto';
import type { OperationSpec } from '../specs/common/model.js';
import type { SourceRef } from '../specs/common/wire.js';
import { operation, serviceNames } from '../specs/services.js';
import { DEFAULT_RETRY_BUDGET_MS, type ServiceTarget } from './config.js';
import { Guard, type GuardMoment } from './guard.js';
import { ServicePacing } from './pacing.js';
import type { Profile } from './profile.js';
import type { OperationName } from '../specs/common/operation-names.js';
import { registerOwn } from './foreign-values.js';
import { type Ownership, redactForeign, registerForeignIn } from './redact-foreign.js';
import { redactJson, redactText, registerSecret } from './redact.js';
import { type Reply, isTransient } from './reply.js';
import { vendorForm } from './vendor-forms.js';
import type { RunContext } from './run.js';
import { TokenError, TokenSource } from './oauth.js';
import { type Outgoing, notSent } from './outgoing.js';
import { type SharedBound, Transport } from './transport.js';

export type { Exchange, Reply } from './reply.js';
export { GuardRefusal } from './guard.js';

export type AuthMode = 'default' | 'none' | 'malformed' | { header: string };

export interface CallOptions {
  /** The ledger's own removal (harness/cleanup.ts): it marks its outcome itself, so the client marks nothing. */
  removal?: boolean;
  /** Authentication to send: the target's (default), none, a malformed token, or a literal header. */
  auth?: AuthMode;
  /** Send this exact body instead of a JSON envelope (malformed-JSON checks). */
  rawBody?: string;
  /** Extra envelope members (e.g. override auditId). */
  envelope?: Record<string, unknown>;
  /** Most retries for this request instead of the run's (the cleanup's passes); throttled attempts are not counted. */
  retries?: number;
  /** Most retries of a reply marked retryableError=true (a request wrong on purpose: the flag may be the answer). */
  flaggedRetries?: number;
  /**
   * Safe to send again when a connection fails with the outcome unknown, whatever the operation (the teardown removing
   * the run's own record: a second removal is rejected, not harmful).
   */
  resendable?: boolean;
  /** Place in the service's queue for a place in flight (harness/transport.ts Outgoing.priority). */
  priority?: number;
  /**
   * Latest time (ms since the epoch) an attempt of this request may begin: retries stop there (harness/check.ts
   * Check.sendBy), whatever is left of the retry budget.
   */
  until?: number;
  /**
   * Aborted when the run is interrupted: the request is not sent, or its attempt ends (harness/transport.ts
   * Outgoing.signal).
   */
  signal?: AbortSignal;
  /** Called with every exchange (the check's recorder). */
  record?: (exchange: import('./reply.js').Exchange) => void;
  /**
   * The scenario file of the check sending the request: ledger entries of what it creates carry it
   * (run/vitest/early-removal.ts).
   */
  file?: string;
}

/** How a client sends: timeouts, bounds, retries and rate (settings, resolved per worker). */
export interface ClientOptions {
  timeoutMs: number;
  /** Most requests in flight to the service: the ceiling of its adaptive bound (harness/pacing.ts). */
  maxInFlight: number;
  /** The run's bound on this service's requests in flight, shared by its workers (harness/shared-limit.ts). */
  sharedLimit?: SharedBound;
  /** The run's pacing state, shared by its threads (harness/pacing.ts sharedPacing); default: the client's own. */
  pacing?: SharedArrayBuffer;
  /** Longest a request is retried for, ms (CONFORMANCE_RETRY_BUDGET_MS; default DEFAULT_RETRY_BUDGET_MS). */
  retryBudgetMs?: number;
  /** Most retries of a request besides the budget (CONFORMANCE_RETRIES); undefined: the budget alone. */
  retries?: number;
  ratePerSecond?: number;
  /**
   * Per service, the memory its OAuth2 token is shared through by the run's threads (harness/oauth.ts sharedTokenCell).
   */
  tokenCells?: Partial<Record<string, SharedArrayBuffer>>;
}

export class ServiceClient {
  private readonly transport: Transport;
  readonly guard: Guard;
  /** Where the bearer token comes from when the service's is an OAuth2 client's (harness/oauth.ts). */
  readonly tokens?: TokenSource;

  constructor(
    readonly target: ServiceTarget,
    readonly profile: Profile,
    readonly run: RunContext,
    readonly options: ClientOptions,
  ) {
    const { pacing: shared, tokenCells, ...rest } = options;
    const slot = serviceNames().indexOf(target.service);
    this.transport = new Transport({
      ...rest,
      retryBudgetMs: options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS,
      ...(shared
        ? { pacing: new ServicePacing(shared, slot, options.maxInFlight, options.ratePerSecond || undefined) }
        : {}),
      tls: target.tls,
      ...(target.proxy && !target.embedded ? { proxy: target.proxy } : {}),
    });
    this.guard = new Guard(target, profile, run, (a) => run.recordOwned(a));
    if (target.auth.scheme === 'bearer' && target.auth.oauth)
      this.tokens = new TokenSource(
        target.auth.oauth,
        { timeoutMs: options.timeoutMs, dispatcher: this.transport.dispatcher },
        tokenCells?.[target.service],
      );
    if (target.auth.scheme === 'bearer') registerSecret(target.auth.token);
    else {
      registerSecret(target.auth.password);
      registerSecret(`${target.auth.username}:${target.auth.password}`);
    }
    // A proxy's user and password (in its URL) are secrets too.
    for (const p of [target.proxy?.https, target.proxy?.http]) {
      const u = p ? new URL(p.url) : undefined;
      if (u?.password) {
        registerSecret(decodeURIComponent(u.password));
        registerSecret(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`);
      }
    }
  }

  url(op: OperationSpec): string {
    return `${this.target.baseUrl}${this.target.servicePath}${op.path}`;
  }

  /**
   * The Authorization header value for an auth mode, or undefined for none; an OAuth2 client's token is the run's
   * current one (fetched when there is none or it is about to expire).
   * @throws TokenError when the token endpoint refuses or cannot be reached
   */
  async authorization(mode: AuthMode = 'default'): Promise<string | undefined> {
    if (mode === 'none') return undefined;
    if (mode === 'malformed')
      return this.target.auth.scheme === 'bearer' ? 'Bearer not-a-jwt' : 'Basic %%%not-base64%%%';
    if (typeof mode === 'object') return mode.header;
    const a = this.target.auth;
    if (a.scheme === 'basic') return `Basic ${Buffer.from(`${a.username}:${a.password}`).toString('base64')}`;
    return `Bearer ${a.oauth ? await this.tokens!.token() : a.token}`;
  }

  ownsSource(source: Partial<SourceRef> | undefined | null): boolean {
    return this.guard.ownsSource(source);
  }

  /**
   * What the run owned on this service at a moment of its guard, for redaction by ownership
   * (harness/redact-foreign.ts).
   */
  private ownershipAsOf(asOf: GuardMoment): Ownership {
    const g = this.guard;
    return {
      ownsSource: (s) => g.ownsSource(s as Partial<SourceRef>, asOf),
      ownsLinkId: (l) => g.ownsLinkId(l, asOf),
      ownsNativeId: (id) => this.run.ownsNativeId(id),
      ownsRelationship: (id) => g.ownsRelationship(id, asOf),
      relationshipMembers: { subject: g.names.relationshipSubjectMember, object: g.names.relationshipObjectMember },
    };
  }

  /** Sends one operation. Never throws for transport problems; see Reply. @throws GuardRefusal */
  async call<O extends OperationName>(name: O, content: unknown, options: CallOptions = {}): Promise<Reply<O>> {
    const op = operation(this.target.service, name);
    const c = (content ?? {}) as Record<string, unknown>;
    this.guard.check(op, c);
    this.recordCreations(op, c, options.file);
    // The vendor's form where the profile asks for it (harness/vendor-forms.ts): the wire changes, the check's content
    // not.
    const sent = vendorForm(op.service, op.name, content, this.profile, () => ({
      name: this.target.sources[0] ?? '',
      id: this.run.newNativeId(),
    }));
    // Whatever the run sends is its own: a foreign value inside it is never masked there (harness/foreign-values.ts).
    registerOwn(sent);
    const envelope: Record<string, unknown> = {
      auditId: `cf-audit-${randomUUID()}`,
      trackingId: `cf-track-${randomUUID()}`,
      auditLogMap: { suite: 'identity-conformance', runId: this.run.runId },
      ...(this.target.customerId ? { customerId: this.target.customerId } : {}),
      content: sent,
      ...options.envelope,
    };
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    const body = options.rawBody ?? JSON.stringify(envelope);
    const outgoing = (authorization: string | undefined): Outgoing => ({
      service: op.service,
      operation: op.name,
      url: this.url(op),
      headers: authorization ? { ...headers, authorization } : headers,
      body,
      // Made from the text sent, when first read: what the caller does with its content afterwards cannot change it.
      shownBody: () => (options.rawBody !== undefined ? redactText(options.rawBody) : redactJson(JSON.parse(body))),
      idempotent: !op.mutates || op.idempotent === true || options.resendable === true,
      ...(options.retries !== undefined ? { retries: options.retries } : {}),
      ...(options.flaggedRetries !== undefined ? { flaggedRetries: options.flaggedRetries } : {}),
      ...(options.until !== undefined ? { until: options.until } : {}),
      ...(options.priority !== undefined ? { priority: options.priority } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      // The guard learns what a successful reply makes the run's (a link ID, a relationship) before the reply is
      // redacted by ownership, so the run's own identity is never taken for foreign. What is foreign is registered now,
      // so that no text can quote it from here on; the redacted copy is made when the exchange is first read, judged by
      // what the run owned now.
      keep: (parsed) => {
        const body = parsed as Record<string, any> | null;
        if (body && typeof body === 'object' && !Array.isArray(body) && body.success === true)
          this.guard.learn(op, c, body.content ?? {});
        const own = this.ownershipAsOf(this.guard.now);
        // Registered before secrets are masked: a secret inside foreign content is then masked as foreign too, and the
        // secret scan costs only the rare exchange that is read in full.
        registerForeignIn(parsed, own);
        return () => redactForeign(redactJson(parsed), own);
      },
    });
    let reply: Reply;
    try {
      const authorization = await this.authorization(options.auth);
      reply = await this.transport.send(outgoing(authorization));
      // An OAuth2 token the service refuses is fetched anew, once, and the request sent again.
      const used = authorization?.slice('Bearer '.length);
      if (reply.status === 401 && this.tokens && (options.auth ?? 'default') === 'default' && used)
        reply = await this.transport.send(outgoing(`Bearer ${await this.tokens.renew(used)}`));
    } catch (e) {
      if (!(e instanceof TokenError)) throw e;
      reply = notSent(outgoing(undefined), `token: ${redactText(e.message)}; not sent`);
    }
    options.record?.(reply.exchange);
    if (reply.success === true && op.relationshipCreated) {
      const id = op.relationshipCreated(reply.content ?? {});
      if (typeof id === 'string')
        this.run.record({
          kind: 'relationship',
          service: op.service,
          id,
          at: new Date().toISOString(),
          ...(options.file ? { file: options.file } : {}),
        });
    }
    if (!options.removal && reply.success === true && !isTransient(reply)) this.recordRemovals(op, c);
    // The transport carries any operation's reply; this one is the reply of `name`.
    return reply as Reply<O>;
  }

  /** Ledger entries for what the request may create, written before it leaves. */
  private recordCreations(op: OperationSpec, c: Record<string, unknown>, file: string | undefined): void {
    const at = new Date().toISOString();
    const of = file ? { file } : {};
    for (const source of op.sourcesCreated?.(c, this.guard.names) ?? [])
      if (source) this.run.record({ kind: 'source', service: op.service, source: source as SourceRef, at, ...of });
    for (const name of op.namesCreated?.(c) ?? [])
      this.run.record({ kind: 'dataSource', service: op.service, name: String(name), at, ...of });
  }

  /**
   * Ledger entries for what an accepted request removed for good (a hard delete, a relationship delete): the run's
   * removal at the end skips them, as it skips what it removed itself. A later post of the same source makes it the
   * run's to remove again (harness/cleanup.ts removedOutcomes).
   */
  private recordRemovals(op: OperationSpec, c: Record<string, unknown>): void {
    const at = new Date().toISOString();
    for (const source of op.sourcesRemoved?.(c, this.guard.names) ?? [])
      if (source?.name !== undefined && source.id !== undefined)
        this.run.record({ kind: 'removed', service: op.service, source: source as SourceRef, outcome: 'deleted', at });
    for (const id of op.relationshipsRemoved?.(c) ?? [])
      if (typeof id === 'string') this.run.record({ kind: 'removed', service: op.service, id, outcome: 'deleted', at });
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
