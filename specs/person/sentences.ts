/**
 * Sentences of person-provider-identity-api.md about the person service that more than one table quotes: its rows of
 * the state table and its postIdentity endpoint (the requirement catalogue rests on them; the executable state table,
 * specs/person/state-spec.ts, quotes the same).
 * Source: person-provider-identity-api.md, States and transitions; Endpoints, Person service.
 */
import { ppSeed } from '../common/seed.js';

const row = (quote: string) => ppSeed('States and transitions', quote);

export const DEACTIVATE = row(
  'person | deactivateSourceWs | active | deactivated | record is excluded from future matching but stays ' +
    'visible in the user interface and in API replies',
);
export const REACTIVATE = row(
  'person | reactivateSourceWs | deactivated | active | record returns to its original link ID',
);
export const DELETE = row(
  'person | deleteSourceIdentity | any | deleted | physical deletion; when it is the only source record of an ' +
    'identity the whole identity is deleted',
);
export const MERGE = row(
  'person | mergeIdentities | active | toRetire record becomes merged and inactive; both records share one link ID',
);
export const UNMERGE = row(
  'person | unmergeIdentities | merged | active, in a new link ID of its own | used to reverse a merge made in error',
);
export const LINK = row(
  'person | linkIdentities | active | active | two records (by source and native ID) are forced into the same link ID',
);
export const UNLINK = row(
  'person | unlinkIdentities | active, linked or matched | active, one record split into its own new link ID | ' +
    'reverses a link or splits matched records',
);
export const POST = ppSeed(
  'Endpoints, Person service',
  '/v2/postIdentity | adds or updates an identity; the source plus native ID decides between create and update',
);
