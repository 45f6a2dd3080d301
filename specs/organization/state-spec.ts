/**
 * The organization state table as an executable specification (specs/state/state-spec.ts): every row with its outcomes,
 * required or open, and the sentence each comes from.
 * Source: organization-identity-api.md, "States and transitions" (and Endpoints rules 2 and 3, Events).
 */
import { orgSeed } from '../common/seed.js';
import { linkRow, mergeRow, unlinkRow, unmergeRow } from '../state/pair-rows.js';
import type { RowCommon } from '../state/state-rows.js';
import { hardDeleteRow, postNewRow, restoreRow, softDeleteRow, updateRow } from '../state/state-rows.js';
import { mergedSourceAnswers, staleLinkAnswers } from '../state/open-answers.js';
import type { StateSpec } from '../state/state-spec.js';

const STATES = 'States and transitions';
const endpoint = (quote: string) => orgSeed('Endpoints', quote);
const row = (quote: string) => orgSeed(STATES, quote);

const FURTHER = row('Preconditions on the prior state of each operation, and any further states: not shown.');
const SOFT_DELETE = row(
  'softDeleteSource | active | source named in `sourceToSoftDelete` | soft-deleted | data history is preserved; ' +
    'reply lists `linkIdsSoftDeleted` and `linkIdsModified`',
);
const RESTORE = row('restoreSource | soft-deleted | | active | reply lists `linkIdsModified` and `linkIdCreated`');
const HARD_DELETE = row(
  'deleteSourceIdentity | any | source named in `source` | deleted | all information of the source is removed; ' +
    'reply lists `linkIdsModified` and `linkIdsDeleted`',
);
const MERGE = row(
  'mergeIdentities | active (both) | `toRetireSource` is retired into `toSurviveSource` | retired (merged) for ' +
    'the retired source | a single surviving identity results; reply gives `linkId`',
);
const UNMERGE = row(
  'unmergeIdentities | retired | data of `unmergeSource` taken from the retired section of `unmergeFromSource` ' +
    '| active in a new identity | reply gives `unmergedId` and `unmergedFromId`',
);
const LINK = row(
  'linkIdentities | active | data of `source` linked into the identity of `linkToSource` | active | reply gives ' +
    '`linkId`',
);
const UNLINK = row(
  'unlinkIdentities | active | `source` unlinked from `unlinkFromSource` | active in a separate identity | ' +
    'reply gives `unlinkedId` and `unlinkedFromId`',
);
const ECHO = orgSeed('Endpoints, rule 3', 'identityIdQuery echoes the requested link ID in `requestedLinkId`.');
const POST = orgSeed(
  'Endpoints, rule 2',
  'postIdentity adds the posted identity and reports generated events in `events`; `linkId` is null when there ' +
    'is no match.',
);

const common: RowCommon = {
  further: FURTHER,
  hardDelete: { requirement: 'ORG-HARDDELETE-EFFECT', seed: HARD_DELETE },
  feed: {
    requirement: 'ORG-NOTIF-RECORDS-CHANGES',
    seed: orgSeed('Events', 'The service is described as letting callers track and audit identity changes and events.'),
    steps: [
      'post new identity',
      'update',
      'soft delete',
      'restore',
      'hard delete',
      'merge',
      'unmerge',
      'link',
      'unlink',
    ],
  },
};

