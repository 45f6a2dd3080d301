/**
 * Sentences of organization-identity-api.md that more than one table quotes: the rows of the state table (the
 * requirement catalogue rests on them; the executable state table, specs/organization/state-spec.ts, quotes the same
 * rows).
 * Source: organization-identity-api.md, States and transitions.
 */
import { orgSeed } from '../common/seed.js';

const row = (quote: string) => orgSeed('States and transitions', quote);

export const SOFT_DELETE = row(
  'softDeleteSource | active | source named in `sourceToSoftDelete` | soft-deleted | data history is preserved; ' +
    'reply lists `linkIdsSoftDeleted` and `linkIdsModified`',
);
export const RESTORE = row(
  'restoreSource | soft-deleted | | active | reply lists `linkIdsModified` and `linkIdCreated`',
);
export const HARD_DELETE = row(
  'deleteSourceIdentity | any | source named in `source` | deleted | all information of the source is removed; ' +
    'reply lists `linkIdsModified` and `linkIdsDeleted`',
);
export const MERGE = row(
  'mergeIdentities | active (both) | `toRetireSource` is retired into `toSurviveSource` | retired (merged) for ' +
    'the retired source | a single surviving identity results; reply gives `linkId`',
);
export const UNMERGE = row(
  'unmergeIdentities | retired | data of `unmergeSource` taken from the retired section of `unmergeFromSource` ' +
    '| active in a new identity | reply gives `unmergedId` and `unmergedFromId`',
);
export const LINK = row(
  'linkIdentities | active | data of `source` linked into the identity of `linkToSource` | active | reply gives ' +
    '`linkId`',
);
export const UNLINK = row(
  'unlinkIdentities | active | `source` unlinked from `unlinkFromSource` | active in a separate identity | ' +
    'reply gives `unlinkedId` and `unlinkedFromId`',
);
