/**
 * Requirement catalogue of the provider identity service (practitioners, type 1, and health facilities, type 2). MUST =
 * stated in the seed; EXPECT = what any identity service does where the seed is silent, or a rule the seed states only
 * for the sibling services (a profile may turn an EXPECT off). Text is in our words.
 *
 * Source: person-provider-identity-api.md (section named in each entry).
 */
import type { Requirement } from '../common/model.js';
import { requirementEntries } from '../common/requirement-entries.js';
import { serviceRoles, withRoles } from '../common/roles.js';
import { ppSeed } from '../common/seed.js';
import {
  PP_MAX_RESULTS,
  PP_PATH_VERSIONS,
  PP_REPLY_ENVELOPE,
  PP_REPLY_IS_ENVELOPE,
} from '../common/shared-sentences.js';
import { providerOperations } from './operations.js';
import { DELETE as HARD_DELETE, LINK, MERGE, POST, RESTORE, SOFT_DELETE, UNLINK, UNMERGE } from './sentences.js';

const { must, expectation } = requirementEntries('provider');

const STATES = 'States and transitions, provider';

// The sentences the requirements rest on (person-provider-identity-api.md).
const PROVIDER = 'Endpoints, Provider service';
const path = (quote: string) => ppSeed(PROVIDER, quote);
const SEARCH = path(
  '/demographicsSearch | searches by demographic and provider attributes; returns zero or more candidates ' +
    'ordered by match score',
);
const FEED = ppSeed(
  'Events',
  'The provider service searchNotifications returns notifications for a period, such as merge events, link and ' +
    'unlink events, and other configured notifications.',
);

