/**
 * The organization operations table: all 16 operations with path, request content schema and reply content schema.
 * Client, reference router, JSON Schema export and coverage read it.
 *
 * Source: organization-identity-api.md, Endpoints (table and rules 1-3). Rows come from the shared factory
 * (specs/common/operations.ts), on the organization identity.
 */
import type { OperationSpec } from '../common/model.js';
import { identityOperations } from '../common/operations.js';
import { IdentityPerSource } from '../common/resources.js';
import { OrganizationIdentity } from './identity.js';

export const organizationOperations: OperationSpec[] = identityOperations('organization', 'ORG', OrganizationIdentity);

export { IdentityPerSource };
