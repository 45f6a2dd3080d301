/**
 * The provider state table as an executable specification (specs/state/state-spec.ts): every row with its outcomes,
 * required, forbidden or open, and the sentence each comes from.
 * Source: person-provider-identity-api.md, "States and transitions" (provider rows), Endpoints (provider service),
 * Events.
 */
import { ppSeed } from '../common/seed.js';
import { linkRow, mergeRow, unlinkRow, unmergeRow } from '../state/pair-rows.js';
import type { RowCommon } from '../state/state-rows.js';
import { hardDeleteRow, postNewRow, restoreRow, softDeleteRow, updateRow } from '../state/state-rows.js';
import { mergedSourceAnswers, staleLinkAnswers } from '../state/open-answers.js';
import type { StateSpec } from '../state/state-spec.js';

const row = (quote: string) => ppSeed('States and transitions', quote);

const SOFT_DELETE = row(
  'provider | softDeleteSource | active | soft-deleted | source removed from all identities that reference it; ' +
    'data marked deleted; merge and linkage history kept',
);
const RESTORE = row(
  'provider | restoreSource | soft-deleted | active | applied across all identities where the source was ' +
    'present; a new entity may be created or existing entities modified',
);
const DELETE = row(
  'provider | deleteSourceIdentity | any | deleted | permanent; removes all information and history of the ' +
    'source, including merge and unmerge history',
);
const MERGE = row(
  'provider | mergeIdentities | active | toRetire source becomes merged; toSurvive identity holds combined data ' +
    '| reply gives the surviving link ID; only identities of the same provider type may be merged',
);
const UNMERGE = row(
  'provider | unmergeIdentities | merged | active in its own record | reply gives the new link ID and the link ' +
    'ID it was unmerged from',
);
const LINK = row(
  'provider | linkIdentities | active | active | two identities share one link ID without retiring either ' +
    'source; only identities of the same provider type may be linked',
);
const UNLINK = row(
  'provider | unlinkIdentities | linked | separate entities | reply gives their link IDs and source information',
);
const POST = ppSeed(
  'Endpoints, Provider service',
  '/postIdentity | adds a new identity; it may be a practitioner (type 1) or a health facility (type 2)',
);

const common: RowCommon = {
  hardDelete: { requirement: 'PROV-HARDDELETE-EFFECT', seed: DELETE },
  feed: {
    requirement: 'PROV-NOTIF-RECORDS-CHANGES',
    seed: ppSeed(
      'Events',
      'The provider service searchNotifications returns notifications for a period, such as merge events, link ' +
        'and unlink events, and other configured notifications.',
    ),
    steps: ['merge', 'link', 'unlink'],
  },
};

export const providerStateSpec: StateSpec = {
  service: 'provider',
  source: 'person-provider-identity-api.md, States and transitions',
  states: ['active', 'soft-deleted', 'merged', 'deleted'],
  stateNames: { active: 'active', 'soft-deleted': 'soft-deleted', retired: 'merged', deleted: 'deleted' },
  kinds: ['practitioner', 'healthFacility'],
  rows: [
    postNewRow(common, { effect: 'PROV-POST-ADDS', seed: POST }),
    updateRow(common, {
      effect: 'PROV-POST-SAME-SOURCE-UPDATES',
      seed: ppSeed('Endpoints, Provider service', '/nativeIdQuery | returns an identity by source name plus native ID'),
    }),
    softDeleteRow(common, {
      effect: 'PROV-SOFTDELETE-EFFECT',
      seed: SOFT_DELETE,
      dataRemoved: true,
      historyKept: { requirement: 'PROV-SOFTDELETE-KEEPS-HISTORY', seed: SOFT_DELETE },
    }),
    restoreRow(common, {
      effect: 'PROV-RESTORE-EFFECT',
      reply: 'PROV-RESTORE-REPLY',
      seed: RESTORE,
      identitySeed: RESTORE,
    }),
    hardDeleteRow(common, {
      effect: 'PROV-HARDDELETE-EFFECT',
      seed: DELETE,
      historyRemoved: 'PROV-HARDDELETE-HISTORY',
    }),
    mergeRow(common, {
      effect: 'PROV-MERGE-EFFECT',
      reply: 'PROV-MERGE-REPLY',
      seed: MERGE,
      othersSeed: MERGE,
      sameKind: { requirement: 'PROV-MERGE-SAME-TYPE', seed: MERGE },
      combinedData: true,
    }),
    unmergeRow(common, { effect: 'PROV-UNMERGE-EFFECT', reply: 'PROV-UNMERGE-REPLY', seed: UNMERGE }),
    linkRow(common, {
      effect: 'PROV-LINK-EFFECT',
      reply: 'PROV-LINK-REPLY',
      seed: LINK,
      othersSeed: LINK,
      sameKind: { requirement: 'PROV-LINK-SAME-TYPE', seed: LINK },
    }),
    unlinkRow(common, { effect: 'PROV-UNLINK-EFFECT', reply: 'PROV-UNLINK-REPLY', seed: UNLINK, sourcesInReply: true }),
  ],
  queries: {
    nativeId: {
      requirement: 'PROV-NATIVEID-QUERY',
      forbids: ppSeed(
        'Endpoints, Provider service',
        '/nativeIdQuery | returns an identity by source name plus native ID',
      ),
    },
    idQueryReturns: {
      requirement: 'PROV-IDQUERY-RETURNS',
      forbids: ppSeed('Endpoints, Provider service', '/identityIdQuery | returns an identity for a supplied link ID'),
    },
    softDeletedAbsent: { requirement: 'PROV-SOFTDELETE-EFFECT', forbids: SOFT_DELETE },
  },
  feed: {
    partition: {
      requirement: 'PROV-NOTIF-PAGING',
      seed: ppSeed('Events', 'The provider service searchNotifications returns notifications for a period'),
    },
  },
  open: [
    staleLinkAnswers(DELETE, [
      { what: 'an answer listing a hard-deleted source or showing its data', seed: DELETE },
      { what: 'an answer listing a soft-deleted source or showing its data', seed: SOFT_DELETE },
    ]),
    mergedSourceAnswers('merged', MERGE),
    {
      operation: 'softDeleteSource',
      what: 'what sources merged into a soft-deleted source resolve to while it is soft-deleted',
      seed: SOFT_DELETE,
      forbidden: [{ what: 'their merge into it lost (an unmerge after the restore refused)', seed: SOFT_DELETE }],
    },
    {
      operation: 'linkIdentities',
      what: 'whether an identity a source left (by link or unlink) still shows its data',
      seed: LINK,
      forbidden: [{ what: 'the identity it was unlinked from still listing it among its sources', seed: UNLINK }],
    },
  ],
};
