/**
 * Every sentence of the seeds that says "not shown", and what the suite does where it is silent:
 * - `profile`: a documented deployment-profile setting with a default pins the detail (a wire member name, a page
 *   number, an auth scheme); the suite never assumes it otherwise;
 * - `open`: any answer is accepted; `forbidden` says what other sentences still forbid there (the whole space of legal
 *   answers is everything else, also answers no reference of ours gives);
 * - `untestable`: no black-box check can observe it (a requirement says so, with the reason).
 * test/not-shown.test.ts holds this list to the seeds: every "not shown" line of both documents has exactly one entry,
 * quoted word for word. docs/open-cells.md is written from it (npm run docs).
 *
 * Source: organization-identity-api.md and person-provider-identity-api.md (every "not shown").
 */
import { type SeedCitation, orgSeed, ppSeed } from './seed.js';

export interface NotShown {
  seed: SeedCitation;
  treatment: 'profile' | 'open' | 'untestable';
  /** What the suite does there, in words (the profile setting, or which answers are accepted). */
  how: string;
  /** What other sentences still forbid there, each with its sentence (open cells). */
  forbidden?: Array<{ what: string; seed: SeedCitation }>;
}

const org = (section: string, quote: string) => orgSeed(section, quote);
const pp = (section: string, quote: string) => ppSeed(section, quote);

const HARD_DELETE_ORG = org(
  'States and transitions',
  'deleteSourceIdentity | any | source named in `source` | deleted | all information of the source is removed',
);
const THRESHOLD = org(
  'Endpoints, rule 1',
  'demographicsSearch returns only identities whose match score is greater than or equal to `matchScoreThreshold`',
);
const SCORE = org('Limits', '`matchScore` lies between 0.0 and 1.0.');
const HAS_NEXT = org('Events', '`hasNext` tells whether more pages exist and `totalElements` gives the total count');
const ENVELOPE = org('Errors', 'Failures are carried in the response envelope');

