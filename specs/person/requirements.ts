/**
 * Requirement catalogue of the person identity service: one entry per documented rule, limit, state-table row, envelope
 * promise, data type and auth statement. MUST = stated in the seed; EXPECT = what any identity service does where the
 * seed is silent (a profile may turn an EXPECT off). Text is in our words.
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
import { personOperations } from './operations.js';
import { DEACTIVATE, DELETE, LINK, MERGE, POST, REACTIVATE, UNLINK, UNMERGE } from './sentences.js';

const { must, expectation } = requirementEntries('person');
/** `<operation>:<pointer>` of an identity member in every identity-bearing reply (for `governs`). */
const inIdentityReplies = (...members: string[]) =>
  members.flatMap((m) => [
    ...['postIdentity', 'demographicsQuery', 'identityIdQuery', 'nativeIdQuery'].flatMap((op) => [
      `${op}:/content/identity/${m}`,
      `${op}:/content/identityGroupedBySource/[]/${m}`,
    ]),
    `postIdentity:/content/linkIdentity/${m}`,
    `postIdentity:/content/incomingIdentity/${m}`,
    `demographicsSearch:/content/searchResults/[]/identity/${m}`,
    `demographicsSearch:/content/searchResults/[]/identityGroupedBySource/[]/${m}`,
  ]);
/** Operations whose reply members the seed lists (Resources, "Person reply content members"). */

// The sentences the requirements rest on (person-provider-identity-api.md).
const PERSON = 'Endpoints, Person service';
const IDENTITY = 'Resources, Person identity';
const OPTIONS = 'Resources, Person request content options';
const path = (quote: string) => ppSeed(PERSON, quote);
const SEARCH = path('/v2/demographicsSearch | fuzzy search; returns one to many ranked results with match scores');
const QUERY = path(
  '/v2/demographicsQuery | returns the single best-matching identity, a match only when its score reaches the ' +
    'same threshold used when matching in postIdentity',
);
const THRESHOLD = ppSeed(
  OPTIONS,
  'matchScoreThreshold | number | demographicsSearch only; only identities with a score equal to or above it ' +
    'appear; when absent no score filtering',
);
const MAX = ppSeed(
  OPTIONS,
  'maxSearchResults | integer | demographicsSearch only; must be greater than 0; when absent the system maximum ' +
    'is returned',
);
const HOUSEHOLDS = path(
  '/householdQuery | returns the link IDs in a household, looked up by link ID, by source plus native ID, or by ' +
    'household ID',
);
const REL_SEARCH = path(
  '/searchRelationshipsService | searches relationships; filters are subject link ID, object link ID and ' +
    'relationship verb',
);
const FEED = ppSeed(
  'Events',
  'The person service searchNotifications returns a paginated feed of messages that describe identity-changing ' +
    'events, including matches, links, merges, deactivations and overlays, within a date range.',
);
/** The person reply content members the seed lists, per operation. */
const REPLY_MEMBERS: Record<string, string> = {
  postIdentity:
    'postIdentity | identityGroupedBySource[], linkIdentity, linkId, identity, domains[], ' +
    'customizedIdentitiesWithSource, customizedIdentities, vinIds[], events[], incomingIdentity, enrichedDetails ' +
    '(object)',
  demographicsQuery:
    'demographicsQuery | identityGroupedBySource[], linkId, identity, domains[], ' +
    'customizedIdentitiesWithSource, customizedIdentities, vinIds[], enrichedDetails',
  demographicsSearch: 'demographicsSearch | searchResults[]',
  identityIdQuery: 'identityIdQuery | linkId, requestedLinkId, identity, identityGroupedBySource[]',
};
/** Operations whose reply members the seed lists (Resources, "Person reply content members"). */
const SHOWN_REPLIES = new Set(Object.keys(REPLY_MEMBERS));

