/**
 * The hook points of the reference deployment, shared by faults (reference/faults: defects the suite must catch) and
 * variants (reference/variants: legitimate choices the seeds leave open, the suite must pass). A hook is a plain object
 * naming the service and operations it acts on and the functions it supplies; `HookSet` chains every active hook at
 * each point. With no hook active each point is the identity, so the plain reference behaves exactly as without hooks.
 *
 * Hook points (reference/server.ts calls them in this order for one request):
 * - `intercept(info)`: before anything else (transient failures); true when the hook answered.
 * - `auth(verdict, info)`: the credential verdict.
 * - `validate(info)`: the request-schema issues to reject with (`[]`: accept).
 * - `acceptInvalid(operation, content)`: let through a request whose issues are not empty (faults).
 * - `handler(next, ctx, operation)`: wraps the operation's handler.
 * - `reply(info)`: rewrites the reply envelope and HTTP status in place.
 * - `setupStore(store)`: once per service store at start (link-ID format, clock).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceName } from '../specs/common/model.js';
import type { Handler, HandlerContext } from './handlers/types.js';
import type { ServiceStore } from './store.js';

export type AuthVerdict = 'ok' | 'missing' | 'invalid';

/** What a reply hook sees and may change (the envelope body is mutated in place, `status` may be set). */
export interface ReplyInfo {
  service: ServiceName;
  operation: string;
  status: number;
  body: Record<string, any>;
  request: Record<string, any>;
}

/** What a validation hook sees: the parsed envelope and content, and the issues found so far. */
export interface ValidationInfo {
  service: ServiceName;
  operation: string;
  envelope: Record<string, any>;
  content: unknown;
  /** Issues of the operation's request schema (`content.<path>: <message>`), or of earlier hooks. */
  issues: string[];
}

/** What an intercept hook sees: the raw exchange, before the body is read. */
export interface InterceptInfo {
  service: ServiceName;
  operation: string;
  req: IncomingMessage;
  res: ServerResponse;
}

export interface ReferenceHook {
  /** Service the hook acts on; absent: every service. */
  service?: ServiceName;
  /** Operations the hook acts on; absent: every operation of its service(s). */
  operations?: string[];
  intercept?: (info: InterceptInfo) => boolean | Promise<boolean>;
  auth?: (verdict: AuthVerdict, info: { service: ServiceName; header: string | undefined }) => AuthVerdict;
  validate?: (info: ValidationInfo) => string[];
  acceptInvalid?: (operation: string, content: Record<string, any>) => boolean;
  handler?: (next: Handler, ctx: HandlerContext, operation: string) => Record<string, unknown>;
  reply?: (info: ReplyInfo) => void;
  setupStore?: (store: ServiceStore) => void;
}

/** Every active hook, chained per hook point, in the order given (earlier hooks wrap innermost). */
export class HookSet {
  constructor(readonly hooks: ReferenceHook[] = []) {}

  private applying(service: ServiceName, operation?: string): ReferenceHook[] {
    return this.hooks.filter(
      (h) =>
        (h.service === undefined || h.service === service) &&
        (!operation || !h.operations || h.operations.includes(operation)),
    );
  }

  /** True when a hook answered the request itself (nothing else must be done with it). */
  async intercept(info: InterceptInfo): Promise<boolean> {
    for (const h of this.applying(info.service, info.operation))
      if (h.intercept && (await h.intercept(info))) return true;
    return false;
  }

  /** The authentication verdict after every hook (of the operation, when hooks name operations). */
  auth(service: ServiceName, verdict: AuthVerdict, header?: string, operation?: string): AuthVerdict {
    return this.applying(service, operation).reduce((v, h) => (h.auth ? h.auth(v, { service, header }) : v), verdict);
  }

  /** The issues to reject a request with after every validation hook (`[]`: accept). */
  validate(info: ValidationInfo): string[] {
    return this.applying(info.service, info.operation).reduce(
      (issues, h) => (h.validate ? h.validate({ ...info, issues }) : issues),
      info.issues,
    );
  }

  /** True when a hook lets through a request the schema rejects. */
  acceptsInvalid(service: ServiceName, operation: string, content: Record<string, any>): boolean {
    return this.applying(service, operation).some((h) => h.acceptInvalid?.(operation, content));
  }

  /** The handler wrapped by every hook of this service and operation. */
  wrap(service: ServiceName, operation: string, handler: Handler | undefined): Handler | undefined {
    if (!handler) return handler;
    return this.applying(service, operation).reduce<Handler>(
      (next, h) => (h.handler ? (ctx: HandlerContext) => h.handler!(next, ctx, operation) : next),
      handler,
    );
  }

  /** Rewrites the reply envelope (and status) in place. */
  reply(info: ReplyInfo): ReplyInfo {
    for (const h of this.applying(info.service, info.operation)) h.reply?.(info);
    return info;
  }

  /** Lets every hook of the store's service configure it. */
  setupStore(store: ServiceStore): void {
    for (const h of this.applying(store.service)) h.setupStore?.(store);
  }
}
