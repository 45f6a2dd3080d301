/**
 * Requirement catalogue of the organization identity service. One entry per documented rule, limit, state-table row,
 * envelope promise, data type and auth statement. MUST = stated in the seed; EXPECT = what any identity service does
 * where the seed is silent (a profile may turn an EXPECT off). Text is in our words.
 *
 * Source: organization-identity-api.md (section named in each entry).
 */
import type { Requirement } from '../common/model.js';
import { requirementEntries } from '../common/requirement-entries.js';
import { serviceRoles, withRoles } from '../common/roles.js';
import { type SeedCitation, orgSeed } from '../common/seed.js';
import { organizationOperations } from './operations.js';
import { HARD_DELETE, LINK, MERGE, RESTORE, SOFT_DELETE, UNLINK, UNMERGE } from './sentences.js';

const { must, expectation } = requirementEntries('organization');

// The sentences the requirements rest on (organization-identity-api.md).
const WHAT = 'What the service does';
const ENDPOINTS = 'Endpoints';
const TYPES = 'Resources and their fields, Field data types';
const OPERATIONS = orgSeed(
  WHAT,
  'Operations: add an identity; search by demographics (ranked candidates); query by demographics (best match); ' +
    'query by link ID; query by source name and native ID',
);
const RELATIONSHIPS = orgSeed(
  WHAT,
  'merge, unmerge, link and unlink identities; add, search and delete relationships between identities',
);
const ARRAYS = orgSeed(ENDPOINTS, 'In the tables `content` members are listed; `[]` marks an array.');
const SEARCH_ROW = orgSeed(
  ENDPOINTS,
  'demographicsSearch | identity (required), matchScoreThreshold (number), maxSearchResults (integer), ' +
    'responseIdentityFormatNames[] | searchResults[] (required; search results ordered best to worst, empty when ' +
    'no match)',
);
const RULE_1 = orgSeed(
  'Endpoints, rule 1',
  'demographicsSearch returns only identities whose match score is greater than or equal to ' +
    '`matchScoreThreshold`; `maxSearchResults` must be greater than 0.',
);
const RULE_2 = orgSeed(
  'Endpoints, rule 2',
  'postIdentity adds the posted identity and reports generated events in `events`; `linkId` is null when there ' +
    'is no match.',
);
const FEED = orgSeed(
  'Events',
  'searchNotifications returns a paginated feed of notifications for a date range (`startDate`, `endDate`, ' +
    '`pageNumber`, `pageSize`); `hasNext` tells whether more pages exist and `totalElements` gives the total ' +
    'count.',
);
const SOURCE_REFERENCE = orgSeed(
  'Resources and their fields, Source reference',
  'Used wherever a source is named (`source`, `sourceToSoftDelete`, `toSurviveSource`, `toRetireSource`, ' +
    '`unmergeFromSource`, `unmergeSource`, `linkToSource`, `unlinkFromSource`).',
);
const IDENTITY_MEMBERS = orgSeed(
  'Resources and their fields, Organization identity',
  'All members are optional arrays of objects unless stated.',
);
/**
 * Each operation's row of the Endpoints table (request content | reply content), and the resource tables its reply
 * members use.
 */