const catalogue: Requirement[] = [
  // Endpoints, envelope, errors
  must(
    'PERSON-ENDPOINT-PATHS',
    'Endpoints, Person service; Versioning',
    'Each operation answers POST {base_url}/link-ws/svc/<path> with JSON; postIdentity, demographicsSearch, ' +
      'demographicsQuery, identityIdQuery and nativeIdQuery carry a /v2 segment, the others none.',
    [ppSeed(PERSON, 'Base address: `{base_url}/link-ws/svc`.'), PP_PATH_VERSIONS],
  ),
  must(
    'PERSON-ENV-REPLY',
    'Resources, Envelope',
    'Every reply is a JSON reply envelope: success is a boolean; warnings and errors, when present, arrays of ' +
      'strings; retryableError a boolean; message and unparsedJson strings.',
    [PP_REPLY_IS_ENVELOPE, PP_REPLY_ENVELOPE],
  ),
  expectation(
    'PERSON-ENV-ECHO',
    'Resources, Envelope',
    'The request auditId and trackingId come back in the reply envelope (as the shared envelope does for the ' +
      'organization service).',
  ),
  must(
    'PERSON-ENV-CUSTOMERID',
    'Resources, Envelope',
    "The person request envelope carries customerId: a request naming the deployment's customer ID is accepted.",
    [ppSeed('Resources, Envelope', 'Request: `auditId` (string), `customerId` (string, person service)')],
  ),
  // "Failures are reported through the reply envelope members success, message, errors, ...": the members a failure is
  // carried in; that its message or errors be non-empty no sentence states.
  expectation(
    'PERSON-ERR-CARRIED',
    'Errors',
    'A failure says what went wrong: besides success=false, its message or errors is not empty (the members ' +
      'failures are reported through; their texts are not shown).',
  ),
  expectation(
    'PERSON-ERR-NOT-RETRYABLE',
    'Errors',
    'A request rejected for bad input is not marked retryableError=true.',
  ),
  expectation(
    'PERSON-BADINPUT-REJECTED',
    'Resources, Person identity',
    'A body that is not JSON, a malformed date, or a postIdentity without an identity is rejected.',
  ),
  // Request options and views
  must(
    'PERSON-ENRICH-DEFAULT',
    'Resources, Person request content options',
    'includeEnrichData defaults to false: omitting it gives the same reply as sending false, true is accepted, ' +
      'and a reply not asked for enrichment carries none.',
    [ppSeed(OPTIONS, 'includeEnrichData | boolean | include enrichment data in the reply; default false')],
  ),
  expectation(
    'PERSON-VIEWS-DEFAULT',
    'Resources, Person request content options',
    'Omitting responseIdentityFormatNames gives the same identity as asking for ["DEFAULT"].',
  ),
  // Data types
  must('PERSON-TYPE-TEXT', 'Resources, Person identity', 'String fields of a returned identity are JSON strings.', [
    ppSeed(IDENTITY, 'names | prefix, firstName, middleName, lastName, suffix (string)'),
    ppSeed(IDENTITY, 'addresses | type, line1, line2, city, state, postalCode, country (string)'),
    ppSeed(IDENTITY, 'phoneNumbers | countryCode, number, extension, type (string)'),
  ]),
  {
    ...must('PERSON-TYPE-NUMBER', 'Resources, Person identity', 'latitude and longitude are JSON numbers.', [
      ppSeed(IDENTITY, 'latitude, longitude (number)'),
    ]),
    governs: inIdentityReplies('addresses/[]/latitude', 'addresses/[]/longitude'),
  },
  must('PERSON-TYPE-DATE', 'Resources, Person identity', 'dateOfBirth and deathDate are strings yyyy-MM-dd.', [
    ppSeed(IDENTITY, 'datesOfBirth | dateOfBirth (date `yyyy-MM-dd`)'),
    ppSeed(IDENTITY, 'deathDate (date `yyyy-MM-dd`)'),
  ]),
  must('PERSON-TYPE-BOOLEAN', 'Resources, Person identity', 'deathIndicator is a JSON boolean.', [
    ppSeed(IDENTITY, 'deathDetails | deathIndicator (boolean)'),
  ]),
  {
    ...must(
      'PERSON-TYPE-EMAIL',
      'Resources, Person identity',
      'email values are e-mail addresses (local part @ domain).',
      [ppSeed(IDENTITY, 'emails | email (string, e-mail address)')],
    ),
    governs: inIdentityReplies('emails/[]/email'),
  },
  must(
    'PERSON-ATTR-SOURCES',
    'Resources, Source entry',
    'Every attribute object of a returned identity (names, addresses, datesOfBirth, ssns, genders, ' +
      'phoneNumbers, emails, deathDetails) carries sources[] and a clusterStatus string; where its source entries ' +
      'name native IDs, a posted attribute is attributed to the record that posted it.',
    [
      ppSeed(
        'Resources, Source entry',
        'Every person attribute object below also carries `sources[]` (array of source entries) and ' +
          '`clusterStatus` (string; the value `ACTIVE` is used).',
      ),
      ppSeed(
        'Resources, Source entry',
        'sourceId | string | | sourceName | string | | displayName | string | | nativeId | string',
      ),
    ],
  ),
  // postIdentity
  must(
    'PERSON-POST-ADDS',
    'Endpoints, /v2/postIdentity',
    'postIdentity adds the identity: afterwards nativeIdQuery by its source and native ID finds it.',
    [POST],
  ),
  must(
    'PERSON-POST-KEEPS-VALUES',
    'Endpoints, /v2/postIdentity',
    'The identity postIdentity adds holds the values posted: nativeIdQuery of the posted source shows each value it ' +
      'accepted as sent wherever it shows the member (text with the same characters, letter case, Unicode ' +
      'normalisation and spacing aside; the same number, date, time or instant); a value the deployment cannot keep ' +
      'is refused, not changed or left out.',
    [POST],
  ),
  must(
    'PERSON-POST-SAME-SOURCE-UPDATES',
    'Endpoints, /v2/postIdentity; What the service does',
    'The source plus native ID decides between create and update: re-posting them updates that record in the ' +
      'same link ID.',
    [POST, ppSeed('What the service does', 'It adds or updates identities')],
  ),
  expectation(
    'PERSON-POST-EXACT-LINKS',
    'What the service does',
    'An exact copy of a person posted from another source joins the same link ID.',
  ),
  // Search and query
  must(
    'PERSON-SEARCH-THRESHOLD',
    'Resources, Person request content options',
    'demographicsSearch returns only identities whose score is equal to or above matchScoreThreshold.',
    [THRESHOLD],
  ),
  must(
    'PERSON-SEARCH-NO-THRESHOLD',
    'Resources, Person request content options',
    'Without matchScoreThreshold no score filtering is done: the results include every result a thresholded ' +
      'search returns, unless the unthresholded list is cut (by the system maximum) at or above its score.',
    [THRESHOLD],
  ),
  must(
    'PERSON-SEARCH-ORDER',
    'Endpoints, /v2/demographicsSearch',
    'demographicsSearch results are ranked: match scores do not increase down the list.',
    [SEARCH],
  ),
  // "returns one to many ranked results" with "when absent no score filtering": a search of a held person's own data
  // (all of it, or all but its SSN), unthresholded, has that person to return, so none at all contradicts both.
  must(
    'PERSON-SEARCH-ONE-TO-MANY',
    'Endpoints, /v2/demographicsSearch',
    'demographicsSearch returns one to many results: a search without matchScoreThreshold (no score filtering) ' +
      'with the data of a person the service holds returns at least one result.',
    [SEARCH, THRESHOLD],
  ),
  // No sentence says "at most" in words: the member's name does, and "when absent the system maximum is returned" makes
  // maxSearchResults the maximum when given.
  must(
    'PERSON-SEARCH-MAX-RESULTS',
    'Resources, Person request content options',
    'demographicsSearch returns at most maxSearchResults results.',
    [MAX, PP_MAX_RESULTS],
  ),
  must(
    'PERSON-SEARCH-MAX-POSITIVE',
    'Resources, Person request content options; Limits',
    'maxSearchResults must be greater than 0: 0 and negative values are rejected.',
    [PP_MAX_RESULTS, MAX],
  ),
  must(
    'PERSON-SEARCH-MAX-DEFAULT',
    'Resources, Person request content options; Limits',
    'Without maxSearchResults the system maximum is returned: no fewer results than with a small ' +
      'maxSearchResults (the system maximum being the most the system returns).',
    [PP_MAX_RESULTS, MAX],
  ),
  must(
    'PERSON-SYSTEM-MAX-VALUE',
    'Limits',
    'The system maximum number of search results: not shown.',
    [],
    'The seed gives no value; PERSON-SEARCH-MAX-DEFAULT checks what can be observed without it.',
  ),
  expectation(
    'PERSON-SEARCH-FINDS-EXACT',
    'What the service does',
    'A search with an exact copy of a posted person returns that identity.',
  ),
  must(
    'PERSON-QUERY-BEST-MATCH',
    'Endpoints, /v2/demographicsQuery',
    'demographicsQuery returns the single best-matching identity: when it returns one, it is (one of) the ' +
      'top-ranked demographicsSearch results.',
    [QUERY],
  ),
  must(
    'PERSON-QUERY-SAME-THRESHOLD',
    'Endpoints, /v2/demographicsQuery',
    'demographicsQuery returns a match only at the threshold postIdentity matches with: a person it returns an ' +
      'identity for links to that identity when posted, and one it returns none for does not link.',
    [QUERY],
  ),
  expectation(
    'PERSON-QUERY-FINDS-EXACT',
    'What the service does',
    'demographicsQuery with an exact copy of a posted person returns that identity.',
  ),
  must(
    'PERSON-NATIVEID-QUERY',
    'Endpoints, /v2/nativeIdQuery',
    'nativeIdQuery returns the single identity that holds the given source and native ID.',
    [
      path('/v2/nativeIdQuery | returns the single identity that holds a given source plus native ID'),
      ppSeed(
        'What the service does',
        'keeps person identities made of source records, each identified by a source plus a native ID',
      ),
    ],
  ),
  must(
    'PERSON-IDQUERY-RETURNS',
    'Endpoints, /v2/identityIdQuery',
    'identityIdQuery returns the identity with the requested link ID.',
    [
      path('/v2/identityIdQuery | returns an identity by link ID'),
      ppSeed(
        'What the service does',
        'keeps person identities made of source records, each identified by a source plus a native ID, and ' +
          'addressed by a link ID',
      ),
    ],
  ),
  expectation(
    'PERSON-IDQUERY-ECHO',
    'Resources, Person reply content members',
    'identityIdQuery gives the requested link ID back in requestedLinkId.',
  ),
  // State table
  must(
    'PERSON-DEACTIVATE-EXCLUDES-MATCHING',
    'States and transitions, deactivateSourceWs',
    'A deactivated record is excluded from future matching: an exact copy posted afterwards does not join its link ID.',
    [DEACTIVATE],
  ),
  must(
    'PERSON-DEACTIVATE-VISIBLE',
    'States and transitions, deactivateSourceWs',
    'A deactivated record stays visible in API replies: nativeIdQuery still returns its identity.',
    [DEACTIVATE],
  ),
  must(
    'PERSON-REACTIVATE-ORIGINAL-LINK',
    'States and transitions, reactivateSourceWs',
    'reactivateSourceWs makes the record active again in its original link ID.',
    [REACTIVATE],
  ),
  expectation(
    'PERSON-REACTIVATE-MATCHES-AGAIN',
    'States and transitions, reactivateSourceWs',
    'A reactivated record takes part in matching again: an exact copy posted afterwards joins its link ID.',
  ),
  must(
    'PERSON-DELETE-PHYSICAL',
    'States and transitions, deleteSourceIdentity',
    'deleteSourceIdentity physically deletes the record: no query finds it and it cannot be reactivated.',
    [DELETE],
  ),
  must(
    'PERSON-DELETE-ONLY-SOURCE',
    'States and transitions, deleteSourceIdentity',
    'Deleting the only source record of an identity deletes the whole identity: identityIdQuery no longer finds ' +
      'its link ID.',
    [DELETE],
  ),
  must(
    'PERSON-DELETE-KEEPS-OTHERS',
    'States and transitions, deleteSourceIdentity',
    'Deleting one of several source records of an identity leaves the identity with the others.',
    [DELETE],
  ),
  must(
    'PERSON-MERGE-SHARED-LINK',
    'States and transitions, mergeIdentities',
    'After mergeIdentities the toRetire record is merged and inactive and both records share one link ID: the ' +
      'retired record is never an identity of its own.',
    [MERGE],
  ),
  must(
    'PERSON-UNMERGE-NEW-LINK',
    'States and transitions, unmergeIdentities',
    'unmergeIdentities makes the merged record active again in a new link ID of its own.',
    [UNMERGE],
  ),
  must(
    'PERSON-LINK-SAME-LINKID',
    'States and transitions, linkIdentities',
    'linkIdentities forces two records, named by source and native ID, into the same link ID; both stay active.',
    [LINK],
  ),
  must(
    'PERSON-UNLINK-OWN-LINKID',
    'States and transitions, unlinkIdentities',
    'unlinkIdentities splits a linked record into its own new link ID.',
    [UNLINK],
  ),
  must(
    'PERSON-UNLINK-MATCHED',
    'States and transitions, unlinkIdentities',
    'unlinkIdentities also splits records that were matched (joined by postIdentity) rather than linked.',
    [UNLINK],
  ),
  // Data sources
  must(
    'PERSON-DATASOURCE-CREATES',
    'Endpoints, /createDataSource',
    'createDataSource creates one or more data sources in one call (up to 10); a reply that reports results by ' +
      'data source name reports every name asked for.',
    [path('/createDataSource | creates one or more data sources | up to 10 per call')],
  ),
  must(
    'PERSON-DATASOURCE-LIMIT',
    'Limits',
    'createDataSource accepts at most 10 data sources per call: a call with 11 is rejected, one with 10 is not.',
    [
      ppSeed('Limits', 'createDataSource accepts at most 10 data sources per call.'),
      path('/createDataSource | creates one or more data sources | up to 10 per call'),
    ],
  ),
  must(
    'PERSON-DATASOURCE-AVAILABILITY',
    'Limits',
    'A newly added data source "can take 10 to 15 minutes to become available": within 15 minutes of its ' +
      'creation it accepts a postIdentity naming it.',
    [ppSeed('Limits', 'A newly added data source can take 10 to 15 minutes to become available.')],
  ),
  // Households
  must(
    'PERSON-HOUSEHOLD-BY-LINKID',
    'Endpoints, /householdQuery',
    'householdQuery by link ID returns the household that holds that link ID.',
    [HOUSEHOLDS],
  ),
  must(
    'PERSON-HOUSEHOLD-BY-SOURCE',
    'Endpoints, /householdQuery',
    'householdQuery by source plus native ID returns the household of the identity holding that record.',
    [HOUSEHOLDS],
  ),
  must(
    'PERSON-HOUSEHOLD-BY-ID',
    'Endpoints, /householdQuery',
    'householdQuery by household ID returns that household with the same link IDs.',
    [HOUSEHOLDS],
  ),
  expectation(
    'PERSON-HOUSEHOLD-SHARED-ADDRESS',
    'What the service does',
    'People posted at one shared address are grouped into one household.',
  ),
  // Relationships
  must(
    'PERSON-REL-ADD',
    'Endpoints, /addRelationshipService; Resources, Relationship',
    'addRelationshipService creates a relationship between two person link IDs with a verb, optional start and ' +
      'end dates and a status; a member the reply echoes holds the value sent.',
    [
      path(
        '/addRelationshipService | creates a direct relationship between two person entities identified by link ' +
          'IDs, with optional start and end dates and a status',
      ),
      ppSeed(
        'Resources, Relationship (person service)',
        'A direct relationship between two person entities identified by link IDs, with a relationship verb, ' +
          'optional start and end dates and a status.',
      ),
    ],
  ),
  must(
    'PERSON-REL-SEARCH-SUBJECT',
    'Endpoints, /searchRelationshipsService',
    'searchRelationshipsService filtered by subject link ID finds the relationship, and returns none whose ' +
      'subject is another link ID.',
    [REL_SEARCH],
  ),
  must(
    'PERSON-REL-SEARCH-OBJECT',
    'Endpoints, /searchRelationshipsService',
    'searchRelationshipsService filtered by object link ID finds the relationship, and returns none whose ' +
      'object is another link ID.',
    [REL_SEARCH],
  ),
  must(
    'PERSON-REL-SEARCH-VERB',
    'Endpoints, /searchRelationshipsService',
    'searchRelationshipsService filtered by relationship verb finds the added relationship, and returns none ' +
      'with another verb.',
    [REL_SEARCH],
  ),
  must(
    'PERSON-REL-DELETE',
    'Endpoints, /deleteRelationshipService',
    'deleteRelationshipService deletes a relationship created earlier: a search no longer finds it.',
    [path('/deleteRelationshipService | deletes a relationship created earlier')],
  ),
  // Notifications
  must(
    'PERSON-NOTIF-PAGING',
    'Events',
    'searchNotifications is a paginated feed: a page holds at most pageSize messages, hasNext is false exactly ' +
      'on the last page (where totalElements gives the count), and following hasNext reaches the messages of a ' +
      'window once each, as a read in larger pages does.',
    [FEED, path('/searchNotifications | paginated feed of notification messages for a date range')],
  ),
  must(
    'PERSON-NOTIF-RECORDS-CHANGES',
    'Events',
    'The feed describes identity-changing events "including matches, links, merges, deactivations": each merge, ' +
      'link and deactivation the run makes appears in a notification of its time window (one that names a native ' +
      "ID or link ID involved, where the feed names the run's records at all).",
    [FEED],
  ),
  must(
    'PERSON-NOTIF-PERIOD',
    'Events',
    'searchNotifications returns the feed "within a date range": a window that ends before a change, or lies ' +
      'far in the past, holds no notification of it.',
    [FEED, path('/searchNotifications | paginated feed of notification messages for a date range')],
  ),
  // Auth
  must(
    'PERSON-AUTH-REQUIRED',
    'Authentication',
    'Requests authenticate with a bearer JWT or HTTP basic credentials; a request without credentials, or with ' +
      'malformed ones, is rejected.',
    [
      ppSeed(
        'Authentication',
        'Person service: the sample requests send `Authorization: Bearer <ACCESS_TOKEN>` (a JWT); the published ' +
          'security scheme is HTTP basic with credentials `<USERNAME>` and `<PASSWORD>`.',
      ),
    ],
  ),
  must(
    'PERSON-AUTH-SCHEME-CHOICE',
    'Authentication',
    'Which scheme applies to which deployment: not shown.',
    [],
    'The profile setting person.auth chooses the scheme; no reply reveals which one a deployment expects.',
  ),
  // Limits and versioning with no observable check
  must(
    'PERSON-RATE-LIMITS',
    'Limits',
    'Rate limits and request size limits: not shown.',
    [],
    'The seed gives no limit to check; the suite only honours 429 replies.',
  ),
  must(
    'PERSON-VERSION',
    'Versioning',
    'The description is labelled 2026.1.2 (one listing 1.0.0).',
    [],
    'No operation reports its version; the profile records the label (person.schemaVersion) and ' +
      'PERSON-ENDPOINT-PATHS checks the /v2 rule.',
  ),
  // Sequences and matching properties (model-based walks, metamorphic checks, generated bad input)
  expectation(
    'PERSON-WALK-APART',
    'What the service does',
    'Persons generated far apart (different names, dates of birth, SSNs, addresses) are not joined by matching: ' +
      'postIdentity of each returns linkId null.',
  ),
  expectation(
    'PERSON-REJECTED-NO-CHANGE',
    'Errors',
    'A rejected request changes nothing: every source record keeps its state and its link ID.',
  ),
  expectation(
    'PERSON-NO-SERVER-ERROR',
    'Errors',
    "No request, valid or not, is answered with HTTP 5xx: bad input is rejected as the caller's error (HTTP 4xx " +
      'or success=false).',
  ),
  expectation(
    'PERSON-BADINPUT-GENERATED',
    'Resources, Person identity; Person request content options; Limits',
    'Structurally invalid content (wrong JSON types, missing required members, maxSearchResults not above 0, ' +
      'malformed dates and e-mail addresses, more than 10 data sources) is rejected and changes nothing.',
  ),
  expectation(
    'PERSON-SEARCH-THRESHOLD-MONOTONE',
    'Resources, Person request content options',
    'Raising matchScoreThreshold returns a subset of the results, with the same scores.',
  ),
  expectation(
    'PERSON-SEARCH-MAX-PREFIX',
    'Resources, Person request content options',
    'maxSearchResults=k returns the first k results of a larger request (results of equal score may reorder).',
  ),
  expectation(
    'PERSON-SEARCH-SELF-FIRST',
    'What the service does',
    'A search with an exact copy of a posted person returns that identity first, with the highest score.',
  ),
  expectation(
    'PERSON-MATCH-DETERMINISTIC',
    'What the service does',
    'The same search twice, with no change in between, returns the same identities and scores; the requested ' +
      'response views change neither.',
  ),
  expectation(
    'PERSON-MATCH-ONE-THRESHOLD',
    'Endpoints, /v2/demographicsQuery',
    'One match threshold explains every decision: every postIdentity that linked and every demographicsQuery ' +
      'that returned an identity had a best score at least as high as every one that did not.',
  ),
  // One shape requirement per operation. MUST where the seed lists the reply members (Resources, "Person reply content
  // members"); EXPECT where they are "not shown" (Endpoints: "Payload members of the person operations marked above ...
  // not shown"; nativeIdQuery: "request and reply members: not shown"), where the shape comes from the shared table and
  // the vendor description.
  ...personOperations.map((op) =>
    SHOWN_REPLIES.has(op.name)
      ? must(
          op.shapeRequirement,
          `Endpoints, ${op.path}; Resources, Person reply content members`,
          `${op.name} reply content has the documented members with their documented types.`,
          [ppSeed('Resources, Person reply content members', REPLY_MEMBERS[op.name]!)],
        )
      : expectation(
          op.shapeRequirement,
          `Endpoints, ${op.path}`,
          `${op.name} reply content has the members of the shared operations table and the vendor description ` +
            `(members "not shown" in the seed, read tolerantly).`,
        ),
  ),
];