export const NOT_SHOWN: NotShown[] = [
  {
    seed: org(
      'What the service does',
      'How match scores are computed, and how an added identity is decided to be new or an update of an ' +
        'existing one: not shown.',
    ),
    treatment: 'open',
    how:
      'no score value or linking decision is judged on its own; checks compare a deployment with itself ' +
      '(metamorphic: a copy scores at least what a poorer copy scores, one threshold explains every decision) and ' +
      "with the seeds' stated bounds",
    forbidden: [
      { what: 'a score outside 0.0 to 1.0', seed: SCORE },
      { what: 'results below matchScoreThreshold', seed: THRESHOLD },
    ],
  },
  {
    seed: org('What the service does', 'The match threshold that demographicsQuery applies: not shown.'),
    treatment: 'open',
    how:
      'any threshold: demographicsQuery is judged against demographicsSearch of the same deployment (the ' +
      'best-matching identity, when it answers one)',
  },
  {
    seed: org('Resources, Gaps in resources', 'Fields of an element of `events`: not shown.'),
    treatment: 'open',
    how: 'any element; events is judged only as an array when present',
  },
  {
    seed: org('Resources, Gaps in resources', 'Fields of an element of `notifications`: not shown.'),
    treatment: 'open',
    how:
      "any element; a notification counts for a change when it names one of the change's native IDs or link IDs " +
      'anywhere in it',
  },
  {
    seed: org(
      'Resources, Gaps in resources',
      'Structure of `customerSources` elements and of `customizedIdentities` (keyed by view name): not shown.',
    ),
    treatment: 'open',
    how: 'any structure (arrays and objects as the reply tables give them)',
  },
  {
    seed: org(
      'Resources, Gaps in resources',
      'Allowed values of CODE-SET fields (for example address type, phone type, day): not shown.',
    ),
    treatment: 'open',
    how:
      'any string value; generators send values of the vendor documents, and a deployment that rejects one is not ' +
      'failed for it',
  },
  {
    seed: org(
      'Resources, Gaps in resources',
      'Allowed values and formats of `relationshipVerb`, `status`, `trustFactor` and `domain`: not shown.',
    ),
    treatment: 'profile',
    how:
      "profile relationship.verb, .inverseVerb, .status, .domain: a relationship the deployment's definitions " +
      'accept',
  },
  {
    seed: org(
      'States and transitions',
      'Preconditions on the prior state of each operation, and any further states: not shown.',
    ),
    treatment: 'open',
    how:
      'a request from a state its row does not name may be accepted or rejected; what it does then is followed, ' +
      'not judged (the records it touches become unknown until a later step states their state again); on a ' +
      'hard-deleted source it must change nothing',
    forbidden: [{ what: 'bringing back anything of a hard-deleted source', seed: HARD_DELETE_ORG }],
  },
  {
    seed: org('Endpoints', 'restoreSource | object (its members: not shown)'),
    treatment: 'profile',
    how: 'profile members.restoreSource names the member carrying the source reference',
  },
  {
    seed: org('Authentication', 'How the token is obtained, its lifetime and its scopes: not shown.'),
    treatment: 'profile',
    how:
      "settings ORG_TOKEN (a token given) or the service's OAuth2 client-credentials settings; the suite never " +
      "judges a token's lifetime",
  },
  {
    seed: org('Events', 'Kinds of event: not shown.'),
    treatment: 'open',
    how: "any kind; the feed is judged only for naming the run's changes, each once, and for paging",
    forbidden: [{ what: 'a duplicated notification, or totalElements that disagrees with the pages', seed: HAS_NEXT }],
  },
  {
    seed: org('Events', 'Push delivery or callbacks: not shown.'),
    treatment: 'profile',
    how: 'profile consistencyBudgetMs: how long the feed (and search) may lag a change',
  },
  {
    seed: org('Errors', 'HTTP status codes other than 200: not shown.'),
    treatment: 'open',
    how: 'a rejection is any HTTP 4xx or an envelope with success=false; a 5xx without a failure envelope is no answer',
    forbidden: [{ what: 'a failure not carried in the envelope', seed: ENVELOPE }],
  },
  {
    seed: org('Errors', 'Error code values and message texts: not shown.'),
    treatment: 'open',
    how: 'any text; only that message or errors says something',
  },
  {
    seed: org('Errors', 'The exact conditions under which `success` is false: not shown.'),
    treatment: 'open',
    how:
      'valid requests from the states a row names must succeed; other requests may succeed or fail (bad input is ' +
      'an EXPECT)',
  },
  {
    seed: org('Limits', 'Rate limits: not shown.'),
    treatment: 'profile',
    how: 'settings CONFORMANCE_MAX_IN_FLIGHT and the pacing: HTTP 429 and Retry-After slow the run, never fail it',
  },
  {
    seed: org('Limits', 'Bounds of `pageNumber` and `pageSize`, and maximum request size: not shown.'),
    treatment: 'profile',
    how: 'profile notifications.firstPage, .pageSize, .maxPages; a page may hold fewer than asked, never more',
  },
  {
    seed: org('Versioning', 'Compatibility and deprecation rules: not shown.'),
    treatment: 'untestable',
    how: 'not judged; `npm run compare` shows what changed between two runs',
  },
  {
    seed: pp(
      'Resources, Gaps in resources',
      'Fields of an element of `searchResults` in the person service: not shown.',
    ),
    treatment: 'open',
    how: 'a person result may carry no matchScore: the checks that need scores skip, ordering is read from the list',
  },
  {
    seed: pp(
      'Resources, Gaps in resources',
      'Structure of `enrichedDetails`, `customizedIdentities`, `customizedIdentitiesWithSource`, `vinIds`, ' +
        '`domains` and `events` elements: not shown.',
    ),
    treatment: 'open',
    how: 'any structure',
  },
  {
    seed: pp('Resources, Gaps in resources', 'Identity fields and payload fields of the provider service: not shown.'),
    treatment: 'profile',
    how: 'profile provider.typeMember, .practitionerType, .healthFacilityType; provider identities are read tolerantly',
  },
  {
    seed: pp(
      'Resources, Gaps in resources',
      'Payload fields of the person relationship, notification, household and data-source operations: not shown.',
    ),
    treatment: 'profile',
    how:
      'profile person.relationshipSubject, .relationshipObject and the notification settings; households and data ' +
      'sources are read tolerantly',
  },
  {
    seed: pp(
      'Resources, Gaps in resources',
      'Allowed values of `clusterStatus` other than `ACTIVE`, and of code-like string fields such as `type`: ' +
        'not shown.',
    ),
    treatment: 'open',
    how: 'any string',
  },
  {
    seed: pp(
      'States and transitions',
      'Effects on the attributes of a retired person source after a merge: not shown.',
    ),
    treatment: 'open',
    how:
      "whether the survivor's identity shows a merged record's attributes, and what becomes of records merged " +
      'into a record a later step moves or deletes, are not judged',
    forbidden: [
      {
        what: "the merged record in a link ID other than its survivor's",
        seed: pp(
          'States and transitions',
          'person | mergeIdentities | active | toRetire record becomes merged and inactive; both records share ' +
            'one link ID',
        ),
      },
    ],
  },
  {
    seed: pp('States and transitions', 'Transitions of relationship status and of households: not shown.'),
    treatment: 'open',
    how:
      'which households form, and what a record that is not active answers, are not judged; the three lookup ' +
      'forms must agree',
    forbidden: [
      {
        what: 'lookup forms of householdQuery that disagree',
        seed: pp(
          'Endpoints, Person service',
          '/householdQuery | returns the link IDs in a household, looked up by link ID, by source plus native ' +
            'ID, or by household ID',
        ),
      },
    ],
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/v2/nativeIdQuery | returns the single identity that holds a given source plus native ID | request and ' +
        'reply members: not shown',
    ),
    treatment: 'profile',
    how:
      'the request names the source as `source` (as the other services); the reply is read for linkId, identity ' +
      'and identityGroupedBySource',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/deleteSourceIdentity | physical deletion of a source record | members: not shown',
    ),
    treatment: 'profile',
    how: 'the request names the source as `source`; the reply is not judged beyond the envelope',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/deactivateSourceWs | logical deletion of a source record | members: not shown',
    ),
    treatment: 'profile',
    how: 'profile members.deactivateSource',
  },
  {
    seed: pp('Endpoints, Person service', '/reactivateSourceWs | reverses deactivateSourceWs | members: not shown'),
    treatment: 'profile',
    how: 'profile members.reactivateSource',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/householdQuery | returns the link IDs in a household, looked up by link ID, by source plus native ID, ' +
        'or by household ID | members: not shown',
    ),
    treatment: 'profile',
    how:
      'linkId, source and householdId in the request; householdId and linkIdsInHousehold in the reply (vendor ' +
      'documents)',
  },
  {
    seed: pp('Endpoints, Person service', '/linkIdentities | forces two records into one link ID | members: not shown'),
    treatment: 'profile',
    how: 'linkToSource and source, as the organization service',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/mergeIdentities | merges a toRetire source record into a toSurvive source record | members: not shown',
    ),
    treatment: 'profile',
    how: 'toSurviveSource and toRetireSource, as the organization service; the reply members are not judged',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/unlinkIdentities | splits a record into its own link ID | members: not shown',
    ),
    treatment: 'profile',
    how: 'unlinkFromSource and source, as the organization service; the reply members are not judged',
  },
  {
    seed: pp('Endpoints, Person service', '/unmergeIdentities | reverses a merge | members: not shown'),
    treatment: 'profile',
    how: 'unmergeFromSource and unmergeSource, as the organization service; the reply members are not judged',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/searchNotifications | paginated feed of notification messages for a date range | members: not shown',
    ),
    treatment: 'profile',
    how:
      'pageNumber, pageSize, startDate, endDate as the organization service; profile notifications.* for page ' +
      'numbering',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/addRelationshipService | creates a direct relationship between two person entities identified by link ' +
        'IDs, with optional start and end dates and a status | members: not shown',
    ),
    treatment: 'profile',
    how: 'profile person.relationshipSubject, .relationshipObject, relationship.verb and .status',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/searchRelationshipsService | searches relationships; filters are subject link ID, object link ID and ' +
        'relationship verb | members: not shown',
    ),
    treatment: 'profile',
    how: "the profile's subject and object members and relationshipVerb as the filters",
  },
  {
    seed: pp(
      'Endpoints, Person service',
      '/deleteRelationshipService | deletes a relationship created earlier | members: not shown',
    ),
    treatment: 'profile',
    how: '`id`, as the organization service',
  },
  {
    seed: pp(
      'Endpoints, Person service',
      'Payload members of the person operations marked above, and the name of the reference-data flag of ' +
        'identityIdQuery: not shown.',
    ),
    treatment: 'profile',
    how: 'the members above; the reference-data flag is never sent',
  },
  {
    seed: pp('Endpoints, Provider service', 'Request and reply members of the provider operations: not shown.'),
    treatment: 'profile',
    how:
      "the organization service's members (the same path layout); reply members whose meaning the provider rows " +
      'state (the surviving link ID, the new and the unmerged-from link IDs, link IDs and source information of an ' +
      'unlink) are judged by name, the rest read tolerantly',
  },
  {
    seed: pp(
      'Authentication',
      'Which of the two schemes applies to which deployment of the person service: not shown.',
    ),
    treatment: 'profile',
    how: 'profile person.auth picks when both PERSON_TOKEN and PERSON_USERNAME are set',
  },
  {
    seed: pp('Authentication', 'How credentials or tokens are issued, their lifetime and scopes: not shown.'),
    treatment: 'profile',
    how: "the service's token, basic credentials or OAuth2 client-credentials settings",
  },
  {
    seed: pp('Events', 'The complete list of event kinds and the fields of an event or notification: not shown.'),
    treatment: 'open',
    how: 'any kind and fields; a notification counts for a change when it names one of its native IDs or link IDs',
  },
  {
    seed: pp('Events', 'Push delivery or callbacks: not shown.'),
    treatment: 'profile',
    how: 'profile consistencyBudgetMs',
  },
  {
    seed: pp('Errors', 'HTTP status codes, error codes and message texts: not shown.'),
    treatment: 'open',
    how: 'a rejection is any HTTP 4xx or an envelope with success=false; any text',
  },
  {
    seed: pp('Limits', 'The value of that system maximum: not shown.'),
    treatment: 'open',
    how:
      'any maximum; a search without maxSearchResults is judged only against itself (ties at the cut are the ' +
      "deployment's)",
  },
  {
    seed: pp('Limits', 'Rate limits and request size limits: not shown.'),
    treatment: 'profile',
    how: 'settings CONFORMANCE_MAX_IN_FLIGHT and the pacing',
  },
  {
    seed: pp(
      'Versioning',
      'One person listing is labelled version 1.0.0. Which label governs, and any compatibility or deprecation ' +
        'policy: not shown.',
    ),
    treatment: 'profile',
    how: 'profile person.schemaVersion',
  },
];
