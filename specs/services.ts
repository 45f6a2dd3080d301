/**
 * The services registry: one entry per identity service, each with its operations table and requirement catalogue.
 * Adding a service is a new entry here, not new client or router code.
 */
import { CATEGORIES, type Category } from './common/categories.js';
import type { Cite } from './common/clause.js';
import type { OperationSpec, Requirement, ServiceName } from './common/model.js';
import type { OperationName, PersonOperation, SharedOperation } from './common/operation-names.js';
import type { SharedReplyContent } from './common/operations.js';
import type { StateTable } from './state/states.js';
import { type StateSpec, stateTableOf } from './state/state-spec.js';
import { organizationOperations } from './organization/operations.js';
import { organizationRequirements } from './organization/requirements.js';
import { organizationStateSpec } from './organization/state-spec.js';
import { type PersonReplyContent, personOperations } from './person/operations.js';
import { personRequirements } from './person/requirements.js';
import { personStateSpec } from './person/state-spec.js';
import { providerOperations } from './provider/operations.js';
import { providerRequirements } from './provider/requirements.js';
import { providerStateSpec } from './provider/state-spec.js';

/**
 * The reply content of an operation, as the operations tables' reply schemas give it for any service that has it (the
 * organization and provider rows, and the person row): documented members optional and nullable where the contract
 * reads them so, extra members allowed. A reply's content has been checked against its service's schema only when the
 * reply said success=true (harness/check.ts `call`, `ok`).
 */
export type ReplyContent<O extends OperationName> =
  | (O extends SharedOperation ? SharedReplyContent[O] : never)
  | (O extends PersonOperation ? PersonReplyContent[O] : never);

export interface ServiceSpec {
  name: ServiceName;
  /** Settings prefix: ORG, PERSON, PROVIDER. */
  envPrefix: string;
  /** Seed document the catalogue cites. */
  seed: string;
  /** Documented service path appended to the base URL. */
  servicePath: string;
  /** Authentication schemes the seed shows for this service, first = default. */
  authSchemes: Array<'bearer' | 'basic'>;
  /** Requirement ID prefix (ORG, PERSON, PROV). */
  idPrefix: string;
  operations: OperationSpec[];
  requirements: Requirement[];
  /** The state table as an executable specification (specs/<service>/state-spec.ts). */
  stateSpec: StateSpec;
  /** The seed's state table of source records (states and each operation's transition), drawn from stateSpec. */
  states: StateTable;
}

export const SERVICES: Record<ServiceName, ServiceSpec> = {
  organization: {
    name: 'organization',
    envPrefix: 'ORG',
    seed: 'organization-identity-api.md',
    servicePath: '/provider-link-ws/svc',
    authSchemes: ['bearer'],
    idPrefix: 'ORG',
    operations: organizationOperations,
    requirements: organizationRequirements,
    stateSpec: organizationStateSpec,
    states: stateTableOf(organizationStateSpec),
  },
  person: {
    name: 'person',
    envPrefix: 'PERSON',
    seed: 'person-provider-identity-api.md',
    servicePath: '/link-ws/svc',
    authSchemes: ['bearer', 'basic'],
    idPrefix: 'PERSON',
    operations: personOperations,
    requirements: personRequirements,
    stateSpec: personStateSpec,
    states: stateTableOf(personStateSpec),
  },
  provider: {
    name: 'provider',
    envPrefix: 'PROVIDER',
    seed: 'person-provider-identity-api.md',
    servicePath: '/provider-link-ws/svc',
    authSchemes: ['basic'],
    idPrefix: 'PROV',
    operations: providerOperations,
    requirements: providerRequirements,
    stateSpec: providerStateSpec,
    states: stateTableOf(providerStateSpec),
  },
} as Record<ServiceName, ServiceSpec>;

export const serviceNames = () => Object.keys(SERVICES) as ServiceName[];

export function operation(service: ServiceName, name: string): OperationSpec {
  const op = SERVICES[service]?.operations.find((o) => o.name === name);
  if (!op) throw new Error(`Unknown operation ${service}.${name}`);
  return op;
}

const roleIndex = new Map<ServiceName, Map<string, string>>();

/** The ID of the requirement that plays `role` in a service, or undefined when none does. */
export function requirementFor(service: ServiceName, role: string): string | undefined {
  let index = roleIndex.get(service);
  if (!index)
    roleIndex.set(
      service,
      (index = new Map(SERVICES[service].requirements.flatMap((r) => (r.roles ?? []).map((x) => [x, r.id] as const)))),
    );
  return index.get(role);
}

/** Every requirement of every registered service, keyed by ID. */
export function requirementIndex(): Map<string, Requirement> {
  const index = new Map<string, Requirement>();
  for (const s of Object.values(SERVICES)) for (const r of s.requirements) index.set(r.id, r);
  return index;
}

let cachedIndex: Map<string, Requirement> | undefined;

/**
 * What a clause citing requirement `id` cites: the requirement and the first sentence of the catalogue that forbids
 * what its checks reject (none for an EXPECT requirement).
 * @throws Error for an ID the catalogue does not hold
 */
export function citeOf(id: string): Cite {
  cachedIndex ??= requirementIndex();
  const r = cachedIndex.get(id);
  if (!r) throw new Error(`no requirement ${id} in the catalogue`);
  return r.forbids?.[0] ? { requirement: id, forbids: r.forbids[0] } : { requirement: id };
}

/**
 * The categories requirement `id` implies (specs/common/categories.ts): those of the roles it plays in the shared rules
 * and those written for its ID.
 */
export function categoriesOf(id: string): readonly Category[] {
  cachedIndex ??= requirementIndex();
  const r = cachedIndex.get(id);
  const byRole = (r?.roles ?? []).flatMap((role) => CATEGORIES[role] ?? []);
  const all = [...byRole, ...(CATEGORIES[id] ?? [])];
  return all.filter((c, i) => all.findIndex((x) => x.id === c.id) === i);
}
