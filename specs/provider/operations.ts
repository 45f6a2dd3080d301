/**
 * The provider operations table: the same 16 operations as the organization service (same paths and members), built by
 * the shared factory on the provider identity.
 *
 * Source: person-provider-identity-api.md, Endpoints, "Provider service" (paths, no /v2 segment; request and reply
 * members "not shown", so the factory's members, which the vendor description also uses, are taken); Versioning.
 */
import type { OperationSpec } from '../common/model.js';
import { identityOperations } from '../common/operations.js';
import { ProviderIdentity } from './identity.js';

export const providerOperations: OperationSpec[] = identityOperations('provider', 'PROV', ProviderIdentity);
