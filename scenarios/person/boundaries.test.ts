/**
 * Boundary values of the person service's request members, derived from their types: identity
 * leaves, native IDs, trackingId, auditId and auditLogMap values, relationship dates and details,
 * search and page numbers (shared table).
 * Source: person-provider-identity-api.md, Endpoints (/v2/postIdentity, relationships), Resources.
 */
import { boundaryChecks } from '../shared/rules/boundaries.js';
import { area, person } from './person.js';

boundaryChecks({
  check: area('boundaries').check,
  kit: person,
});
