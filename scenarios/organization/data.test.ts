/**
 * Data follows the state changes: restore shows the source's data again, a hard delete takes the
 * deleted source's values out of the survivor, unmerge moves the unmerged source's values to its
 * new identity, link brings the linked source's values in (shared table).
 * Source: organization-identity-api.md, States and transitions.
 */
import { dataChecks } from '../shared/rules/data.js';
import { area, org } from './org.js';
import { organizationWalks } from './walk-config.js';

dataChecks({ check: area('data').check, kit: org, walks: organizationWalks });