/** The requirement that plays each role of the shared rules in this service (specs/common/roles.ts). */
const ROLES = serviceRoles('PERSON-', {
  lacks:
    'lifecycle.hardDeleteEffect lifecycle.hardDeleteReply lifecycle.restoreEffect lifecycle.restoreReply ' +
    'lifecycle.softDeleteEffect lifecycle.softDeleteReply mergeLink.linkReply mergeLink.mergeReply ' +
    'mergeLink.unlinkReply mergeLink.unmergeReply notifications.recordsChanges notifications.total ' +
    'query.nativeIdQuery query.postAdds relationships.add relationships.dateTime relationships.delete ' +
    'relationships.search search.resultsRequired search.sameIdentity search.scoreRange type.dateTime type.time',
  own: {
    'auth.rejected': 'PERSON-AUTH-REQUIRED',
    'data.hardDeleteData': 'PERSON-DELETE-PHYSICAL',
    'mergeLink.linkEffect': 'PERSON-LINK-SAME-LINKID',
    'mergeLink.mergeEffect': 'PERSON-MERGE-SHARED-LINK',
    'mergeLink.unlinkEffect': 'PERSON-UNLINK-OWN-LINKID',
    'mergeLink.unmergeEffect': 'PERSON-UNMERGE-NEW-LINK',
  },
});

export const personRequirements: Requirement[] = withRoles(catalogue, ROLES, personOperations);