const catalogue: Requirement[] = [
  // Endpoints and envelope
  must(
    'PROV-ENDPOINT-PATHS',
    'Endpoints, Provider service; Versioning',
    'Each operation answers POST {base_url}/provider-link-ws/svc/<operation> (no /v2 segment) with a JSON body.',
    [path('Base address: `{base_url}/provider-link-ws/svc`.'), PP_PATH_VERSIONS],
  ),
  must(
    'PROV-ENV-REPLY',
    'Resources, Envelope',
    'Every reply is a JSON reply envelope: success a boolean; warnings and errors, when present, arrays of ' +
      'strings; retryableError a boolean; message and unparsedJson strings.',
    [PP_REPLY_IS_ENVELOPE, PP_REPLY_ENVELOPE],
  ),
  expectation(
    'PROV-ENV-ECHO',
    'Resources, Envelope',
    'The request auditId and trackingId come back in the reply envelope.',
  ),
  // The Errors sentence names the members failures are reported through; non-empty texts no sentence states.
  expectation(
    'PROV-ERR-CARRIED',
    'Errors',
    'A failure says what went wrong: besides success=false, its message or errors is not empty (the members ' +
      'failures are reported through; their texts are not shown).',
  ),
  // Adding identities of both types
  must(
    'PROV-POST-ADDS',
    'Endpoints, Provider service, postIdentity',
    'postIdentity adds a new identity: afterwards nativeIdQuery by its source name and native ID finds it.',
    [POST],
  ),
  // The provider's identity fields are "not shown", so which members a provider identity keeps is
  // no sentence's: what any identity service does, not a MUST.
  expectation(
    'PROV-POST-KEEPS-VALUES',
    'Endpoints, Provider service, postIdentity',
    'The identity postIdentity adds holds the values posted: nativeIdQuery of the posted source shows each value it ' +
      'accepted as sent wherever it shows the member (text with the same characters, letter case, Unicode ' +
      'normalisation and spacing aside; the same number, date, time or instant); a value the deployment cannot keep ' +
      'is refused, not changed or left out.',
  ),
  must(
    'PROV-POST-TYPES',
    'What the service does; Endpoints, postIdentity',
    'Both provider types are accepted: a practitioner (type 1) and a health facility (type 2) are each added ' +
      'and keep their type.',
    [
      POST,
      ppSeed(
        'What the service does',
        'manages provider identities of two types, practitioner (type 1) and health facility (type 2), and ' +
          'organizations',
      ),
    ],
  ),
  // Search and query
  must(
    'PROV-SEARCH-ORDER',
    'Endpoints, Provider service, demographicsSearch',
    'demographicsSearch returns zero or more candidates ordered by match score, best first.',
    [SEARCH],
  ),
  // "returns zero or more candidates" forbids no list; "empty when no match" is stated for the organization only, and
  // the provider's request and reply members (threshold, searchResults) are not shown.
  expectation(
    'PROV-SEARCH-RESULTS-REQUIRED',
    'Endpoints, Provider service, demographicsSearch',
    'demographicsSearch always answers with a candidate list (searchResults), empty when nothing matches ' +
      '(stated for the organization service; provider members not shown).',
  ),
  must(
    'PROV-SEARCH-MAX-POSITIVE',
    'Limits',
    'maxSearchResults must be greater than 0: 0 and negative values are rejected.',
    [PP_MAX_RESULTS],
  ),
  // No sentence says "at most" in words: the member's name does, and "when absent, the system maximum number of results
  // is returned" makes maxSearchResults the maximum when given.
  must('PROV-SEARCH-MAX-RESULTS', 'Limits', 'demographicsSearch returns at most maxSearchResults candidates.', [
    PP_MAX_RESULTS,
  ]),
  expectation(
    'PROV-SEARCH-THRESHOLD',
    'Resources, request content options (person); Endpoints',
    'Only candidates whose match score is at least matchScoreThreshold are returned (stated for person and ' +
      'organization; provider members not shown).',
  ),
  expectation(
    'PROV-SEARCH-SCORE-RANGE',
    'Endpoints, demographicsSearch',
    'Every matchScore lies between 0 and 1, and sameIdentity is Y, U or N (as in the organization document).',
  ),
  expectation(
    'PROV-SEARCH-FINDS-EXACT',
    'What the service does',
    'A search with an exact copy of a posted identity returns that identity.',
  ),
  must(
    'PROV-QUERY-BEST-MATCH',
    'Endpoints, Provider service, demographicsQuery',
    'demographicsQuery returns the best-matching identity: when it returns one, it is (one of) the top-ranked ' +
      'demographicsSearch candidates.',
    [path('/demographicsQuery | returns the best-matching identity if found')],
  ),
  must(
    'PROV-NATIVEID-QUERY',
    'Endpoints, Provider service, nativeIdQuery',
    'nativeIdQuery returns the identity that holds the given source name plus native ID.',
    [path('/nativeIdQuery | returns an identity by source name plus native ID')],
  ),
  must(
    'PROV-IDQUERY-RETURNS',
    'Endpoints, Provider service, identityIdQuery',
    'identityIdQuery returns the identity for a supplied link ID.',
    [path('/identityIdQuery | returns an identity for a supplied link ID')],
  ),
  // State table rows
  must(
    'PROV-SOFTDELETE-EFFECT',
    `${STATES}, softDeleteSource`,
    'After softDeleteSource the source is removed from every identity that referenced it: no query finds it in ' +
      'an active identity.',
    [SOFT_DELETE],
  ),
  must(
    'PROV-SOFTDELETE-KEEPS-HISTORY',
    `${STATES}, softDeleteSource`,
    'Soft delete keeps merge and linkage history: a merge made before the soft delete can still be reversed ' +
      'after the source is restored.',
    [SOFT_DELETE],
  ),
  must(
    'PROV-RESTORE-EFFECT',
    `${STATES}, restoreSource`,
    'After restoreSource the soft-deleted source is active again in an identity.',
    [RESTORE, path('/restoreSource | restores a soft-deleted source')],
  ),
  // The row says a new entity may be created or existing ones modified; what the provider's reply says about it (its
  // members) is not shown.
  expectation(
    'PROV-RESTORE-REPLY',
    `${STATES}, restoreSource`,
    'restoreSource either creates a new entity or modifies existing ones, and its reply names which ' +
      '(linkIdCreated or linkIdsModified holds the identity the source is now in; provider reply members not ' +
      'shown).',
  ),
  must(
    'PROV-HARDDELETE-EFFECT',
    `${STATES}, deleteSourceIdentity`,
    'After deleteSourceIdentity the source is gone permanently: no query finds it and it cannot be restored.',
    [HARD_DELETE],
  ),
  must(
    'PROV-HARDDELETE-HISTORY',
    `${STATES}, deleteSourceIdentity`,
    'Hard delete also removes merge history: a hard-deleted retired source can no longer be unmerged.',
    [HARD_DELETE],
  ),
  must('PROV-MERGE-REPLY', `${STATES}, mergeIdentities`, 'mergeIdentities replies with the surviving link ID.', [
    MERGE,
    path(
      '/mergeIdentities | merges a toRetire source identity into a toSurvive source identity; reply returns the ' +
        'surviving link ID',
    ),
  ]),
  must(
    'PROV-MERGE-EFFECT',
    `${STATES}, mergeIdentities`,
    'After mergeIdentities the toRetire source is merged: it no longer forms an identity of its own, and the ' +
      'surviving identity holds the combined data.',
    [MERGE],
  ),
  must(
    'PROV-MERGE-SAME-TYPE',
    `${STATES}, mergeIdentities`,
    'Only identities of the same provider type may be merged: a practitioner-facility merge is rejected and ' +
      'changes nothing.',
    [MERGE],
  ),
  must(
    'PROV-UNMERGE-REPLY',
    `${STATES}, unmergeIdentities`,
    'unmergeIdentities replies with the new link ID (unmergedId) and the link ID it was unmerged from ' +
      '(unmergedFromId).',
    [
      UNMERGE,
      path('/unmergeIdentities | reverses a merge; reply returns the new link ID and the link ID it was unmerged from'),
    ],
  ),
  must(
    'PROV-UNMERGE-EFFECT',
    `${STATES}, unmergeIdentities`,
    'After unmergeIdentities the unmerged source is active in its own identity, separate from the one it was ' +
      'unmerged from.',
    [UNMERGE],
  ),
  must(
    'PROV-LINK-EFFECT',
    `${STATES}, linkIdentities`,
    'After linkIdentities both identities share one link ID and neither source is retired: both still resolve, ' +
      'as active sources.',
    [LINK],
  ),
  // Neither the provider row nor the provider endpoint says what linkIdentities replies.
  expectation(
    'PROV-LINK-REPLY',
    `${STATES}, linkIdentities`,
    'linkIdentities replies with the shared link ID (as the organization document states; the provider reply is ' +
      'not described).',
  ),
  must(
    'PROV-LINK-SAME-TYPE',
    `${STATES}, linkIdentities`,
    'Only identities of the same provider type may be linked: a practitioner-facility link is rejected and ' +
      'changes nothing.',
    [LINK],
  ),
  must(
    'PROV-UNLINK-REPLY',
    `${STATES}, unlinkIdentities`,
    'unlinkIdentities replies with the link IDs of both entities and their source information (unlinkedId, ' +
      'unlinkedFromId, unlinkedSource, unlinkedFromSource).',
    [
      UNLINK,
      path('/unlinkIdentities | splits two linked identities; reply returns their link IDs and source information'),
    ],
  ),
  must(
    'PROV-UNLINK-EFFECT',
    `${STATES}, unlinkIdentities`,
    'After unlinkIdentities the two linked identities are separate entities again.',
    [UNLINK],
  ),
  // Relationships
  must(
    'PROV-REL-ADD',
    'Endpoints, addRelationshipService',
    'addRelationshipService adds a relationship between two identities and replies with it, including its id; a ' +
      'member the reply echoes holds the value sent.',
    [
      path(
        '/addRelationshipService | adds a relationship between two identities according to configured ' +
          'relationship definitions',
      ),
    ],
  ),
  must(
    'PROV-REL-SEARCH',
    'Endpoints, searchRelationshipsService',
    'searchRelationshipsService finds an added relationship, and returns none whose criteria members hold other ' +
      'values.',
    [path('/searchRelationshipsService | searches for relationships')],
  ),
  must(
    'PROV-REL-DELETE',
    'Endpoints, deleteRelationshipService',
    'deleteRelationshipService deletes a previously defined relationship: a search no longer finds it.',
    [path('/deleteRelationshipService | deletes a previously defined relationship between two identities')],
  ),
  // Notifications
  must(
    'PROV-NOTIF-PERIOD',
    'Events; Endpoints, searchNotifications',
    'searchNotifications returns the notifications of the requested period only, and an empty period gives none.',
    [FEED, path('/searchNotifications | returns identity-related notifications for a period')],
  ),
  must(
    'PROV-NOTIF-RECORDS-CHANGES',
    'Events',
    'The feed returns notifications "such as merge events, link and unlink events": each merge, link and unlink ' +
      'the run makes appears in a notification of its period (one that names a native ID or link ID involved, ' +
      "where the feed names the run's records at all).",
    [FEED],
  ),
  expectation(
    'PROV-NOTIF-PAGING',
    'Events',
    'Pages hold at most pageSize notifications, hasNext is false exactly on the last page, and totalElements ' +
      'equals the count walked.',
  ),
  // Auth
  must(
    'PROV-AUTH-BASIC',
    'Authentication',
    'The provider service uses HTTP basic authentication: a request without credentials, or with a wrong ' +
      'password, is rejected.',
    [ppSeed('Authentication', 'Provider service: HTTP basic authentication.')],
  ),
  // Nothing observable
  must(
    'PROV-RATE-LIMITS',
    'Limits',
    'Rate limits and request size limits: not shown.',
    [],
    'The seed gives no limit to check; the suite only honours 429 replies.',
  ),
  must(
    'PROV-VERSION',
    'Versioning',
    'The provider description is labelled 2026.1.2.',
    [],
    'No operation reports its version; the path rule (no /v2) is exercised by PROV-ENDPOINT-PATHS.',
  ),
  // Sequences and matching properties (model-based walks, metamorphic checks, generated bad input)
  expectation(
    'PROV-POST-SAME-SOURCE-UPDATES',
    'Endpoints, postIdentity (as for person: the source plus native ID decides between create and update)',
    'Re-posting a source name plus native ID updates that record in its identity instead of adding another.',
  ),
  expectation(
    'PROV-WALK-APART',
    'What the service does',
    'Providers generated far apart (different names, NPIs, addresses) are not joined by matching: postIdentity ' +
      'of each returns linkId null.',
  ),
  expectation(
    'PROV-REJECTED-NO-CHANGE',
    'Errors',
    'A rejected request changes nothing: every source record keeps its state and its link ID.',
  ),
  expectation(
    'PROV-NO-SERVER-ERROR',
    'Errors',
    "No request, valid or not, is answered with HTTP 5xx: bad input is rejected as the caller's error (HTTP 4xx " +
      'or success=false).',
  ),
  expectation(
    'PROV-BADINPUT-GENERATED',
    'Resources; Limits',
    'Structurally invalid content (wrong JSON types, missing required members, maxSearchResults not above 0, ' +
      'malformed DATE, TIME and DATE-TIME values) is rejected and changes nothing.',
  ),
  expectation(
    'PROV-SEARCH-THRESHOLD-MONOTONE',
    'Endpoints, demographicsSearch',
    'Raising matchScoreThreshold returns a subset of the candidates, with the same scores.',
  ),
  expectation(
    'PROV-SEARCH-MAX-PREFIX',
    'Limits',
    'maxSearchResults=k returns the first k candidates of a larger request (candidates of equal score may reorder).',
  ),
  expectation(
    'PROV-SEARCH-SELF-FIRST',
    'What the service does',
    'A search with an exact copy of a posted provider returns that identity first, with the highest score.',
  ),
  expectation(
    'PROV-MATCH-DETERMINISTIC',
    'What the service does',
    'The same search twice, with no change in between, returns the same identities and scores; the requested ' +
      'response views change neither.',
  ),
  expectation(
    'PROV-MATCH-ONE-THRESHOLD',
    'What the service does',
    'One match threshold explains every decision: every postIdentity that linked and every demographicsQuery ' +
      'that returned an identity had a best score at least as high as every one that did not.',
  ),
  // One shape requirement per operation, EXPECT: the seed shows no provider reply member ("Request and reply members of
  // the provider operations: not shown"), so the shape is the organization table's and the vendor description's, which
  // a provider deployment need not share.
  ...providerOperations.map((op) =>
    expectation(
      op.shapeRequirement,
      `Endpoints, Provider service, ${op.name}`,
      `${op.name} reply content has the members of the shared operations table (members "not shown" in the ` +
        `seed, read tolerantly).`,
    ),
  ),
];

/** The requirement that plays each role of the shared rules in this service (specs/common/roles.ts). */
const ROLES = serviceRoles('PROV-', {
  lacks:
    'badInput.dataSourceLimit envelope.viewsDefault lifecycle.hardDeleteReply lifecycle.softDeleteReply ' +
    'notifications.recordsChanges query.findsExact query.idQueryEcho relationships.dateTime search.sameIdentity ' +
    'type.boolean type.date type.dateTime type.email type.number type.text type.time',
  own: {
    'auth.rejected': 'PROV-AUTH-BASIC',
    'notifications.total': 'PROV-NOTIF-PAGING',
  },
});

export const providerRequirements: Requirement[] = withRoles(catalogue, ROLES, providerOperations);
