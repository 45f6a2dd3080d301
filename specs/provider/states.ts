/**
 * The state table of provider source records, as data.
 * Source: person-provider-identity-api.md, "States and transitions" (provider rows; states:
 * active, soft-deleted, merged (retired), deleted). The unlinkIdentities row reads "linked →
 * separate entities": linked records are active ones sharing a link ID, so it is drawn on active.
 */
import type { StateTable } from '../common/states.js';

export const providerStates: StateTable = {
  service: 'provider',
  source: 'person-provider-identity-api.md, States and transitions',
  states: ['active', 'soft-deleted', 'merged', 'deleted'],
  transitions: [
    {
      operation: 'softDeleteSource',
      from: ['active'],
      to: 'soft-deleted',
      note: 'removed from every identity; merge and linkage history kept',
    },
    { operation: 'restoreSource', from: ['soft-deleted'], to: 'active', note: 'a new entity may be created or existing ones modified' },
    { operation: 'deleteSourceIdentity', from: 'any', to: 'deleted', note: 'permanent, history included' },
    { operation: 'mergeIdentities', from: ['active'], to: 'merged', note: 'same provider type only' },
    { operation: 'unmergeIdentities', from: ['merged'], to: 'active', note: 'active in its own record' },
    { operation: 'linkIdentities', from: ['active'], to: 'active', note: 'share one link ID, neither retired; same provider type only' },
    { operation: 'unlinkIdentities', from: ['active'], to: 'active', note: 'linked → separate entities' },
  ],
};
