/**
 * Boundary values of the provider service's request members, derived from their types: identity
 * leaves of each provider type, native IDs, trackingId, auditId and auditLogMap values,
 * relationship dates and details, search and page numbers (shared table).
 * Source: person-provider-identity-api.md, Endpoints ("Provider service"), Resources.
 */
import { boundaryChecks } from '../shared/rules/boundaries.js';
import { area, healthFacility, practitioner } from './provider.js';

const { check } = area('boundaries');
boundaryChecks({
  check,
  kit: practitioner,
  label: 'practitioner',
});
// The other type's identity leaves; native IDs, the envelope, relationships and numbers do not depend on the type.
boundaryChecks({
  check,
  kit: healthFacility,
  label: 'health facility',
  roles: ['boundaries.stored'],
});
