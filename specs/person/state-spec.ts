/**
 * The person state table as an executable specification (specs/state/state-spec.ts): every row with its outcomes,
 * required or open, and the sentence each comes from.
 * Source: person-provider-identity-api.md, "States and transitions" (person rows), Endpoints (/v2/postIdentity,
 * /householdQuery), Resources (person reply content members), Events.
 */
import { ppSeed } from '../common/seed.js';
import { linkRow, mergeRow, unlinkRow, unmergeRow } from '../state/pair-rows.js';
import type { RowCommon } from '../state/state-rows.js';
import {
  copyOfExcludedRow,
  deactivateRow,
  hardDeleteRow,
  postNewRow,
  reactivateRow,
  updateRow,
} from '../state/state-rows.js';
import { staleLinkAnswers } from '../state/open-answers.js';
import type { StateSpec } from '../state/state-spec.js';

const row = (quote: string) => ppSeed('States and transitions', quote);

const DEACTIVATE = row(
  'person | deactivateSourceWs | active | deactivated | record is excluded from future matching but stays ' +
    'visible in the user interface and in API replies',
);
const REACTIVATE = row('person | reactivateSourceWs | deactivated | active | record returns to its original link ID');
const DELETE = row(
  'person | deleteSourceIdentity | any | deleted | physical deletion; when it is the only source record of an ' +
    'identity the whole identity is deleted',
);
const MERGE = row(
  'person | mergeIdentities | active | toRetire record becomes merged and inactive; both records share one link ID',
);
const UNMERGE = row(
  'person | unmergeIdentities | merged | active, in a new link ID of its own | used to reverse a merge made in error',
);
const LINK = row(
  'person | linkIdentities | active | active | two records (by source and native ID) are forced into the same link ID',
);
const UNLINK = row(
  'person | unlinkIdentities | active, linked or matched | active, one record split into its own new link ID | ' +
    'reverses a link or splits matched records',
);
const NATIVE_ID = ppSeed(
  'Endpoints, Person service',
  '/v2/nativeIdQuery | returns the single identity that holds a given source plus native ID',
);
const ECHO_MEMBERS = ppSeed(
  'Resources, Person reply content members',
  'identityIdQuery | linkId, requestedLinkId, identity, identityGroupedBySource[]',
);
const HOUSEHOLDS = ppSeed(
  'Endpoints, Person service',
  '/householdQuery | returns the link IDs in a household, looked up by link ID, by source plus native ID, or by ' +
    'household ID',
);
const RETIRED = row('Effects on the attributes of a retired person source after a merge: not shown.');
const POST = ppSeed(
  'Endpoints, Person service',
  '/v2/postIdentity | adds or updates an identity; the source plus native ID decides between create and update',
);

const common: RowCommon = {
  hardDelete: { requirement: 'PERSON-DELETE-PHYSICAL', seed: DELETE },
  retiredFate: RETIRED,
  feed: {
    requirement: 'PERSON-NOTIF-RECORDS-CHANGES',
    seed: ppSeed(
      'Events',
      'The person service searchNotifications returns a paginated feed of messages that describe ' +
        'identity-changing events, including matches, links, merges, deactivations and overlays, within a date ' +
        'range.',
    ),
    steps: ['merge', 'link', 'deactivate'],
  },
};

