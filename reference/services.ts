/**
 * What the reference needs per service beyond the operations table: its matcher and any handlers of its own. Adding a
 * service is an entry here.
 */
import type { ServiceName } from '../specs/common/model.js';
import type { OperationName } from '../specs/common/operation-names.js';
import { sharedHandlers } from './handlers/identity.js';
import type { Handler, Matcher } from './handlers/types.js';
import { personHandlers } from './handlers/person.js';
import { scoreOrganization } from './matching/organization.js';
import { scorePerson } from './matching/person.js';
import { providerKind, scoreProvider } from './matching/provider.js';

export interface ReferenceService {
  matcher: Matcher;
  /** A handler per operation of the service's table (reference/server.ts routes by operation name). */
  handlers: Partial<Record<OperationName, Handler>>;
}

export const REFERENCE_SERVICES: Partial<Record<ServiceName, ReferenceService>> = {
  organization: {
    matcher: { score: scoreOrganization, threshold: 0.9, uncertain: 0.75, floor: 0.5 },
    handlers: sharedHandlers,
  },
  // floor 0: a person search without matchScoreThreshold does no score filtering (seed, request options).
  person: {
    matcher: { score: scorePerson, threshold: 0.9, uncertain: 0.75, floor: 0 },
    handlers: personHandlers,
  },
  provider: {
    matcher: { score: scoreProvider, threshold: 0.9, uncertain: 0.75, floor: 0.5, kind: providerKind },
    handlers: sharedHandlers,
  },
};
