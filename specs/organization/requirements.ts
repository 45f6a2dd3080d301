/**
 * Requirement catalogue of the organization identity service.
 * One entry per documented rule, limit, state-table row, envelope promise, data type and auth
 * statement. MUST = stated in the seed; EXPECT = what any identity service does where the seed
 * is silent (a profile may turn an EXPECT off). Text is in our words.
 *
 * Source: organization-identity-api.md (section named in each entry).
 */
import type { Requirement } from '../common/model.js';
import { withRoles } from '../common/roles.js';
import { organizationOperations } from './operations.js';

const DOC = 'organization-identity-api.md';
const must = (id: string, section: string, text: string, untestable?: string, governs?: string[]): Requirement => ({
  id,
  level: 'MUST',
  service: 'organization',
  section: `${DOC}, ${section}`,
  text,
  ...(untestable ? { untestable } : {}),
  ...(governs ? { governs } : {}),
});
const expectation = (id: string, section: string, text: string): Requirement => ({
  id,
  level: 'EXPECT',
  service: 'organization',
  section: `${DOC}, ${section}`,
  text,
});

const catalogue: Requirement[] = [
  // What the service does
  must('ORG-ENDPOINT-PATHS', 'Endpoints', 'Each operation answers POST {base_url}/provider-link-ws/svc/<operation> with a JSON body.'),
  must(
    'ORG-VIEWS-DEFAULT',
    'What the service does',
    'When responseIdentityFormatNames is omitted the DEFAULT view is used: the reply equals the reply for ["DEFAULT"].',
  ),
  // Envelope
  must(
    'ORG-ENV-REPLY',
    'Resources, Response envelope',
    'Every reply is a JSON response envelope: success is a boolean; warnings and errors, when present, are arrays of strings; retryableError a boolean; message and unparsedJson strings.',
  ),
  must('ORG-ENV-ECHO', 'Errors', 'The request auditId and trackingId are returned in the reply.'),
  must('ORG-ERR-CARRIED', 'Errors', 'A failure is carried in the envelope: success is false and message or errors says what went wrong.'),
  expectation(
    'ORG-ERR-NOT-RETRYABLE',
    'Errors',
    'A request rejected for bad input is not marked retryableError=true (re-sending it cannot succeed).',
  ),
  // Data types
  must('ORG-TYPE-TEXT', 'Resources, Field data types', 'TEXT and CODE-SET values are JSON strings.'),
  must('ORG-TYPE-NUMBER', 'Resources, Field data types', 'NUMBER values are strings holding a number.'),
  must('ORG-TYPE-DATE', 'Resources, Field data types', 'DATE values are strings yyyy-MM-dd.'),
  must('ORG-TYPE-TIME', 'Resources, Field data types', 'TIME values are strings HH:mm.'),
  must('ORG-TYPE-BOOLEAN', 'Resources, Field data types', 'BOOLEAN values are JSON booleans.'),
  must('ORG-TYPE-DATETIME', 'Resources, Field data types', 'DATE-TIME values are ISO 8601 UTC timestamps.'),
  must(
    'ORG-IDENTITY-REQUIRED',
    'Resources, Organization identity',
    'content.identity is required in postIdentity, demographicsSearch and demographicsQuery; a request without it is rejected.',
  ),
  expectation(
    'ORG-BADINPUT-REJECTED',
    'Resources, Field data types',
    'A request whose body is not JSON, or whose DATE or TIME values are malformed, is rejected.',
  ),
  // postIdentity
  must('ORG-POST-ADDS', 'Endpoints, rule 2', 'postIdentity adds the posted identity: afterwards nativeIdQuery by its source finds it.'),
  must(
    'ORG-POST-EVENTS',
    'Endpoints, rule 2; Events',
    'postIdentity reports generated events in content.events (an array when present).',
    undefined,
    ['postIdentity:/content/events'],
  ),
  must(
    'ORG-POST-LINKID-NULL',
    'Endpoints, rule 2',
    "postIdentity returns linkId null when the posted record matched no existing identity, and the matched identity's link ID when it did.",
  ),
  expectation(
    'ORG-POST-SAME-SOURCE-UPDATES',
    'What the service does',
    'Re-posting the same source name and native ID updates that source record; it never creates a second identity.',
  ),
  // Search and query
  must(
    'ORG-SEARCH-THRESHOLD',
    'Endpoints, rule 1',
    'demographicsSearch returns only identities whose matchScore is at least matchScoreThreshold.',
  ),
  must('ORG-SEARCH-ORDER', 'Endpoints, demographicsSearch', 'searchResults are ordered best to worst (non-increasing matchScore).'),
  must(
    'ORG-SEARCH-RESULTS-REQUIRED',
    'Endpoints, demographicsSearch',
    'searchResults is always present; it is empty when nothing matches.',
    undefined,
    ['demographicsSearch:/content/searchResults'],
  ),
  must('ORG-SEARCH-MAX-RESULTS', 'Endpoints, demographicsSearch; Limits', 'demographicsSearch returns at most maxSearchResults results.'),
  must(
    'ORG-SEARCH-MAX-POSITIVE',
    'Endpoints, rule 1; Limits',
    'maxSearchResults must be greater than 0: 0 and negative values are rejected.',
  ),
  must('ORG-SEARCH-SCORE-RANGE', 'Resources, Search result; Limits', 'Every matchScore lies between 0.0 and 1.0.', undefined, [
    'demographicsSearch:/content/searchResults/[]/matchScore',
  ]),
  must(
    'ORG-SEARCH-SAME-IDENTITY',
    'Resources, Search result',
    'Every search result carries sameIdentity with a value in {Y, U, N}.',
    undefined,
    ['demographicsSearch:/content/searchResults/[]/sameIdentity'],
  ),
  expectation('ORG-SEARCH-FINDS-EXACT', 'What the service does', 'A search with an exact copy of a posted identity returns that identity.'),
  must(
    'ORG-QUERY-BEST-MATCH',
    'What the service does',
    'demographicsQuery returns the best match: when it returns an identity, that identity is the top demographicsSearch result.',
  ),
  expectation(
    'ORG-QUERY-FINDS-EXACT',
    'What the service does',
    'demographicsQuery with an exact copy of a posted identity returns that identity.',
  ),
  must('ORG-NATIVEID-QUERY', 'What the service does', 'nativeIdQuery returns the identity that holds the named source record.'),
  must('ORG-IDQUERY-RETURNS', 'What the service does', 'identityIdQuery returns the identity with the requested link ID.'),
  must('ORG-IDQUERY-ECHO', 'Endpoints, rule 3', 'identityIdQuery echoes the requested link ID in requestedLinkId.', undefined, [
    'identityIdQuery:/content/requestedLinkId',
  ]),
  // State table
  must(
    'ORG-SOFTDELETE-REPLY',
    'States and transitions, softDeleteSource',
    'softDeleteSource replies with linkIdsSoftDeleted and linkIdsModified, naming the identity that held the source.',
  ),
  must(
    'ORG-SOFTDELETE-EFFECT',
    'States and transitions, softDeleteSource',
    'After softDeleteSource the source record is no longer active in its identity.',
  ),
  must(
    'ORG-RESTORE-REPLY',
    'States and transitions, restoreSource',
    'restoreSource replies with linkIdsModified and linkIdCreated, naming the identity the source returned to.',
  ),
  must(
    'ORG-RESTORE-EFFECT',
    'States and transitions, restoreSource',
    'After restoreSource the soft-deleted source record is active again.',
  ),
  must(
    'ORG-HARDDELETE-REPLY',
    'States and transitions, deleteSourceIdentity',
    'deleteSourceIdentity replies with linkIdsModified and linkIdsDeleted; an identity whose only source was deleted is listed as deleted.',
  ),
  must(
    'ORG-HARDDELETE-EFFECT',
    'States and transitions, deleteSourceIdentity',
    'After deleteSourceIdentity all information of the source is removed: it is found by no query and cannot be restored.',
  ),
  must('ORG-MERGE-REPLY', 'States and transitions, mergeIdentities', "mergeIdentities replies with the surviving identity's linkId."),
  must(
    'ORG-MERGE-EFFECT',
    'States and transitions, mergeIdentities',
    'After mergeIdentities a single surviving identity results: the retired source no longer resolves to an identity of its own.',
  ),
  must('ORG-UNMERGE-REPLY', 'States and transitions, unmergeIdentities', 'unmergeIdentities replies with unmergedId and unmergedFromId.'),
  must(
    'ORG-UNMERGE-EFFECT',
    'States and transitions, unmergeIdentities',
    'After unmergeIdentities the unmerged source is active in a new identity, separate from the one it was unmerged from.',
  ),
  must(
    'ORG-LINK-REPLY',
    'States and transitions, linkIdentities',
    'linkIdentities replies with the linkId of the identity the source was linked into.',
  ),
  must(
    'ORG-LINK-EFFECT',
    'States and transitions, linkIdentities',
    'After linkIdentities both sources are active in the identity of linkToSource.',
  ),
  must('ORG-UNLINK-REPLY', 'States and transitions, unlinkIdentities', 'unlinkIdentities replies with unlinkedId and unlinkedFromId.'),
  must(
    'ORG-UNLINK-EFFECT',
    'States and transitions, unlinkIdentities',
    'After unlinkIdentities the source is active in a separate identity.',
  ),
  // Relationships
  must(
    'ORG-REL-ADD',
    'What the service does; Endpoints',
    'addRelationshipService adds the relationship and replies with it, including its id.',
  ),
  must('ORG-REL-SEARCH', 'What the service does; Endpoints', 'searchRelationshipsService finds an added relationship by its criteria.'),
  must(
    'ORG-REL-DELETE',
    'What the service does; Endpoints',
    'deleteRelationshipService deletes the relationship (reply echoes its id); a search no longer finds it.',
  ),
  // Notifications
  must(
    'ORG-NOTIF-PAGING',
    'Events',
    'searchNotifications pages hold at most pageSize notifications and hasNext is false exactly on the last page.',
  ),
  must(
    'ORG-NOTIF-TOTAL',
    'Events',
    'totalElements gives the total count of notifications in the window: it equals the sum of the page sizes.',
  ),
  // "searchNotifications returns a paginated feed of notifications for a date range; `hasNext` tells whether
  // more pages exist and `totalElements` gives the total count": the pages of a window are a partition of it.
  must(
    'ORG-NOTIF-NO-DUPLICATES',
    'Events',
    'The pages of a closed window hold every notification of it once: walking them returns no notification twice (a paginated feed whose totalElements gives the total count).',
  ),
  must(
    'ORG-NOTIF-PERIOD',
    'Events',
    'searchNotifications returns the notifications "for a date range": a window that ends before a change, or lies far in the past, holds no notification of it.',
  ),
  expectation('ORG-NOTIF-RECORDS-CHANGES', 'Events', 'Identity changes the run made appear in the notifications of their time window.'),
  // Auth
  must(
    'ORG-AUTH-BEARER',
    'Authentication',
    'Every request must carry Authorization: Bearer <JWT>; a request without it, or with a malformed token, is rejected.',
  ),
  // Limits and versioning with no observable check
  must(
    'ORG-RATE-LIMITS',
    'Limits',
    'Rate limits: not shown.',
    'The seed gives no rate limit to check; the suite only honours 429 replies.',
  ),
  must(
    'ORG-VERSION',
    'Versioning',
    'The interface version is 2026.1.2 and operation paths carry no version segment.',
    'No operation reports the interface version; the path rule is exercised by ORG-ENDPOINT-PATHS.',
  ),
  // Sequences and matching properties (model-based walks, metamorphic checks, generated bad input)
  expectation(
    'ORG-WALK-APART',
    'What the service does',
    'Identities generated far apart (different names, addresses, identifiers) are not joined by matching: postIdentity of each returns linkId null.',
  ),
  expectation(
    'ORG-REJECTED-NO-CHANGE',
    'Errors',
    'A rejected request changes nothing: every source record keeps its state and its identity.',
  ),
  expectation(
    'ORG-NO-SERVER-ERROR',
    'Errors',
    "No request, valid or not, is answered with HTTP 5xx: bad input is rejected as the caller's error (HTTP 4xx or success=false).",
  ),
  expectation(
    'ORG-BADINPUT-GENERATED',
    'Resources, Field data types; Endpoints',
    'Structurally invalid content (wrong JSON types, missing required members, out-of-range numbers, malformed DATE, TIME and DATE-TIME values) is rejected and changes nothing.',
  ),
  expectation(
    'ORG-SEARCH-THRESHOLD-MONOTONE',
    'Endpoints, rule 1',
    'Raising matchScoreThreshold returns a subset of the results, with the same scores.',
  ),
  expectation(
    'ORG-SEARCH-MAX-PREFIX',
    'Endpoints, demographicsSearch',
    'maxSearchResults=k returns the first k results of a larger request (results of equal score may reorder).',
  ),
  expectation(
    'ORG-SEARCH-SELF-FIRST',
    'What the service does',
    'A search with an exact copy of a posted identity returns that identity first, with the highest score.',
  ),
  expectation(
    'ORG-MATCH-DETERMINISTIC',
    'What the service does',
    'The same search twice, with no change in between, returns the same identities and scores; the requested response views change neither.',
  ),
  expectation(
    'ORG-MATCH-ONE-THRESHOLD',
    'What the service does',
    'One match threshold explains every decision: every postIdentity that linked and every demographicsQuery that returned an identity had a best score at least as high as every one that did not.',
  ),
  // One shape requirement per operation: the reply content has the documented members and types.
  ...organizationOperations.map((op) =>
    must(op.shapeRequirement, `Endpoints, ${op.name}`, `${op.name} reply content has the documented members with their documented types.`),
  ),
];

