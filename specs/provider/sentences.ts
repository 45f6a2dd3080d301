/**
 * Sentences of person-provider-identity-api.md about the provider service that more than one table quotes: its rows of
 * the state table and its postIdentity endpoint (the requirement catalogue rests on them; the executable state table,
 * specs/provider/state-spec.ts, quotes the same).
 * Source: person-provider-identity-api.md, States and transitions; Endpoints, Provider service.
 */
import { ppSeed } from '../common/seed.js';

const row = (quote: string) => ppSeed('States and transitions', quote);

export const SOFT_DELETE = row(
  'provider | softDeleteSource | active | soft-deleted | source removed from all identities that reference it; ' +
    'data marked deleted; merge and linkage history kept',
);
export const RESTORE = row(
  'provider | restoreSource | soft-deleted | active | applied across all identities where the source was ' +
    'present; a new entity may be created or existing entities modified',
);
export const DELETE = row(
  'provider | deleteSourceIdentity | any | deleted | permanent; removes all information and history of the ' +
    'source, including merge and unmerge history',
);
export const MERGE = row(
  'provider | mergeIdentities | active | toRetire source becomes merged; toSurvive identity holds combined data ' +
    '| reply gives the surviving link ID; only identities of the same provider type may be merged',
);
export const UNMERGE = row(
  'provider | unmergeIdentities | merged | active in its own record | reply gives the new link ID and the link ' +
    'ID it was unmerged from',
);
export const LINK = row(
  'provider | linkIdentities | active | active | two identities share one link ID without retiring either ' +
    'source; only identities of the same provider type may be linked',
);
export const UNLINK = row(
  'provider | unlinkIdentities | linked | separate entities | reply gives their link IDs and source information',
);
export const POST = ppSeed(
  'Endpoints, Provider service',
  '/postIdentity | adds a new identity; it may be a practitioner (type 1) or a health facility (type 2)',
);
