/**
 * Requirement catalogue of the person identity service: one entry per documented rule, limit,
 * state-table row, envelope promise, data type and auth statement. MUST = stated in the seed;
 * EXPECT = what any identity service does where the seed is silent (a profile may turn an EXPECT
 * off). Text is in our words.
 *
 * Source: person-provider-identity-api.md (section named in each entry).
 */
import type { Requirement } from '../common/model.js';
import { withRoles } from '../common/roles.js';
import { personOperations } from './operations.js';

const DOC = 'person-provider-identity-api.md';
const must = (id: string, section: string, text: string, untestable?: string): Requirement => ({
  id,
  level: 'MUST',
  service: 'person',
  section: `${DOC}, ${section}`,
  text,
  ...(untestable ? { untestable } : {}),
});
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
const expectation = (id: string, section: string, text: string): Requirement => ({
  id,
  level: 'EXPECT',
  service: 'person',
  section: `${DOC}, ${section}`,
  text,
});
/** Operations whose reply members the seed lists (Resources, "Person reply content members"). */
const SHOWN_REPLIES = new Set(['postIdentity', 'demographicsQuery', 'demographicsSearch', 'identityIdQuery']);

const catalogue: Requirement[] = [
  // Endpoints, envelope, errors
  must(
    'PERSON-ENDPOINT-PATHS',
    'Endpoints, Person service; Versioning',
    'Each operation answers POST {base_url}/link-ws/svc/<path> with JSON; postIdentity, demographicsSearch, demographicsQuery, identityIdQuery and nativeIdQuery carry a /v2 segment, the others none.',
  ),
  must(
    'PERSON-ENV-REPLY',
    'Resources, Envelope',
    'Every reply is a JSON reply envelope: success is a boolean; warnings and errors, when present, arrays of strings; retryableError a boolean; message and unparsedJson strings.',
  ),
  expectation(
    'PERSON-ENV-ECHO',
    'Resources, Envelope',
    'The request auditId and trackingId come back in the reply envelope (as the shared envelope does for the organization service).',
  ),
  must(
    'PERSON-ENV-CUSTOMERID',
    'Resources, Envelope',
    "The person request envelope carries customerId: a request naming the deployment's customer ID is accepted.",
  ),
  must(
    'PERSON-ERR-CARRIED',
    'Errors',
    'A failure is reported through the reply envelope: success is false and message or errors says what went wrong.',
  ),
  expectation('PERSON-ERR-NOT-RETRYABLE', 'Errors', 'A request rejected for bad input is not marked retryableError=true.'),
  expectation(
    'PERSON-BADINPUT-REJECTED',
    'Resources, Person identity',
    'A body that is not JSON, a malformed date, or a postIdentity without an identity is rejected.',
  ),
  // Request options and views
  must(
    'PERSON-ENRICH-DEFAULT',
    'Resources, Person request content options',
    'includeEnrichData defaults to false: omitting it gives the same reply as sending false, and true is accepted.',
  ),
  expectation(
    'PERSON-VIEWS-DEFAULT',
    'Resources, Person request content options',
    'Omitting responseIdentityFormatNames gives the same identity as asking for ["DEFAULT"].',
  ),
  // Data types
  must('PERSON-TYPE-TEXT', 'Resources, Person identity', 'String fields of a returned identity are JSON strings.'),
  {
    ...must('PERSON-TYPE-NUMBER', 'Resources, Person identity', 'latitude and longitude are JSON numbers.'),
    governs: inIdentityReplies('addresses/[]/latitude', 'addresses/[]/longitude'),
  },
  must('PERSON-TYPE-DATE', 'Resources, Person identity', 'dateOfBirth and deathDate are strings yyyy-MM-dd.'),
  must('PERSON-TYPE-BOOLEAN', 'Resources, Person identity', 'deathIndicator is a JSON boolean.'),
  {
    ...must('PERSON-TYPE-EMAIL', 'Resources, Person identity', 'email values are e-mail addresses.'),
    governs: inIdentityReplies('emails/[]/email'),
  },
  must(
    'PERSON-ATTR-SOURCES',
    'Resources, Source entry',
    'Every attribute object of a returned identity (names, addresses, datesOfBirth, ssns, genders, phoneNumbers, emails, deathDetails) carries sources[] naming the source record that asserted it (nativeId) and a clusterStatus string.',
  ),
  // postIdentity
  must(
    'PERSON-POST-ADDS',
    'Endpoints, /v2/postIdentity',
    'postIdentity adds the identity: afterwards nativeIdQuery by its source and native ID finds it.',
  ),
  must(
    'PERSON-POST-SAME-SOURCE-UPDATES',
    'Endpoints, /v2/postIdentity; What the service does',
    'The source plus native ID decides between create and update: re-posting them updates that record in the same link ID.',
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
  ),
  must(
    'PERSON-SEARCH-NO-THRESHOLD',
    'Resources, Person request content options',
    'Without matchScoreThreshold no score filtering is done: the results include every result a thresholded search returns.',
  ),
  must(
    'PERSON-SEARCH-ORDER',
    'Endpoints, /v2/demographicsSearch',
    'demographicsSearch results are ranked: match scores do not increase down the list.',
  ),
  must(
    'PERSON-SEARCH-MAX-RESULTS',
    'Resources, Person request content options',
    'demographicsSearch returns at most maxSearchResults results.',
  ),
  must(
    'PERSON-SEARCH-MAX-POSITIVE',
    'Resources, Person request content options; Limits',
    'maxSearchResults must be greater than 0: 0 and negative values are rejected.',
  ),
  must(
    'PERSON-SEARCH-MAX-DEFAULT',
    'Resources, Person request content options; Limits',
    'Without maxSearchResults the system maximum is returned: no fewer results than with a small maxSearchResults.',
  ),
  must(
    'PERSON-SYSTEM-MAX-VALUE',
    'Limits',
    'The system maximum number of search results: not shown.',
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
    'demographicsQuery returns the single best-matching identity: when it returns one, it is the top demographicsSearch result.',
  ),
  must(
    'PERSON-QUERY-SAME-THRESHOLD',
    'Endpoints, /v2/demographicsQuery',
    'demographicsQuery returns a match only at the threshold postIdentity matches with: a person it returns an identity for links to that identity when posted, and one it returns none for does not link.',
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
  ),
  must('PERSON-IDQUERY-RETURNS', 'Endpoints, /v2/identityIdQuery', 'identityIdQuery returns the identity with the requested link ID.'),
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
  ),
  must(
    'PERSON-DEACTIVATE-VISIBLE',
    'States and transitions, deactivateSourceWs',
    'A deactivated record stays visible in API replies: nativeIdQuery still returns its identity.',
  ),
  must(
    'PERSON-REACTIVATE-ORIGINAL-LINK',
    'States and transitions, reactivateSourceWs',
    'reactivateSourceWs makes the record active again in its original link ID.',
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
  ),
  must(
    'PERSON-DELETE-ONLY-SOURCE',
    'States and transitions, deleteSourceIdentity',
    'Deleting the only source record of an identity deletes the whole identity: identityIdQuery no longer finds its link ID.',
  ),
  must(
    'PERSON-DELETE-KEEPS-OTHERS',
    'States and transitions, deleteSourceIdentity',
    'Deleting one of several source records of an identity leaves the identity with the others.',
  ),
  must(
    'PERSON-MERGE-SHARED-LINK',
    'States and transitions, mergeIdentities',
    'After mergeIdentities the toRetire record is merged and inactive and both records share one link ID: the retired record is never an identity of its own.',
  ),
  must(
    'PERSON-UNMERGE-NEW-LINK',
    'States and transitions, unmergeIdentities',
    'unmergeIdentities makes the merged record active again in a new link ID of its own.',
  ),
  must(
    'PERSON-LINK-SAME-LINKID',
    'States and transitions, linkIdentities',
    'linkIdentities forces two records, named by source and native ID, into the same link ID; both stay active.',
  ),
  must(
    'PERSON-UNLINK-OWN-LINKID',
    'States and transitions, unlinkIdentities',
    'unlinkIdentities splits a linked record into its own new link ID.',
  ),
  must(
    'PERSON-UNLINK-MATCHED',
    'States and transitions, unlinkIdentities',
    'unlinkIdentities also splits records that were matched (joined by postIdentity) rather than linked.',
  ),
  // Data sources
  must(
    'PERSON-DATASOURCE-CREATES',
    'Endpoints, /createDataSource',
    'createDataSource creates one or more data sources in one call (up to 10).',
  ),
  must('PERSON-DATASOURCE-LIMIT', 'Limits', 'createDataSource accepts at most 10 data sources per call: a call with 11 is rejected.'),
  must(
    'PERSON-DATASOURCE-AVAILABILITY',
    'Limits',
    'A newly added data source "can take 10 to 15 minutes to become available": within 15 minutes of its creation it accepts a postIdentity naming it.',
  ),
  // Households
  must(
    'PERSON-HOUSEHOLD-BY-LINKID',
    'Endpoints, /householdQuery',
    'householdQuery by link ID returns the household that holds that link ID.',
  ),
  must(
    'PERSON-HOUSEHOLD-BY-SOURCE',
    'Endpoints, /householdQuery',
    'householdQuery by source plus native ID returns the household of the identity holding that record.',
  ),
  must(
    'PERSON-HOUSEHOLD-BY-ID',
    'Endpoints, /householdQuery',
    'householdQuery by household ID returns that household with the same link IDs.',
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
    'addRelationshipService creates a relationship between two person link IDs with a verb, optional start and end dates and a status.',
  ),
  must(
    'PERSON-REL-SEARCH-SUBJECT',
    'Endpoints, /searchRelationshipsService',
    'searchRelationshipsService filtered by subject link ID finds the relationship.',
  ),
  must(
    'PERSON-REL-SEARCH-OBJECT',
    'Endpoints, /searchRelationshipsService',
    'searchRelationshipsService filtered by object link ID finds the relationship.',
  ),
  must(
    'PERSON-REL-SEARCH-VERB',
    'Endpoints, /searchRelationshipsService',
    'searchRelationshipsService filtered by relationship verb returns only relationships with that verb, including the added one.',
  ),
  must(
    'PERSON-REL-DELETE',
    'Endpoints, /deleteRelationshipService',
    'deleteRelationshipService deletes a relationship created earlier: a search no longer finds it.',
  ),
  // Notifications
  must(
    'PERSON-NOTIF-PAGING',
    'Events',
    'searchNotifications is a paginated feed: a page holds at most pageSize messages, hasNext is false exactly on the last page, and the pages of a window hold every message once.',
  ),
  must(
    'PERSON-NOTIF-RECORDS-CHANGES',
    'Events',
    'The feed describes identity-changing events "including matches, links, merges, deactivations": each merge, link and deactivation the run makes appears in a notification of its time window (one that names a native ID or link ID involved).',
  ),
  must(
    'PERSON-NOTIF-PERIOD',
    'Events',
    'searchNotifications returns the feed "within a date range": a window that ends before a change, or lies far in the past, holds no notification of it.',
  ),
  // Auth
  must(
    'PERSON-AUTH-REQUIRED',
    'Authentication',
    'Requests authenticate with a bearer JWT or HTTP basic credentials; a request without credentials, or with malformed ones, is rejected.',
  ),
  must(
    'PERSON-AUTH-SCHEME-CHOICE',
    'Authentication',
    'Which scheme applies to which deployment: not shown.',
    'The profile setting person.auth chooses the scheme; no reply reveals which one a deployment expects.',
  ),
  // Limits and versioning with no observable check
  must(
    'PERSON-RATE-LIMITS',
    'Limits',
    'Rate limits and request size limits: not shown.',
    'The seed gives no limit to check; the suite only honours 429 replies.',
  ),
  must(
    'PERSON-VERSION',
    'Versioning',
    'The description is labelled 2026.1.2 (one listing 1.0.0).',
    'No operation reports its version; the profile records the label (person.schemaVersion) and PERSON-ENDPOINT-PATHS checks the /v2 rule.',
  ),
  // Sequences and matching properties (model-based walks, metamorphic checks, generated bad input)
  expectation(
    'PERSON-WALK-APART',
    'What the service does',
    'Persons generated far apart (different names, dates of birth, SSNs, addresses) are not joined by matching: postIdentity of each returns linkId null.',
  ),
  expectation(
    'PERSON-REJECTED-NO-CHANGE',
    'Errors',
    'A rejected request changes nothing: every source record keeps its state and its link ID.',
  ),
  expectation(
    'PERSON-NO-SERVER-ERROR',
    'Errors',
    "No request, valid or not, is answered with HTTP 5xx: bad input is rejected as the caller's error (HTTP 4xx or success=false).",
  ),
  expectation(
    'PERSON-BADINPUT-GENERATED',
    'Resources, Person identity; Person request content options; Limits',
    'Structurally invalid content (wrong JSON types, missing required members, maxSearchResults not above 0, malformed dates and e-mail addresses, more than 10 data sources) is rejected and changes nothing.',
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
    'The same search twice, with no change in between, returns the same identities and scores; the requested response views change neither.',
  ),
  expectation(
    'PERSON-MATCH-ONE-THRESHOLD',
    'Endpoints, /v2/demographicsQuery',
    'One match threshold explains every decision: every postIdentity that linked and every demographicsQuery that returned an identity had a best score at least as high as every one that did not.',
  ),
  // One shape requirement per operation. MUST where the seed lists the reply members (Resources,
  // "Person reply content members"); EXPECT where they are "not shown" (Endpoints: "Payload members
  // of the person operations marked above ... not shown"; nativeIdQuery: "request and reply members:
  // not shown"), where the shape comes from the shared table and the vendor description.
  ...personOperations.map((op) =>
    SHOWN_REPLIES.has(op.name)
      ? must(
          op.shapeRequirement,
          `Endpoints, ${op.path}; Resources, Person reply content members`,
          `${op.name} reply content has the documented members with their documented types.`,
        )
      : expectation(
          op.shapeRequirement,
          `Endpoints, ${op.path}`,
          `${op.name} reply content has the members of the shared operations table and the vendor description (members "not shown" in the seed, read tolerantly).`,
        ),
  ),
];

