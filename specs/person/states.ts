/**
 * The state table of person source records, as data.
 * Source: person-provider-identity-api.md, "States and transitions" (person rows; states: active,
 * deactivated, merged (retired), deleted).
 */
import type { StateTable } from '../common/states.js';

export const personStates: StateTable = {
  service: 'person',
  source: 'person-provider-identity-api.md, States and transitions',
  states: ['active', 'deactivated', 'merged', 'deleted'],
  transitions: [
    {
      operation: 'deactivateSourceWs',
      from: ['active'],
      to: 'deactivated',
      note: 'excluded from future matching, still visible in replies',
    },
    { operation: 'reactivateSourceWs', from: ['deactivated'], to: 'active', note: 'returns to its original link ID' },
    { operation: 'deleteSourceIdentity', from: 'any', to: 'deleted', note: 'physical deletion' },
    {
      operation: 'mergeIdentities',
      from: ['active'],
      to: 'merged',
      note: 'the toRetire record becomes merged and inactive; both share one link ID',
    },
    { operation: 'unmergeIdentities', from: ['merged'], to: 'active', note: 'in a new link ID of its own' },
    { operation: 'linkIdentities', from: ['active'], to: 'active', note: 'two records forced into the same link ID' },
    { operation: 'unlinkIdentities', from: ['active'], to: 'active', note: 'linked or matched; one record split into its own new link ID' },
  ],
};