export const personStateSpec: StateSpec = {
  service: 'person',
  source: 'person-provider-identity-api.md, States and transitions',
  states: ['active', 'deactivated', 'merged', 'deleted'],
  stateNames: { active: 'active', deactivated: 'deactivated', retired: 'merged', deleted: 'deleted' },
  rows: [
    postNewRow(common, { effect: 'PERSON-POST-ADDS', seed: POST }),
    updateRow(common, { effect: 'PERSON-POST-SAME-SOURCE-UPDATES', seed: POST }),
    deactivateRow(common, { effect: 'PERSON-DEACTIVATE-VISIBLE', seed: DEACTIVATE }),
    reactivateRow(common, { effect: 'PERSON-REACTIVATE-ORIGINAL-LINK', seed: REACTIVATE }),
    copyOfExcludedRow(common, { effect: 'PERSON-DEACTIVATE-EXCLUDES-MATCHING', seed: DEACTIVATE }),
    hardDeleteRow(common, {
      effect: 'PERSON-DELETE-PHYSICAL',
      seed: DELETE,
      keepsOthers: { requirement: 'PERSON-DELETE-KEEPS-OTHERS', seed: DELETE },
      identityGone: { requirement: 'PERSON-DELETE-ONLY-SOURCE', seed: DELETE },
    }),
    mergeRow(common, { effect: 'PERSON-MERGE-SHARED-LINK', seed: MERGE, othersSeed: MERGE }),
    unmergeRow(common, { effect: 'PERSON-UNMERGE-NEW-LINK', seed: UNMERGE, freshLinkId: true }),
    linkRow(common, { effect: 'PERSON-LINK-SAME-LINKID', seed: LINK, othersSeed: LINK }),
    unlinkRow(common, { effect: 'PERSON-UNLINK-OWN-LINKID', seed: UNLINK, freshLinkId: true }),
  ],
  queries: {
    nativeId: { requirement: 'PERSON-NATIVEID-QUERY', forbids: NATIVE_ID },
    idQueryReturns: {
      requirement: 'PERSON-IDQUERY-RETURNS',
      forbids: ppSeed('Endpoints, Person service', '/v2/identityIdQuery | returns an identity by link ID'),
    },
    excludedFromMatching: { requirement: 'PERSON-DEACTIVATE-EXCLUDES-MATCHING', forbids: DEACTIVATE },
    deletedIdentityGone: { requirement: 'PERSON-DELETE-ONLY-SOURCE', forbids: DELETE },
    singleIdentity: { requirement: 'PERSON-NATIVEID-QUERY', forbids: NATIVE_ID },
    idQueryEcho: {
      requirement: 'PERSON-IDQUERY-ECHO',
      forbids: ppSeed(
        'Resources, Person reply content members',
        'identityIdQuery | linkId, requestedLinkId, identity, identityGroupedBySource[]',
      ),
    },
    households: {
      byLinkId: 'PERSON-HOUSEHOLD-BY-LINKID',
      bySource: 'PERSON-HOUSEHOLD-BY-SOURCE',
      byId: 'PERSON-HOUSEHOLD-BY-ID',
      seed: ppSeed(
        'Endpoints, Person service',
        '/householdQuery | returns the link IDs in a household, looked up by link ID, by source plus native ID, ' +
          'or by household ID',
      ),
    },
  },
  feed: {
    partition: {
      requirement: 'PERSON-NOTIF-PAGING',
      seed: ppSeed('Events', 'The person service searchNotifications returns a paginated feed of messages'),
    },
  },
  open: [
    staleLinkAnswers(DELETE, [
      { what: 'an answer listing a deleted record or showing its data', seed: DELETE },
      { what: 'an answer presenting an identity deleted with its only source record', seed: DELETE },
      { what: 'an answer whose requestedLinkId is not the link ID asked', seed: ECHO_MEMBERS },
    ]),
    {
      operation: 'nativeIdQuery',
      what: "what a merged record resolves to: the survivor's link ID, or nothing (it is inactive)",
      seed: MERGE,
      forbidden: [{ what: "a link ID other than the survivor's", seed: MERGE }],
    },
    {
      operation: 'mergeIdentities',
      what: "whether the survivor's identity shows the merged record's attributes",
      seed: RETIRED,
    },
    {
      operation: 'deactivateSourceWs',
      what: "whether the identity shows a deactivated record's attributes (it stays visible)",
      seed: DEACTIVATE,
      forbidden: [{ what: 'the deactivated record found by no query', seed: DEACTIVATE }],
    },
    {
      operation: 'reactivateSourceWs',
      what:
        'which link ID a record returns to when an open outcome moved it while it was deactivated (the others of ' +
        'an identity going along with a merge or link): the one it was deactivated with, or the one it was moved ' +
        'to',
      seed: REACTIVATE,
      forbidden: [{ what: 'the reactivated record not active, or found by no query', seed: REACTIVATE }],
    },
    {
      operation: 'householdQuery',
      what: 'which households form, and what a record that is not active answers',
      seed: ppSeed('States and transitions', 'Transitions of relationship status and of households: not shown.'),
      forbidden: [{ what: 'lookup forms (link ID, source, household ID) that disagree', seed: HOUSEHOLDS }],
    },
    {
      operation: 'linkIdentities',
      what: 'whether an identity a record left (by link or unlink) still shows its attributes',
      seed: LINK,
      forbidden: [{ what: 'an identity in use listing a record another identity holds', seed: NATIVE_ID }],
    },
  ],
};
