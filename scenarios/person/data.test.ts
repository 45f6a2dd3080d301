/**
 * Data follows the state changes: a deleted record's values leave the identity it was linked into,
 * unmerge moves the unmerged record's values to its new link ID, link brings the linked record's
 * values in (shared table).
 * Source: person-provider-identity-api.md, States and transitions (person rows).
 */
import { dataChecks } from '../shared/rules/data.js';
import { area, person } from './person.js';
import { personWalks } from './walk-config.js';

dataChecks({ check: area('data').check, kit: person, walks: personWalks });
