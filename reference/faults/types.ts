/**
 * The shape of a fault and of what its hooks see (reference/faults/catalogue.ts lists the faults,
 * reference/faults/registry.ts applies them). Apart from both so the lists and the registry import the shapes without
 * importing each other.
 */
import type { ServiceName } from '../../specs/common/model.js';
import type { Handler, HandlerContext } from '../handlers/types.js';
import type { AuthVerdict, ReplyInfo } from '../hooks.js';

// The hook points are shared with variants (reference/hooks.ts), and so are what they see.
export type { AuthVerdict, ReplyInfo } from '../hooks.js';

/**
 * One fault: name (what REFERENCE_FAULTS lists), service, requirement (catalogue ID it violates), description, and how
 * it is applied: `handler` wraps the operation's handler, `reply` rewrites the reply envelope, `auth` changes the
 * credential verdict, `acceptInvalid` lets a request through that the schema would reject. `operations` limits it to
 * some operations.
 */
export interface FaultDefinition {
  name: string;
  service: ServiceName;
  requirement: string;
  description: string;
  operations?: string[];
  handler?: (next: Handler, ctx: HandlerContext, operation: string) => Record<string, unknown>;
  reply?: (info: ReplyInfo) => void;
  auth?: (verdict: AuthVerdict) => AuthVerdict;
  acceptInvalid?: (operation: string, content: Record<string, any>) => boolean;
}

/**
 * The requirement a fault of several services violates: a role (`envelope.reply`, `lifecycle.restoreEffect`;
 * specs/<service>/requirements.ts), looked up in each service's catalogue, or, where the services share no role for it,
 * the requirement ID per service.
 */
export type RequirementRef = string | Partial<Record<ServiceName, string>>;

/**
 * A fault written once for several services: each instance names its service, the requirement it violates there and
 * its name. Returns (service, requirement, name) => FaultDefinition.
 */
export const forServices =
  (fault: Omit<FaultDefinition, 'name' | 'service' | 'requirement'>) =>
  (service: ServiceName, requirement: string, name: string): FaultDefinition => ({
    name,
    service,
    requirement,
    ...fault,
  });
