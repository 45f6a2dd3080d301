/**
 * Provider relationships (shared table): add, search, delete.
 * Source: person-provider-identity-api.md, Endpoints (provider relationship operations).
 */
import { relationshipChecks } from '../shared/rules/relationships.js';
import { area, practitioner } from './provider.js';

relationshipChecks({
  check: area('relationships').check,
  kit: practitioner,
});
