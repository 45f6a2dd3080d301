/**
 * The fault registry of the reference deployment: a set of named faults (see catalogue.ts),
 * switched on by `REFERENCE_FAULTS=a,b` or the `faults` option of startReference, and the few
 * hook points the server calls. Each hook is a no-op when no active fault defines it, so the
 * clean reference behaves exactly as before.
 *
 * Hook points (reference/server.ts): auth verdict, request-schema acceptance, handler wrapping,
 * reply-envelope rewriting.
 */
import type { ServiceName } from '../../specs/common/model.js';
import type { Handler, HandlerContext } from '../handlers/types.js';
import { FAULTS } from './catalogue.js';
import type { AuthVerdict, FaultDefinition, ReplyInfo } from './types.js';

export type { AuthVerdict, ReplyInfo } from './types.js';

export class UnknownFault extends Error {
  constructor(readonly names: string[]) {
    super(`unknown reference fault(s): ${names.join(', ')} (known: see reference/faults/catalogue.ts or npm run detection -- --list)`);
    this.name = 'UnknownFault';
  }
}

/** Parses a comma list of fault names (REFERENCE_FAULTS). */
export const parseFaultList = (raw: string | undefined) => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export class FaultSet {
  readonly active: FaultDefinition[];

  /** @throws UnknownFault when a name is not in the catalogue. */
  constructor(names: Iterable<string> = []) {
    const wanted = [...new Set(names)];
    const unknown = wanted.filter((n) => !FAULTS.has(n));
    if (unknown.length) throw new UnknownFault(unknown);
    this.active = wanted.map((n) => FAULTS.get(n)!);
  }

  /** True when the named fault is switched on. */
  has(name: string): boolean {
    return this.active.some((f) => f.name === name);
  }

  get names(): string[] {
    return this.active.map((f) => f.name);
  }

  private applying(service: ServiceName, operation?: string) {
    return this.active.filter((f) => f.service === service && (!operation || !f.operations || f.operations.includes(operation)));
  }

  /** The authentication verdict after faults (e.g. "no credentials accepted"). */
  auth(service: ServiceName, verdict: AuthVerdict): AuthVerdict {
    return this.applying(service).reduce((v, f) => (f.auth ? f.auth(v) : v), verdict);
  }

  /** True when a fault makes the reference accept a request its schema rejects. */
  acceptsInvalid(service: ServiceName, operation: string, content: Record<string, any>): boolean {
    return this.applying(service, operation).some((f) => f.acceptInvalid?.(operation, content));
  }

  /** The handler wrapped by every active fault of this service and operation. */
  wrap(service: ServiceName, operation: string, handler: Handler | undefined): Handler | undefined {
    if (!handler) return handler;
    return this.applying(service, operation).reduce<Handler>((next, f) => (f.handler ? (ctx: HandlerContext) => f.handler!(next, ctx, operation) : next), handler);
  }

  /** Rewrites the reply envelope in place. */
  reply(info: ReplyInfo): ReplyInfo {
    for (const f of this.applying(info.service, info.operation)) f.reply?.(info);
    return info;
  }
}
