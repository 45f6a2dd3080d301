/**
 * Data follows the state changes, for both provider types: restore shows the source's data again,
 * a hard delete takes the deleted source's values out of the survivor, unmerge moves the unmerged
 * source's values to its new identity, link brings the linked source's values in (shared table).
 * Source: person-provider-identity-api.md, States and transitions (provider rows).
 */
import { dataChecks } from '../shared/rules/data.js';
import { TYPES, area } from './provider.js';
import { providerWalks } from './walk-config.js';

const { check } = area('data');
for (const { kind, label, kit } of TYPES) dataChecks({ check, kit, label, walks: providerWalks, kind });