const OPERATION_ROWS: Record<string, SeedCitation[]> = {
  postIdentity: [
    orgSeed(
      ENDPOINTS,
      'postIdentity | identity (required, organization identity), responseIdentityFormatNames[] (string) | ' +
        'identityGroupedBySource[], customerSources[], linkIdentity, linkId (string, null if no match), identity, ' +
        'domains[], customizedIdentities (object), events[], incomingIdentity',
    ),
    IDENTITY_MEMBERS,
  ],
  deleteSourceIdentity: [
    orgSeed(ENDPOINTS, 'deleteSourceIdentity | source (source reference) | linkIdsModified[], linkIdsDeleted[]'),
  ],
  demographicsSearch: [
    SEARCH_ROW,
    orgSeed('Resources and their fields, Search result', 'matchScore | number | yes | between 0.0 and 1.0'),
    orgSeed('Resources and their fields, Search result', 'sameIdentity | string | yes | indicator with values Y, U, N'),
  ],
  demographicsQuery: [
    orgSeed(
      ENDPOINTS,
      'demographicsQuery | identity (required), responseIdentityFormatNames[] | identityGroupedBySource[], ' +
        'customerSources[], linkId, identity, domains[], customizedIdentities',
    ),
    IDENTITY_MEMBERS,
  ],
  nativeIdQuery: [
    orgSeed(
      ENDPOINTS,
      'nativeIdQuery | source (source reference), responseIdentityFormatNames[] | identityGroupedBySource[], ' +
        'customerSources[], linkId, identity, domains[], customizedIdentities',
    ),
    IDENTITY_MEMBERS,
  ],
  identityIdQuery: [
    orgSeed(
      ENDPOINTS,
      'identityIdQuery | linkId (string), responseIdentityFormatNames[] | identityGroupedBySource[], ' +
        'customerSources[], linkId, identity, domains[], requestedLinkId, customizedIdentities',
    ),
    IDENTITY_MEMBERS,
  ],
  softDeleteSource: [
    orgSeed(
      ENDPOINTS,
      'softDeleteSource | sourceToSoftDelete (source reference) | linkIdsSoftDeleted[], linkIdsModified[]',
    ),
  ],
  restoreSource: [
    orgSeed(ENDPOINTS, 'restoreSource | object (its members: not shown) | linkIdsModified[], linkIdCreated (string)'),
  ],
  mergeIdentities: [
    orgSeed(
      ENDPOINTS,
      'mergeIdentities | toSurviveSource, toRetireSource (source references) | linkId, toSurviveSource',
    ),
    SOURCE_REFERENCE,
  ],
  unmergeIdentities: [
    orgSeed(
      ENDPOINTS,
      'unmergeIdentities | unmergeFromSource, unmergeSource (source references) | unmergedSource, ' +
        'unmergedFromSource, unmergedId, unmergedFromId',
    ),
    SOURCE_REFERENCE,
  ],
  linkIdentities: [
    orgSeed(ENDPOINTS, 'linkIdentities | linkToSource, source (source references) | linkId, linkToSource'),
    SOURCE_REFERENCE,
  ],
  unlinkIdentities: [
    orgSeed(
      ENDPOINTS,
      'unlinkIdentities | unlinkFromSource, source (source references) | unlinkedId, unlinkedSource, ' +
        'unlinkedFromId, unlinkedFromSource',
    ),
    SOURCE_REFERENCE,
  ],
  addRelationshipService: [orgSeed(ENDPOINTS, 'addRelationshipService | relationship | relationship')],
  searchRelationshipsService: [
    orgSeed(ENDPOINTS, 'searchRelationshipsService | relationship (used as the search criteria) | relationship'),
  ],
  deleteRelationshipService: [orgSeed(ENDPOINTS, 'deleteRelationshipService | id (string) | id (string)')],
  searchNotifications: [
    orgSeed(
      ENDPOINTS,
      'searchNotifications | pageNumber (integer), pageSize (integer), startDate (DATE-TIME), endDate ' +
        '(DATE-TIME) | customerId, hasNext, notifications[], totalElements',
    ),
    orgSeed('Resources and their fields, Notification page', 'hasNext | boolean'),
    orgSeed('Resources and their fields, Notification page', 'totalElements | integer'),
  ],
};

