/**
 * Relationships: add, search finds it (by subject, by object and verb), delete, search no
 * longer finds it; DATE-TIME members keep their wire form (shared table).
 * Source: organization-identity-api.md, What the service does; Endpoints; Resources (Relationship).
 */
import { relationshipChecks } from '../shared/rules/relationships.js';
import { area, org } from './org.js';

relationshipChecks({
  check: area('relationships').check,
  kit: org,
});
