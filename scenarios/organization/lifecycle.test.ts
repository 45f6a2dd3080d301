/**
 * Source lifecycle rows of the state table: soft delete, restore, hard delete; each checks the
 * reply members the seed names and the observable state afterwards (shared table).
 * Source: organization-identity-api.md, States and transitions.
 */
import { lifecycleChecks } from '../shared/rules/lifecycle.js';
import { area, org } from './org.js';
import { organizationWalks } from './walk-config.js';

lifecycleChecks({
  verifies: [
    'ORG-HARDDELETE-EFFECT',
    'ORG-HARDDELETE-REPLY',
    'ORG-RESTORE-EFFECT',
    'ORG-RESTORE-REPLY',
    'ORG-SOFTDELETE-EFFECT',
    'ORG-SOFTDELETE-REPLY',
  ],
  check: area('lifecycle').check,
  kit: org,
  walks: organizationWalks,
});