export const organizationStateSpec: StateSpec = {
  service: 'organization',
  source: 'organization-identity-api.md, States and transitions',
  states: ['active', 'soft-deleted', 'retired (merged)', 'deleted'],
  stateNames: { active: 'active', 'soft-deleted': 'soft-deleted', retired: 'retired (merged)', deleted: 'deleted' },
  rows: [
    postNewRow(common, { effect: 'ORG-POST-ADDS', seed: POST }),
    updateRow(common, {
      effect: 'ORG-POST-SAME-SOURCE-UPDATES',
      seed: orgSeed(
        'What the service does',
        'Each source record is identified by a source name plus an identifier within that source.',
      ),
    }),
    softDeleteRow(common, { effect: 'ORG-SOFTDELETE-EFFECT', reply: 'ORG-SOFTDELETE-REPLY', seed: SOFT_DELETE }),
    restoreRow(common, {
      effect: 'ORG-RESTORE-EFFECT',
      reply: 'ORG-RESTORE-REPLY',
      seed: RESTORE,
      identitySeed: RESTORE,
    }),
    hardDeleteRow(common, { effect: 'ORG-HARDDELETE-EFFECT', reply: 'ORG-HARDDELETE-REPLY', seed: HARD_DELETE }),
    mergeRow(common, {
      effect: 'ORG-MERGE-EFFECT',
      reply: 'ORG-MERGE-REPLY',
      seed: MERGE,
      othersSeed: MERGE,
      echoes: {
        members: [['toSurviveSource', 'survivor']],
        seed: endpoint(
          'mergeIdentities | toSurviveSource, toRetireSource (source references) | linkId, toSurviveSource',
        ),
      },
    }),
    unmergeRow(common, {
      effect: 'ORG-UNMERGE-EFFECT',
      reply: 'ORG-UNMERGE-REPLY',
      seed: UNMERGE,
      echoes: {
        members: [
          ['unmergedSource', 'unmerged'],
          ['unmergedFromSource', 'from'],
        ],
        seed: endpoint(
          'unmergeIdentities | unmergeFromSource, unmergeSource (source references) | unmergedSource, ' +
            'unmergedFromSource, unmergedId, unmergedFromId',
        ),
      },
    }),
    linkRow(common, {
      effect: 'ORG-LINK-EFFECT',
      reply: 'ORG-LINK-REPLY',
      seed: LINK,
      othersSeed: FURTHER,
      echoes: {
        members: [['linkToSource', 'into']],
        seed: endpoint('linkIdentities | linkToSource, source (source references) | linkId, linkToSource'),
      },
    }),
    unlinkRow(common, {
      effect: 'ORG-UNLINK-EFFECT',
      reply: 'ORG-UNLINK-REPLY',
      seed: UNLINK,
      echoes: {
        members: [
          ['unlinkedSource', 'moved'],
          ['unlinkedFromSource', 'from'],
        ],
        seed: endpoint(
          'unlinkIdentities | unlinkFromSource, source (source references) | unlinkedId, unlinkedSource, ' +
            'unlinkedFromId, unlinkedFromSource',
        ),
      },
    }),
  ],
  queries: {
    nativeId: {
      requirement: 'ORG-NATIVEID-QUERY',
      forbids: orgSeed('What the service does', 'Operations: ... query by source name and native ID'),
    },
    idQueryReturns: {
      requirement: 'ORG-IDQUERY-RETURNS',
      forbids: orgSeed(
        'What the service does',
        'Identities are addressed by a service-wide identifier called the link ID (`linkId`).',
      ),
    },
    idQueryEcho: {
      requirement: 'ORG-IDQUERY-ECHO',
      forbids: ECHO,
    },
    // What nativeIdQuery answers for a soft-deleted source is not stated: the profile pins it.
    softDeletedAbsent: {
      requirement: 'ORG-SOFTDELETE-EFFECT',
      forbids: SOFT_DELETE,
      profile: 'softDeletedLookup = absent',
    },
  },
  feed: {
    partition: {
      requirement: 'ORG-NOTIF-NO-DUPLICATES',
      seed: orgSeed('Events', '`hasNext` tells whether more pages exist and `totalElements` gives the total count'),
    },
  },
  open: [
    staleLinkAnswers(FURTHER, [
      { what: 'an answer whose requestedLinkId is not the link ID asked', seed: ECHO },
      { what: 'an answer listing a hard-deleted source or showing its data', seed: HARD_DELETE },
    ]),
    mergedSourceAnswers('retired', MERGE),
    {
      operation: 'nativeIdQuery',
      what: 'what a soft-deleted source resolves to (profile softDeletedLookup)',
      seed: SOFT_DELETE,
    },
    {
      operation: 'softDeleteSource',
      what: "whether identities still show a soft-deleted source's data",
      seed: SOFT_DELETE,
    },
    {
      operation: 'mergeIdentities',
      what: "whether the survivor's identity shows the retired source's data",
      seed: UNMERGE,
    },
    {
      operation: 'linkIdentities',
      what: 'whether an identity a source left (by link or unlink) still shows its data',
      seed: FURTHER,
      forbidden: [{ what: 'the identity it was unlinked from still listing it among its sources', seed: UNLINK }],
    },
  ],
};
