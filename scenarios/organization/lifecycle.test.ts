/**
 * Source lifecycle rows of the state table: soft delete, restore, hard delete; each checks the
 * reply members the seed names and the observable state afterwards (shared table).
 * Source: organization-identity-api.md, States and transitions.
 */
import { lifecycleChecks } from '../shared/rules/lifecycle.js';
import { area, org } from './org.js';
import { organizationWalks } from './walk-config.js';

lifecycleChecks({
  check: area('lifecycle').check,
  kit: org,
  walks: organizationWalks,
});