/** The requirement that plays each role of the shared rules in this service (specs/common/roles.ts). */
const ROLES: Record<string, string> = {
  'auth.rejected': 'ORG-AUTH-BEARER',
  'badInput.generated': 'ORG-BADINPUT-GENERATED',
  'badInput.noServerError': 'ORG-NO-SERVER-ERROR',
  'badInput.rejectedNoChange': 'ORG-REJECTED-NO-CHANGE',
  'data.hardDeleteData': 'ORG-HARDDELETE-EFFECT',
  'envelope.echo': 'ORG-ENV-ECHO',
  'envelope.errCarried': 'ORG-ERR-CARRIED',
  'envelope.paths': 'ORG-ENDPOINT-PATHS',
  'envelope.reply': 'ORG-ENV-REPLY',
  'envelope.viewsDefault': 'ORG-VIEWS-DEFAULT',
  'lifecycle.hardDeleteEffect': 'ORG-HARDDELETE-EFFECT',
  'lifecycle.hardDeleteReply': 'ORG-HARDDELETE-REPLY',
  'lifecycle.restoreEffect': 'ORG-RESTORE-EFFECT',
  'lifecycle.restoreReply': 'ORG-RESTORE-REPLY',
  'lifecycle.softDeleteEffect': 'ORG-SOFTDELETE-EFFECT',
  'lifecycle.softDeleteReply': 'ORG-SOFTDELETE-REPLY',
  'mergeLink.linkEffect': 'ORG-LINK-EFFECT',
  'mergeLink.linkReply': 'ORG-LINK-REPLY',
  'mergeLink.mergeEffect': 'ORG-MERGE-EFFECT',
  'mergeLink.mergeReply': 'ORG-MERGE-REPLY',
  'mergeLink.unlinkEffect': 'ORG-UNLINK-EFFECT',
  'mergeLink.unlinkReply': 'ORG-UNLINK-REPLY',
  'mergeLink.unmergeEffect': 'ORG-UNMERGE-EFFECT',
  'mergeLink.unmergeReply': 'ORG-UNMERGE-REPLY',
  'metamorphic.deterministic': 'ORG-MATCH-DETERMINISTIC',
  'metamorphic.maxPrefix': 'ORG-SEARCH-MAX-PREFIX',
  'metamorphic.oneThreshold': 'ORG-MATCH-ONE-THRESHOLD',
  'metamorphic.selfFirst': 'ORG-SEARCH-SELF-FIRST',
  'metamorphic.thresholdMonotone': 'ORG-SEARCH-THRESHOLD-MONOTONE',
  'notificationEvents.period': 'ORG-NOTIF-PERIOD',
  'notifications.noDuplicates': 'ORG-NOTIF-NO-DUPLICATES',
  'notifications.paging': 'ORG-NOTIF-PAGING',
  'notifications.recordsChanges': 'ORG-NOTIF-RECORDS-CHANGES',
  'notifications.total': 'ORG-NOTIF-TOTAL',
  'query.bestMatch': 'ORG-QUERY-BEST-MATCH',
  'query.findsExact': 'ORG-QUERY-FINDS-EXACT',
  'query.idQueryEcho': 'ORG-IDQUERY-ECHO',
  'query.idQueryReturns': 'ORG-IDQUERY-RETURNS',
  'query.nativeIdQuery': 'ORG-NATIVEID-QUERY',
  'query.postAdds': 'ORG-POST-ADDS',
  'relationships.add': 'ORG-REL-ADD',
  'relationships.dateTime': 'ORG-TYPE-DATETIME',
  'relationships.delete': 'ORG-REL-DELETE',
  'relationships.search': 'ORG-REL-SEARCH',
  'search.findsExact': 'ORG-SEARCH-FINDS-EXACT',
  'search.maxPositive': 'ORG-SEARCH-MAX-POSITIVE',
  'search.maxResults': 'ORG-SEARCH-MAX-RESULTS',
  'search.order': 'ORG-SEARCH-ORDER',
  'search.resultsRequired': 'ORG-SEARCH-RESULTS-REQUIRED',
  'search.sameIdentity': 'ORG-SEARCH-SAME-IDENTITY',
  'search.scoreRange': 'ORG-SEARCH-SCORE-RANGE',
  'search.threshold': 'ORG-SEARCH-THRESHOLD',
  'type.boolean': 'ORG-TYPE-BOOLEAN',
  'type.date': 'ORG-TYPE-DATE',
  'type.dateTime': 'ORG-TYPE-DATETIME',
  'type.number': 'ORG-TYPE-NUMBER',
  'type.text': 'ORG-TYPE-TEXT',
  'type.time': 'ORG-TYPE-TIME',
  'walk.apart': 'ORG-WALK-APART',
  'walk.noServerError': 'ORG-NO-SERVER-ERROR',
  'walk.post': 'ORG-POST-ADDS',
  'walk.rejectedNoChange': 'ORG-REJECTED-NO-CHANGE',
  'walk.update': 'ORG-POST-SAME-SOURCE-UPDATES',
};

export const organizationRequirements: Requirement[] = withRoles(catalogue, ROLES, organizationOperations);
