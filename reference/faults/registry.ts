/**
 * The fault registry of the reference deployment: a set of named faults (see catalogue.ts), switched on by
 * `REFERENCE_FAULTS=a,b` or the `faults` option of startReference. A fault is a hook of reference/hooks.ts acting on
 * its own service (the hook points variants use too); each point is a no-op when no active fault defines it, so the
 * clean reference behaves exactly as before.
 */
import type { ServiceName } from '../../specs/common/model.js';
import type { Handler } from '../handlers/types.js';
import { type AuthVerdict, HookSet } from '../hooks.js';
import { FAULTS } from './catalogue.js';
import type { FaultDefinition } from './types.js';

export type { AuthVerdict, ReplyInfo } from '../hooks.js';

export class UnknownFault extends Error {
  constructor(readonly names: string[]) {
    super(
      `unknown reference fault(s): ${names.join(', ')} (known: see reference/faults/catalogue.ts or npm run ` +
        `detection -- --list)`,
    );
    this.name = 'UnknownFault';
  }
}

/** Parses a comma list of fault names (REFERENCE_FAULTS). */
export const parseFaultList = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export class FaultSet {
  readonly active: FaultDefinition[];
  /** The active faults as hooks (each acting on its own service). */
  readonly hooks: HookSet;

  /** @throws UnknownFault when a name is not in the catalogue. */
  constructor(names: Iterable<string> = []) {
    const wanted = [...new Set(names)];
    const unknown = wanted.filter((n) => !FAULTS.has(n));
    if (unknown.length) throw new UnknownFault(unknown);
    this.active = wanted.map((n) => FAULTS.get(n)!);
    this.hooks = new HookSet(this.active);
  }

  /** True when the named fault is switched on. */
  has(name: string): boolean {
    return this.active.some((f) => f.name === name);
  }

  get names(): string[] {
    return this.active.map((f) => f.name);
  }

  /** The authentication verdict after faults (e.g. "no credentials accepted"). */
  auth(service: ServiceName, verdict: AuthVerdict): AuthVerdict {
    return this.hooks.auth(service, verdict);
  }

  /** True when a fault makes the reference accept a request its schema rejects. */
  acceptsInvalid(service: ServiceName, operation: string, content: Record<string, any>): boolean {
    return this.hooks.acceptsInvalid(service, operation, content);
  }

  /** The handler wrapped by every active fault of this service and operation. */
  wrap(service: ServiceName, operation: string, handler: Handler | undefined): Handler | undefined {
    return this.hooks.wrap(service, operation, handler);
  }

  /** Rewrites the reply envelope in place. */
  reply(info: Parameters<HookSet['reply']>[0]): ReturnType<HookSet['reply']> {
    return this.hooks.reply(info);
  }
}
