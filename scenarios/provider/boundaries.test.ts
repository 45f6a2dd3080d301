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
  verifies: [
    'PROV-POST-KEEPS-VALUES',
    'PROV-NATIVEID-QUERY',
    'PROV-ENV-ECHO',
    'PROV-REL-ADD',
    'PROV-SEARCH-MAX-RESULTS',
    'PROV-SEARCH-THRESHOLD',
    'PROV-NOTIF-PAGING',
  ],
  check,
  kit: practitioner,
  label: 'practitioner',
});
// The other type's identity leaves; native IDs, the envelope, relationships and numbers do not depend on the type.
boundaryChecks({
  verifies: ['PROV-POST-KEEPS-VALUES'],
  check,
  kit: healthFacility,
  label: 'health facility',
  roles: ['boundaries.stored'],
});
