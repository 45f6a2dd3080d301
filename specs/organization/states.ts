/**
 * The state table of organization source records, as data.
 * Source: organization-identity-api.md, "States and transitions" (states: active, soft-deleted,
 * retired (merged), deleted; one row per operation). Preconditions on prior states and any further
 * states are "not shown" there, so only the table's rows are drawn.
 */
import type { StateTable } from '../common/states.js';

export const organizationStates: StateTable = {
  service: 'organization',
  source: 'organization-identity-api.md, States and transitions',
  states: ['active', 'soft-deleted', 'retired (merged)', 'deleted'],
  transitions: [
    {
      operation: 'softDeleteSource',
      from: ['active'],
      to: 'soft-deleted',
      note: 'source named in sourceToSoftDelete; data history is preserved',
    },
    { operation: 'restoreSource', from: ['soft-deleted'], to: 'active' },
    { operation: 'deleteSourceIdentity', from: 'any', to: 'deleted', note: 'all information of the source is removed' },
    { operation: 'mergeIdentities', from: ['active'], to: 'retired (merged)', note: 'toRetireSource is retired into toSurviveSource' },
    { operation: 'unmergeIdentities', from: ['retired (merged)'], to: 'active', note: 'active in a new identity' },
    { operation: 'linkIdentities', from: ['active'], to: 'active', note: 'source linked into the identity of linkToSource' },
    { operation: 'unlinkIdentities', from: ['active'], to: 'active', note: 'active in a separate identity' },
  ],
};