const catalogue: Requirement[] = [
  // What the service does
  must(
    'ORG-ENDPOINT-PATHS',
    'Endpoints',
    'Each operation answers POST {base_url}/provider-link-ws/svc/<operation> with a JSON body.',
    [orgSeed(ENDPOINTS, 'Each operation is `POST {base_url}/provider-link-ws/svc/<operation>`.')],
  ),
  must(
    'ORG-VIEWS-DEFAULT',
    'What the service does',
    'When responseIdentityFormatNames is omitted the DEFAULT view is used: the reply equals the reply for ["DEFAULT"].',
    [orgSeed(WHAT, 'When the list is omitted the view `DEFAULT` is used.')],
  ),
  // Envelope
  must(
    'ORG-ENV-REPLY',
    'Resources, Response envelope',
    'Every reply is a JSON response envelope: success is a boolean; warnings and errors, when present, are ' +
      'arrays of strings; retryableError a boolean; message and unparsedJson strings.',
    [
      orgSeed(
        WHAT,
        'Every operation is an HTTP `POST` with a JSON body and a JSON reply in the envelope defined under ' +
          'Resources and their fields.',
      ),
      orgSeed(
        'Resources and their fields, Response envelope',
        'auditId | string | | success | boolean | | unparsedJson | string | | warnings | array of string | | ' +
          'retryableError | boolean | | message | string | | content | object | operation-specific | | errors | ' +
          'array of string | | trackingId | string',
      ),
    ],
  ),
  must('ORG-ENV-ECHO', 'Errors', 'The request auditId and trackingId are returned in the reply.', [
    orgSeed('Errors', 'The request `auditId` and `trackingId` are returned in the reply.'),
  ]),
  // "Failures are carried in the response envelope: success, message, errors, ..." names the members a failure is
  // carried in; that a failure's message or errors be non-empty no sentence states ("Error code values and message
  // texts: not shown"), so it is what any service does.
  expectation(
    'ORG-ERR-CARRIED',
    'Errors',
    'A failure says what went wrong: besides success=false, its message or errors is not empty (the members ' +
      'failures are carried in; their texts are not shown).',
  ),
  expectation(
    'ORG-ERR-NOT-RETRYABLE',
    'Errors',
    'A request rejected for bad input is not marked retryableError=true (re-sending it cannot succeed).',
  ),
  // Data types
  must('ORG-TYPE-TEXT', 'Resources, Field data types', 'TEXT and CODE-SET values are JSON strings.', [
    orgSeed(TYPES, 'TEXT | string'),
    orgSeed(TYPES, 'CODE-SET | string taken from a code set'),
  ]),
  must('ORG-TYPE-NUMBER', 'Resources, Field data types', 'NUMBER values are strings holding a number.', [
    orgSeed(TYPES, 'NUMBER | string holding a number'),
  ]),
  must('ORG-TYPE-DATE', 'Resources, Field data types', 'DATE values are strings yyyy-MM-dd.', [
    orgSeed(TYPES, 'DATE | string `yyyy-MM-dd`'),
  ]),
  must('ORG-TYPE-TIME', 'Resources, Field data types', 'TIME values are strings HH:mm.', [
    orgSeed(TYPES, 'TIME | string of the shape `HH:mm`'),
  ]),
  must('ORG-TYPE-BOOLEAN', 'Resources, Field data types', 'BOOLEAN values are JSON booleans.', [
    orgSeed(TYPES, 'BOOLEAN | JSON boolean'),
  ]),
  must('ORG-TYPE-DATETIME', 'Resources, Field data types', 'DATE-TIME values are ISO 8601 UTC timestamps.', [
    orgSeed(TYPES, 'DATE-TIME | string, ISO 8601 UTC timestamp `<timestamp>`'),
  ]),
  must(
    'ORG-IDENTITY-REQUIRED',
    'Resources, Organization identity',
    'content.identity is required in postIdentity, demographicsSearch and demographicsQuery; a request without ' +
      'it is rejected.',
    [
      orgSeed(
        'Resources and their fields, Organization identity',
        'The identity object is required (`content.identity`) in postIdentity, demographicsSearch and ' +
          'demographicsQuery requests.',
      ),
    ],
  ),
  expectation(
    'ORG-BADINPUT-REJECTED',
    'Resources, Field data types',
    'A request whose body is not JSON, or whose DATE or TIME values are malformed, is rejected.',
  ),
  // postIdentity
  must(
    'ORG-POST-ADDS',
    'Endpoints, rule 2',
    'postIdentity adds the posted identity: afterwards nativeIdQuery by its source finds it.',
    [RULE_2, OPERATIONS],
  ),
  must(
    'ORG-POST-EVENTS',
    'Endpoints, rule 2; Events',
    'postIdentity reports generated events in content.events (an array when present).',
    [
      ARRAYS,
      OPERATION_ROWS.postIdentity![0]!,
      orgSeed('Events', 'postIdentity may return generated events in `content.events`.'),
    ],
    { governs: ['postIdentity:/content/events'] },
  ),
  must(
    'ORG-POST-LINKID-NULL',
    'Endpoints, rule 2',
    'postIdentity returns linkId null when the posted record matched no existing identity, and a link ID (not ' +
      'null) when it did.',
    [RULE_2, orgSeed(ENDPOINTS, 'linkId (string, null if no match)')],
  ),
  must(
    'ORG-POST-KEEPS-VALUES',
    'Endpoints, rule 2',
    'The identity postIdentity adds holds the values posted: nativeIdQuery of the posted source shows each value it ' +
      'accepted as sent wherever it shows the member (text with the same characters, letter case, Unicode ' +
      'normalisation and spacing aside; the same number, date, time or instant); a value the deployment cannot keep ' +
      'is refused, not changed or left out.',
    [RULE_2],
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
    [RULE_1],
  ),
  must(
    'ORG-SEARCH-ORDER',
    'Endpoints, demographicsSearch',
    'searchResults are ordered best to worst (non-increasing matchScore).',
    [SEARCH_ROW, orgSeed(WHAT, 'search by demographics (ranked candidates)')],
  ),
  must(
    'ORG-SEARCH-RESULTS-REQUIRED',
    'Endpoints, demographicsSearch',
    'searchResults is always present; it is empty when nothing matches.',
    [SEARCH_ROW],
    { governs: ['demographicsSearch:/content/searchResults'] },
  ),
  // No sentence says "at most" in words: the request member's name does ("maxSearchResults", the most search results),
  // and the person document calls its absence "the system maximum".
  must(
    'ORG-SEARCH-MAX-RESULTS',
    'Endpoints, demographicsSearch; Limits',
    'demographicsSearch returns at most maxSearchResults results.',
    [SEARCH_ROW, orgSeed('Limits', '`maxSearchResults` must be greater than 0.')],
  ),
  must(
    'ORG-SEARCH-MAX-POSITIVE',
    'Endpoints, rule 1; Limits',
    'maxSearchResults must be greater than 0: 0 and negative values are rejected.',
    [orgSeed('Limits', '`maxSearchResults` must be greater than 0.'), RULE_1],
  ),
  must(
    'ORG-SEARCH-SCORE-RANGE',
    'Resources, Search result; Limits',
    'Every matchScore lies between 0.0 and 1.0.',
    [
      orgSeed('Limits', '`matchScore` lies between 0.0 and 1.0.'),
      orgSeed('Resources and their fields, Search result', 'matchScore | number | yes | between 0.0 and 1.0'),
    ],
    { governs: ['demographicsSearch:/content/searchResults/[]/matchScore'] },
  ),
  must(
    'ORG-SEARCH-SAME-IDENTITY',
    'Resources, Search result',
    'Every search result carries sameIdentity with a value in {Y, U, N}.',
    [
      orgSeed(
        'Resources and their fields, Search result',
        'sameIdentity | string | yes | indicator with values Y, U, N',
      ),
    ],
    { governs: ['demographicsSearch:/content/searchResults/[]/sameIdentity'] },
  ),
  expectation(
    'ORG-SEARCH-FINDS-EXACT',
    'What the service does',
    'A search with an exact copy of a posted identity returns that identity.',
  ),
  must(
    'ORG-QUERY-BEST-MATCH',
    'What the service does',
    'demographicsQuery returns the best match: when it returns an identity, that identity is (one of) the ' +
      'best-scored demographicsSearch results for the same identity.',
    [OPERATIONS],
  ),
  expectation(
    'ORG-QUERY-FINDS-EXACT',
    'What the service does',
    'demographicsQuery with an exact copy of a posted identity returns that identity.',
  ),
  must(
    'ORG-NATIVEID-QUERY',
    'What the service does',
    'nativeIdQuery returns the identity that holds the named source record.',
    [
      OPERATIONS,
      orgSeed(WHAT, 'An identity is built from one or more source records.'),
      orgSeed(WHAT, 'Each source record is identified by a source name plus an identifier within that source.'),
    ],
  ),
  must(
    'ORG-IDQUERY-RETURNS',
    'What the service does',
    'identityIdQuery returns the identity with the requested link ID.',
    [OPERATIONS, orgSeed(WHAT, 'Identities are addressed by a service-wide identifier called the link ID (`linkId`).')],
  ),
  must(
    'ORG-IDQUERY-ECHO',
    'Endpoints, rule 3',
    'identityIdQuery echoes the requested link ID in requestedLinkId.',
    [orgSeed('Endpoints, rule 3', 'identityIdQuery echoes the requested link ID in `requestedLinkId`.')],
    { governs: ['identityIdQuery:/content/requestedLinkId'] },
  ),
  // State table
  must(
    'ORG-SOFTDELETE-REPLY',
    'States and transitions, softDeleteSource',
    'softDeleteSource replies with linkIdsSoftDeleted and linkIdsModified, naming the identity that held the source.',
    [SOFT_DELETE],
  ),
  must(
    'ORG-SOFTDELETE-EFFECT',
    'States and transitions, softDeleteSource',
    'After softDeleteSource the source record is no longer active in its identity.',
    [SOFT_DELETE],
  ),
  must(
    'ORG-RESTORE-REPLY',
    'States and transitions, restoreSource',
    'restoreSource replies with linkIdsModified and linkIdCreated, naming the identity the source returned to.',
    [RESTORE],
  ),
  must(
    'ORG-RESTORE-EFFECT',
    'States and transitions, restoreSource',
    'After restoreSource the soft-deleted source record is active again.',
    [RESTORE],
  ),
  must(
    'ORG-HARDDELETE-REPLY',
    'States and transitions, deleteSourceIdentity',
    'deleteSourceIdentity replies with linkIdsModified and linkIdsDeleted; an identity whose only source was ' +
      'deleted is listed as deleted.',
    [HARD_DELETE],
  ),
  must(
    'ORG-HARDDELETE-EFFECT',
    'States and transitions, deleteSourceIdentity',
    'After deleteSourceIdentity all information of the source is removed: it is found by no query and cannot be ' +
      'restored.',
    [HARD_DELETE],
  ),
  must(
    'ORG-MERGE-REPLY',
    'States and transitions, mergeIdentities',
    "mergeIdentities replies with the surviving identity's linkId.",
    [MERGE],
  ),
  must(
    'ORG-MERGE-EFFECT',
    'States and transitions, mergeIdentities',
    'After mergeIdentities a single surviving identity results: the retired source no longer resolves to an ' +
      'identity of its own.',
    [MERGE],
  ),
  must(
    'ORG-UNMERGE-REPLY',
    'States and transitions, unmergeIdentities',
    'unmergeIdentities replies with unmergedId and unmergedFromId.',
    [UNMERGE],
  ),
  must(
    'ORG-UNMERGE-EFFECT',
    'States and transitions, unmergeIdentities',
    'After unmergeIdentities the unmerged source is active in a new identity, separate from the one it was ' +
      'unmerged from.',
    [UNMERGE],
  ),
  must(
    'ORG-LINK-REPLY',
    'States and transitions, linkIdentities',
    'linkIdentities replies with the linkId of the identity the source was linked into.',
    [LINK],
  ),
  must(
    'ORG-LINK-EFFECT',
    'States and transitions, linkIdentities',
    'After linkIdentities both sources are active in the identity of linkToSource.',
    [LINK],
  ),
  must(
    'ORG-UNLINK-REPLY',
    'States and transitions, unlinkIdentities',
    'unlinkIdentities replies with unlinkedId and unlinkedFromId.',
    [UNLINK],
  ),
  must(
    'ORG-UNLINK-EFFECT',
    'States and transitions, unlinkIdentities',
    'After unlinkIdentities the source is active in a separate identity.',
    [UNLINK],
  ),
  // Relationships
  must(
    'ORG-REL-ADD',
    'What the service does; Endpoints',
    'addRelationshipService adds the relationship and replies with it, including its id; a member the reply ' +
      'echoes holds the value sent.',
    [OPERATION_ROWS.addRelationshipService![0]!, RELATIONSHIPS, OPERATION_ROWS.deleteRelationshipService![0]!],
  ),
  must(
    'ORG-REL-SEARCH',
    'What the service does; Endpoints',
    'searchRelationshipsService finds an added relationship by its criteria, and returns none whose criteria ' +
      'members hold other values.',
    [OPERATION_ROWS.searchRelationshipsService![0]!, RELATIONSHIPS],
  ),
  must(
    'ORG-REL-DELETE',
    'What the service does; Endpoints',
    'deleteRelationshipService deletes the relationship (a reply id, when given, is its id); a search no longer ' +
      'finds it.',
    [OPERATION_ROWS.deleteRelationshipService![0]!, RELATIONSHIPS],
  ),
  // Notifications
  must(
    'ORG-NOTIF-PAGING',
    'Events',
    'searchNotifications pages hold at most pageSize notifications; hasNext is false exactly on the last page ' +
      '(where totalElements gives the count); following hasNext reaches the notifications a read of the same ' +
      'closed window in larger pages holds.',
    [FEED],
  ),
  must(
    'ORG-NOTIF-TOTAL',
    'Events',
    'totalElements gives the total count of notifications in the window: it equals the sum of the page sizes.',
    [FEED],
  ),
  // "searchNotifications returns a paginated feed of notifications for a date range; `hasNext` tells whether more pages
  // exist and `totalElements` gives the total count": the pages of a window are a partition of it.
  must(
    'ORG-NOTIF-NO-DUPLICATES',
    'Events',
    'The pages of a closed window hold every notification of it once: walking them returns no notification more ' +
      'often than a read of the same window in larger pages does (a paginated feed whose totalElements gives the ' +
      'total count).',
    [FEED],
  ),
  must(
    'ORG-NOTIF-PERIOD',
    'Events',
    'searchNotifications returns the notifications "for a date range": a window that ends before a change, or ' +
      'lies far in the past, holds no notification of it.',
    [FEED],
  ),
  expectation(
    'ORG-NOTIF-RECORDS-CHANGES',
    'Events',
    'Identity changes the run made appear in the notifications of their time window.',
  ),
  // Auth
  must(
    'ORG-AUTH-BEARER',
    'Authentication',
    'Every request must carry Authorization: Bearer <JWT>; a request without it, or with a malformed token, is ' +
      'rejected.',
    [
      orgSeed(
        'Authentication',
        'every request carries the header `Authorization: Bearer <ACCESS_TOKEN>`, where the token is a JWT.',
      ),
    ],
  ),
  // Limits and versioning with no observable check
  must('ORG-RATE-LIMITS', 'Limits', 'Rate limits: not shown.', [], {
    untestable: 'The seed gives no rate limit to check; the suite only honours 429 replies.',
  }),
  must(
    'ORG-VERSION',
    'Versioning',
    'The interface version is 2026.1.2 and operation paths carry no version segment.',
    [],
    {
      untestable: 'No operation reports the interface version; the path rule is exercised by ORG-ENDPOINT-PATHS.',
    },
  ),
  // Sequences and matching properties (model-based walks, metamorphic checks, generated bad input)
  expectation(
    'ORG-WALK-APART',
    'What the service does',
    'Identities generated far apart (different names, addresses, identifiers) are not joined by matching: ' +
      'postIdentity of each returns linkId null.',
  ),
  expectation(
    'ORG-REJECTED-NO-CHANGE',
    'Errors',
    'A rejected request changes nothing: every source record keeps its state and its identity.',
  ),
  expectation(
    'ORG-NO-SERVER-ERROR',
    'Errors',
    "No request, valid or not, is answered with HTTP 5xx: bad input is rejected as the caller's error (HTTP 4xx " +
      'or success=false).',
  ),
  expectation(
    'ORG-BADINPUT-GENERATED',
    'Resources, Field data types; Endpoints',
    'Structurally invalid content (wrong JSON types, missing required members, out-of-range numbers, malformed ' +
      'DATE, TIME and DATE-TIME values) is rejected and changes nothing.',
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
    'The same search twice, with no change in between, returns the same identities and scores; the requested ' +
      'response views change neither.',
  ),
  expectation(
    'ORG-MATCH-ONE-THRESHOLD',
    'What the service does',
    'One match threshold explains every decision: every postIdentity that linked and every demographicsQuery ' +
      'that returned an identity had a best score at least as high as every one that did not.',
  ),
  // One shape requirement per operation: the reply content has the documented members and types.
  ...organizationOperations.map((op) =>
    must(
      op.shapeRequirement,
      `Endpoints, ${op.name}`,
      `${op.name} reply content has the documented members with their documented types.`,
      [...(OPERATION_ROWS[op.name] ?? []), ARRAYS],
    ),
  ),
];

/** The requirement that plays each role of the shared rules in this service (specs/common/roles.ts). */
const ROLES = serviceRoles('ORG-', {
  lacks: 'badInput.dataSourceLimit notificationEvents.changes type.email',
  own: {
    'notifications.noDuplicates': 'ORG-NOTIF-NO-DUPLICATES',
  },
});

export const organizationRequirements: Requirement[] = withRoles(catalogue, ROLES, organizationOperations);