/** The requirement that plays each role of the shared rules in this service (specs/common/roles.ts). */
const ROLES: Record<string, string> = {
  'auth.rejected': 'PERSON-AUTH-REQUIRED',
  'badInput.dataSourceLimit': 'PERSON-DATASOURCE-LIMIT',
  'badInput.generated': 'PERSON-BADINPUT-GENERATED',
  'badInput.noServerError': 'PERSON-NO-SERVER-ERROR',
  'badInput.rejectedNoChange': 'PERSON-REJECTED-NO-CHANGE',
  'data.hardDeleteData': 'PERSON-DELETE-PHYSICAL',
  'envelope.echo': 'PERSON-ENV-ECHO',
  'envelope.errCarried': 'PERSON-ERR-CARRIED',
  'envelope.paths': 'PERSON-ENDPOINT-PATHS',
  'envelope.reply': 'PERSON-ENV-REPLY',
  'envelope.viewsDefault': 'PERSON-VIEWS-DEFAULT',
  'mergeLink.linkEffect': 'PERSON-LINK-SAME-LINKID',
  'mergeLink.mergeEffect': 'PERSON-MERGE-SHARED-LINK',
  'mergeLink.unlinkEffect': 'PERSON-UNLINK-OWN-LINKID',
  'mergeLink.unmergeEffect': 'PERSON-UNMERGE-NEW-LINK',
  'metamorphic.deterministic': 'PERSON-MATCH-DETERMINISTIC',
  'metamorphic.maxPrefix': 'PERSON-SEARCH-MAX-PREFIX',
  'metamorphic.oneThreshold': 'PERSON-MATCH-ONE-THRESHOLD',
  'metamorphic.selfFirst': 'PERSON-SEARCH-SELF-FIRST',
  'metamorphic.thresholdMonotone': 'PERSON-SEARCH-THRESHOLD-MONOTONE',
  'notificationEvents.changes': 'PERSON-NOTIF-RECORDS-CHANGES',
  'notificationEvents.period': 'PERSON-NOTIF-PERIOD',
  'notifications.noDuplicates': 'PERSON-NOTIF-PAGING',
  'notifications.paging': 'PERSON-NOTIF-PAGING',
  'query.bestMatch': 'PERSON-QUERY-BEST-MATCH',
  'query.findsExact': 'PERSON-QUERY-FINDS-EXACT',
  'query.idQueryEcho': 'PERSON-IDQUERY-ECHO',
  'query.idQueryReturns': 'PERSON-IDQUERY-RETURNS',
  'search.findsExact': 'PERSON-SEARCH-FINDS-EXACT',
  'search.maxPositive': 'PERSON-SEARCH-MAX-POSITIVE',
  'search.maxResults': 'PERSON-SEARCH-MAX-RESULTS',
  'search.order': 'PERSON-SEARCH-ORDER',
  'search.threshold': 'PERSON-SEARCH-THRESHOLD',
  'type.boolean': 'PERSON-TYPE-BOOLEAN',
  'type.date': 'PERSON-TYPE-DATE',
  'type.email': 'PERSON-TYPE-EMAIL',
  'type.number': 'PERSON-TYPE-NUMBER',
  'type.text': 'PERSON-TYPE-TEXT',
  'walk.apart': 'PERSON-WALK-APART',
  'walk.noServerError': 'PERSON-NO-SERVER-ERROR',
  'walk.post': 'PERSON-POST-ADDS',
  'walk.rejectedNoChange': 'PERSON-REJECTED-NO-CHANGE',
  'walk.update': 'PERSON-POST-SAME-SOURCE-UPDATES',
};

export const personRequirements: Requirement[] = withRoles(catalogue, ROLES, personOperations);
