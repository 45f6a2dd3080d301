/**
 * Boundary values of the organization's request members, derived from their types: identity
 * leaves, native IDs, trackingId, auditId and auditLogMap values, relationship dates and details,
 * search and page numbers (shared table).
 * Source: organization-identity-api.md, Endpoints (rule 2), What the service does, Errors, Resources.
 */
import { boundaryChecks } from '../shared/rules/boundaries.js';
import { area, org } from './org.js';

boundaryChecks({
  check: area('boundaries').check,
  kit: org,
});
