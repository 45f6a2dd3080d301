/**
 * The variant catalogue: legitimate variants of the reference deployment, the mirror image of the fault catalogue
 * (reference/faults/catalogue.ts). Each entry is one choice the seeds leave open, with the seed sentences that leave it
 * open, the profile settings a user of such a deployment would set (harness/profile.ts), and the hooks
 * (reference/hooks.ts) that make the reference behave so. `npm run detection` runs the whole suite against each
 * variant: any gating failure there is a false positive of the suite (an over-strict check).
 *
 * Switch variants on with `REFERENCE_VARIANTS=name[=value],...` or the `variants` option of startReference. To add one:
 * an entry here (docs/detection.md, "Variants").
 */
import { integer, decimal, oneOf, pairOf, word } from './params.js';
import { lenientHooks, strictHooks } from './validation.js';
import { status200, status4xx, status500 } from './status.js';
import {
  absentOptional,
  datetimeOffset,
  eventShapes,
  extraMembers,
  minimalReplies,
  noEvents,
  noGroupedBySource,
  relationshipObject,
} from './shapes.js';
import { LINK_ID_FORMATS, linkIdFormat } from './link-ids.js';
import { clockSkew, notificationLag, searchLag } from './lag.js';
import { pageSizeCap, pagesFromOne } from './paging.js';
import { maxResults, threshold } from './matching.js';
import { restoreAfterDeleteSucceeds, restoreJoinsOther, restoreNewIdentity, softDeletedVisible } from './lifecycle.js';
import {
  PERSON_OBJECT,
  PERSON_SUBJECT,
  SOURCE_MEMBER,
  memberNames,
  personBasicAuth,
  relationshipVerbs,
  sourceInContent,
} from './wire-names.js';
import { gone, latency, restarts, slowTail, throttled, transient } from './transport.js';
import { STALE_LINK_MODES, staleLinks } from './stale-links.js';
import { membersFollow, retiredReleased } from './open-fates.js';
import { busy } from './busy.js';
import { narrowStorage, standardisedText } from './storage.js';
import {
  departedDataShown,
  lenientPreconditions,
  noHouseholds,
  retiredData,
  retiredFollowSurvivor,
  retiredLinkForwarding,
  retiredLookupAbsent,
  softDeletedDataShown,
} from './open-outcomes.js';
import type { SeedCitation, VariantDefinition } from './types.js';

const ORG = 'organization-identity-api.md' as const;
const PP = 'person-provider-identity-api.md' as const;
const org = (section: string, quote: string): SeedCitation => ({ file: ORG, section, quote });
const pp = (section: string, quote: string): SeedCitation => ({ file: PP, section, quote });

const STATUS_OPEN = [
  org('Errors', 'HTTP status codes other than 200: not shown.'),
  pp('Errors', 'HTTP status codes, error codes and message texts: not shown.'),
];
const SUCCESS_OPEN = org('Errors', 'The exact conditions under which `success` is false: not shown.');
/** Which identity a restored source returns to: open in both seeds. */
const RESTORE_OPEN = [
  pp(
    'States and transitions',
    'provider | restoreSource | soft-deleted | active | ... a new entity may be created or existing entities modified',
  ),
  org(
    'States and transitions',
    'restoreSource | soft-deleted | | active | reply lists `linkIdsModified` and `linkIdCreated`',
  ),
];
const FURTHER = org(
  'States and transitions',
  'Preconditions on the prior state of each operation, and any further states: not shown.',
);
const RATE_OPEN = [
  org('Limits', 'Rate limits: not shown.'),
  pp('Limits', 'Rate limits and request size limits: not shown.'),
  ...STATUS_OPEN,
];
const TRANSIENT_OPEN = org(
  'Errors',
  'Failures are carried in the response envelope: `success`, `message`, `errors` (list of strings), `warnings` ' +
    '(list of strings), `retryableError` (boolean)',
);
const OTHER_WRITERS = [
  org(
    'What the service does',
    'An identity is built from one or more source records. Each source record is identified by a source name ' +
      'plus an identifier within that source.',
  ),
  org(
    'What the service does',
    'how an added identity is decided to be new or an update of an existing one: not shown.',
  ),
  org('Events', 'searchNotifications returns a paginated feed of notifications for a date range'),
  pp(
    'Events',
    'The person service searchNotifications returns a paginated feed of messages that describe ' +
      'identity-changing events',
  ),
];
const PAGING_OPEN = org('Limits', 'Bounds of `pageNumber` and `pageSize`, and maximum request size: not shown.');
const NO_TIMING = [
  org('Endpoints, rule 2', 'postIdentity adds the posted identity and reports generated events in `events`'),
  org(
    'States and transitions',
    'Preconditions on the prior state of each operation, and any further states: not shown.',
  ),
];
const STATUSES = ['status-200', 'status-4xx', 'status-500'];
/** Enough for a read to catch up with a write that lags `ms`, with polls to spare. */
const budgetFor = (ms: number) => Math.max(3000, 4 * Math.abs(ms) + 1000);

export const VARIANT_LIST: VariantDefinition[] = [
  {
    name: 'lenient-validation',
    description:
      'no request-schema rejection: wrongly typed and unknown members are accepted and stored as sent; only a ' +
      'missing identity, a body that is not a JSON object and maxSearchResults <= 0 are rejected',
    seeds: [
      org(
        'Resources, Organization identity',
        'The identity object is required (`content.identity`) in postIdentity, demographicsSearch and ' +
          'demographicsQuery requests. No other field is marked required.',
      ),
      SUCCESS_OPEN,
    ],
    conflicts: ['strict-validation'],
    hooks: lenientHooks,
  },
  {
    name: 'strict-validation',
    description:
      'unknown members in the envelope or anywhere in the content, and out-of-range values (matchScoreThreshold ' +
      'outside 0..1, negative pageNumber, pageSize < 1), are rejected',
    seeds: [SUCCESS_OPEN, pp('Errors', 'HTTP status codes, error codes and message texts: not shown.')],
    conflicts: ['lenient-validation', 'member-names'],
    hooks: strictHooks,
  },
  {
    name: 'status-200',
    description: 'every failure is answered HTTP 200 with success=false in the envelope',
    seeds: STATUS_OPEN,
    conflicts: STATUSES,
    hooks: status200,
  },
  {
    name: 'status-4xx',
    description: 'validation failures are answered HTTP 422 (not found 404, state conflicts 409), with the envelope',
    seeds: STATUS_OPEN,
    conflicts: STATUSES,
    hooks: status4xx,
  },
  {
    name: 'status-500',
    description:
      'every failure (except authentication) is answered HTTP 500 with the envelope: success=false, message and ' +
      'errors, retryableError=false',
    seeds: STATUS_OPEN,
    conflicts: STATUSES,
    hooks: status500,
  },
  {
    name: 'absent-optional',
    description:
      'optional members that would be null are left out of the envelope and the content (postIdentity keeps ' +
      'linkId: null, rule 2)',
    seeds: [
      org('Resources, Organization identity', 'No other field is marked required.'),
      org('Resources, Search result', 'identityGroupedBySource | array | no'),
    ],
    hooks: absentOptional,
  },
  {
    name: 'extra-members',
    description:
      'unknown extra members in the envelope, the content, identities and their attribute objects, search ' +
      'results, notifications and events',
    seeds: [
      org('Versioning', 'Compatibility and deprecation rules: not shown.'),
      pp('Resources, Gaps in resources', 'Identity fields and payload fields of the provider service: not shown.'),
    ],
    hooks: extraMembers,
  },
  {
    name: 'minimal-replies',
    description:
      'replies carry only the members their state-table row or rule says they give: no toSurviveSource, ' +
      'linkToSource, unmerged/unlinked source references (provider unlink keeps them), customerSources, domains, ' +
      'customizedIdentities, linkIdentity, incomingIdentity, page customerId',
    seeds: [
      org('Resources, Organization identity', 'No other field is marked required.'),
      org('States and transitions', 'mergeIdentities ... a single surviving identity results; reply gives `linkId`'),
    ],
    hooks: minimalReplies,
  },
  {
    name: 'no-grouped-by-source',
    description: 'identityGroupedBySource is never sent (the DEFAULT view does not group by source)',
    seeds: [
      org('Resources, Search result', 'identityGroupedBySource | array | no'),
      org(
        'What the service does',
        'A request can name response identity views in `responseIdentityFormatNames`. When the list is omitted ' +
          'the view `DEFAULT` is used.',
      ),
    ],
    hooks: noGroupedBySource,
  },
  {
    name: 'link-id-format',
    description: 'link IDs in another format: a UUID, 19 decimal digits, or a URN',
    seeds: [
      org(
        'What the service does',
        'Identities are addressed by a service-wide identifier called the link ID (`linkId`).',
      ),
    ],
    parameter: { ...oneOf('format', LINK_ID_FORMATS, 'uuid'), detection: [...LINK_ID_FORMATS] },
    hooks: linkIdFormat,
  },
  {
    name: 'search-lag',
    description:
      'demographicsSearch and demographicsQuery read an index that sees each write only <ms> after it (the old ' +
      'state stays visible until then); nativeIdQuery and identityIdQuery are consistent',
    seeds: NO_TIMING,
    parameter: integer('lag in ms', 600, 0, 10000),
    profile: (ms: number) => ({ consistencyBudgetMs: budgetFor(ms) }),
    hooks: searchLag,
  },
  {
    name: 'notification-lag',
    description: 'a notification appears in searchNotifications only <ms> after its event',
    seeds: [
      org('Events', 'searchNotifications returns a paginated feed of notifications for a date range'),
      org('Events', 'Push delivery or callbacks: not shown.'),
    ],
    parameter: integer('lag in ms', 600, 0, 10000),
    profile: (ms: number) => ({ consistencyBudgetMs: budgetFor(ms) }),
    hooks: notificationLag,
  },
  {
    name: 'clock-skew',
    description:
      "the service's clock (notification timestamps and the date filter of searchNotifications) runs <ms> ahead " +
      "of the caller's (negative: behind)",
    seeds: [
      org('Resources, Field data types', 'DATE-TIME | string, ISO 8601 UTC timestamp `<timestamp>`'),
      org('Events', 'searchNotifications returns a paginated feed of notifications for a date range'),
    ],
    parameter: { ...integer('offset in ms', 2000, -60000, 60000), detection: ['2000', '-2000'] },
    // A user who knows the clocks may differ sets the skew the suite allows (at least this one).
    profile: (ms: number) => ({ notifications: { clockSkewMs: Math.abs(ms) + 1000 } }),
    hooks: clockSkew,
  },
  {
    name: 'pages-from-1',
    description: 'notification pages are numbered from 1; page 0 is rejected',
    seeds: [PAGING_OPEN],
    profile: () => ({ notifications: { firstPage: 1 } }),
    hooks: pagesFromOne,
  },
  {
    name: 'page-size-cap',
    description:
      'the service serves at most <n> notifications per page whatever pageSize asks for; hasNext and ' +
      'totalElements stay truthful',
    seeds: [PAGING_OPEN],
    parameter: integer('largest page', 2, 1, 1000),
    hooks: pageSizeCap,
  },
  {
    name: 'event-shapes',
    description:
      'events elements as strings or objects with other member names; notifications with other member names ' +
      '(still naming the records and link IDs they are about)',
    seeds: [
      org('Resources, Gaps in resources', 'Fields of an element of `events`: not shown.'),
      org('Resources, Gaps in resources', 'Fields of an element of `notifications`: not shown.'),
      pp('Events', 'The complete list of event kinds and the fields of an event or notification: not shown.'),
    ],
    parameter: {
      ...oneOf('events form', ['strings', 'objects'] as const, 'strings'),
      detection: ['strings', 'objects'],
    },
    hooks: eventShapes,
  },
  {
    name: 'narrow-storage',
    description:
      'a request holding a string longer than <width> characters, or a character outside the Basic Multilingual ' +
      'Plane (emoji, rare CJK), anywhere (envelope too), is refused as a validation failure',
    seeds: [
      org('Limits', 'Bounds of `pageNumber` and `pageSize`, and maximum request size: not shown.'),
      pp('Limits', 'Rate limits and request size limits: not shown.'),
      SUCCESS_OPEN,
    ],
    parameter: integer('width in characters', 255, 64, 100000),
    hooks: narrowStorage,
  },
  {
    name: 'standardised-text',
    description:
      "the identity's text is shown standardised: upper case, Unicode composed (NFC), whitespace runs as one space, " +
      'trimmed (identifiers and source references as they were)',
    seeds: [
      org(
        'What the service does',
        'A request can name response identity views in `responseIdentityFormatNames`. ' +
          'When the list is omitted the view `DEFAULT` is used.',
      ),
      org(
        'Resources, Gaps in resources',
        'Structure of `customerSources` elements and of `customizedIdentities` (keyed by view name): not shown.',
      ),
    ],
    hooks: standardisedText,
  },
  {
    name: 'datetime-offset',
    description:
      'DATE-TIME values are written with a +00:00 offset and microseconds (2026-01-01T10:00:00.123000+00:00) ' +
      'instead of Z',
    seeds: [org('Resources, Field data types', 'DATE-TIME | string, ISO 8601 UTC timestamp `<timestamp>`')],
    hooks: datetimeOffset,
  },
  {
    name: 'threshold',
    description: 'the match threshold of postIdentity linking and demographicsQuery is <value> instead of 0.9',
    seeds: [
      org('What the service does', 'The match threshold that demographicsQuery applies: not shown.'),
      pp(
        'Endpoints, Person service',
        '/v2/demographicsQuery ... a match only when its score reaches the same threshold used when matching in ' +
          'postIdentity',
      ),
    ],
    parameter: { ...decimal('threshold', 0.7, 0, 1, true), detection: ['0.7', '0.95'] },
    hooks: threshold,
  },
  {
    name: 'max-results',
    description:
      'a system maximum of <n> search results: applied when maxSearchResults is absent, and as a cap when it ' +
      'asks for more',
    seeds: [
      pp(
        'Limits',
        '`maxSearchResults` must be greater than 0; when absent, the system maximum number of results is returned.',
      ),
      pp('Limits', 'The value of that system maximum: not shown.'),
    ],
    parameter: integer('system maximum', 3, 1, 1000),
    hooks: maxResults,
  },
  {
    name: 'restore-after-delete-succeeds',
    description:
      'restoreSource of a source the service does not hold (hard-deleted, or never posted) answers success=true ' +
      'with nothing modified or created',
    seeds: [
      org(
        'States and transitions',
        'Preconditions on the prior state of each operation, and any further states: not shown.',
      ),
    ],
    services: ['organization', 'provider'],
    hooks: restoreAfterDeleteSucceeds,
  },
  {
    name: 'restore-new-identity',
    description:
      'a restored source always comes back in a new identity (linkIdCreated), never rejoining its former one',
    seeds: RESTORE_OPEN,
    services: ['organization', 'provider'],
    hooks: restoreNewIdentity,
  },
  {
    name: 'restore-joins-other',
    description:
      'a restored source joins the identity of a record it once shared one with (through a link or a merge) ' +
      'that now lives elsewhere, named in linkIdsModified',
    seeds: RESTORE_OPEN,
    services: ['organization', 'provider'],
    conflicts: ['restore-new-identity'],
    hooks: restoreJoinsOther,
  },
  {
    name: 'soft-deleted-visible',
    description: 'nativeIdQuery of a soft-deleted source still answers, with the link ID it had and its preserved data',
    seeds: [
      org('States and transitions', 'softDeleteSource | active | ... | soft-deleted | data history is preserved'),
      org(
        'States and transitions',
        'Preconditions on the prior state of each operation, and any further states: not shown.',
      ),
    ],
    services: ['organization'],
    profile: () => ({ softDeletedLookup: 'any' }),
    hooks: softDeletedVisible,
  },
  {
    name: 'retired-follow-survivor',
    description:
      'sources merged into a source follow it when it is linked, unlinked or restored into another identity, ' +
      'and stay in its identity, visible through it, when it is deleted',
    seeds: [
      FURTHER,
      pp('States and transitions', 'Effects on the attributes of a retired person source after a merge: not shown.'),
    ],
    hooks: retiredFollowSurvivor,
  },
  {
    name: 'retired-link-forwarding',
    description:
      'identityIdQuery of a link ID no longer in use (merged away, linked or unlinked elsewhere) answers the ' +
      'identity that now holds its source, echoing the requested link ID',
    seeds: [FURTHER, org('Endpoints, rule 3', 'identityIdQuery echoes the requested link ID in `requestedLinkId`.')],
    hooks: retiredLinkForwarding,
  },
  {
    name: 'stale-links',
    description:
      'identityIdQuery of a link ID no longer in use answers, for ever and after any delete: chain, the ' +
      'identity its records went into along every move; self, itself as an identity with no sources and no data; ' +
      'any, some unrelated live identity (person: never an identity deleted with its only source record)',
    seeds: [
      FURTHER,
      org('Endpoints, rule 3', 'identityIdQuery echoes the requested link ID in `requestedLinkId`.'),
      pp(
        'States and transitions',
        'person | deleteSourceIdentity | any | deleted | physical deletion; when it is the only source record ' +
          'of an identity the whole identity is deleted',
      ),
    ],
    parameter: { ...oneOf('answer', STALE_LINK_MODES, 'chain'), detection: [...STALE_LINK_MODES] },
    conflicts: ['retired-link-forwarding'],
    hooks: staleLinks,
  },
  {
    name: 'retired-released',
    description:
      'sources merged into a record become active, each in a new identity of its own, once that record is ' +
      'hard-deleted, linked or unlinked elsewhere, or soft-deleted (organization)',
    seeds: [
      FURTHER,
      pp('States and transitions', 'Effects on the attributes of a retired person source after a merge: not shown.'),
    ],
    conflicts: ['retired-follow-survivor'],
    hooks: retiredReleased,
  },
  {
    name: 'members-follow',
    description:
      'the other sources of the identity a merge retires a source from, or a link moves a source out of, go ' +
      'along into the target identity',
    seeds: [
      FURTHER,
      org(
        'States and transitions',
        'mergeIdentities | active (both) | `toRetireSource` is retired into `toSurviveSource` | retired ' +
          '(merged) for the retired source | a single surviving identity results',
      ),
    ],
    hooks: membersFollow,
  },
  {
    name: 'retired-lookup-absent',
    description: 'nativeIdQuery of a merged (retired) source finds nothing, instead of the surviving identity',
    seeds: [
      org(
        'States and transitions',
        'mergeIdentities | ... | retired (merged) for the retired source | a single surviving identity results',
      ),
      pp('States and transitions', 'person | mergeIdentities | active | toRetire record becomes merged and inactive'),
    ],
    hooks: retiredLookupAbsent,
  },
  {
    name: 'retired-data-hidden',
    description: "the survivor's identity shows its active sources' data only, not that of the sources merged into it",
    seeds: [
      org(
        'States and transitions',
        'unmergeIdentities | retired | data of `unmergeSource` taken from the retired section of `unmergeFromSource`',
      ),
    ],
    services: ['organization'],
    hooks: () => retiredData('hidden'),
  },
  {
    name: 'retired-data-shown',
    description: "the survivor's identity also shows the attributes of the records merged into it",
    seeds: [
      pp('States and transitions', 'Effects on the attributes of a retired person source after a merge: not shown.'),
    ],
    services: ['person'],
    hooks: () => retiredData('shown'),
  },
  {
    name: 'soft-deleted-data-shown',
    description:
      "an identity keeps showing a soft-deleted source's data in its consolidated identity (the source is no " +
      'longer listed or found)',
    seeds: [
      org('States and transitions', 'softDeleteSource | active | ... | soft-deleted | data history is preserved'),
    ],
    services: ['organization'],
    hooks: softDeletedDataShown,
  },
  {
    name: 'departed-data-shown',
    description: "an identity a source left by link or unlink keeps showing that source's data",
    seeds: [
      FURTHER,
      pp(
        'States and transitions',
        'person | linkIdentities | active | active | two records (by source and native ID) are forced into the ' +
          'same link ID',
      ),
    ],
    hooks: departedDataShown,
  },
  {
    name: 'lenient-preconditions',
    description:
      'requests from states the state table does not name (merge or link of sources already in one identity, ' +
      'unlink of sources in two, unmerge of a source not merged into the other, soft delete, restore, deactivate ' +
      'or reactivate from another state) succeed and change nothing',
    seeds: [FURTHER],
    hooks: lenientPreconditions,
  },
  {
    name: 'no-households',
    description: 'householdQuery finds no household, by any lookup form (people are never grouped)',
    seeds: [pp('States and transitions', 'Transitions of relationship status and of households: not shown.')],
    services: ['person'],
    hooks: noHouseholds,
  },
  {
    name: 'no-events',
    description: 'postIdentity never returns events',
    seeds: [
      org('Events', 'postIdentity may return generated events in `content.events`.'),
      pp('Events', 'The person service postIdentity reply can carry `events`.'),
    ],
    hooks: noEvents,
  },
  {
    name: 'relationship-object',
    description:
      'searchRelationshipsService answers `relationship` as one object (the first match) or null, not as a list',
    seeds: [org('Endpoints', 'searchRelationshipsService | relationship (used as the search criteria) | relationship')],
    services: ['organization', 'provider'],
    hooks: relationshipObject,
  },
  {
    name: 'member-names',
    description:
      `restoreSource, deactivateSourceWs and reactivateSourceWs name the source in "${SOURCE_MEMBER}"; person ` +
      `relationships name their link IDs ${PERSON_SUBJECT} / ${PERSON_OBJECT}`,
    seeds: [
      org('Endpoints', 'restoreSource | object (its members: not shown)'),
      pp(
        'Endpoints, Person service',
        'Payload members of the person operations marked above, and the name of the reference-data flag of ' +
          'identityIdQuery: not shown.',
      ),
    ],
    profile: () => ({
      members: { restoreSource: SOURCE_MEMBER, deactivateSource: SOURCE_MEMBER, reactivateSource: SOURCE_MEMBER },
      person: { relationshipSubject: PERSON_SUBJECT, relationshipObject: PERSON_OBJECT },
    }),
    conflicts: ['strict-validation'],
    hooks: memberNames,
  },
  {
    name: 'source-in-content',
    description: 'postIdentity reads its source reference from content.source only (identity.sources is not a member)',
    seeds: [
      org(
        'What the service does',
        'Each source record is identified by a source name plus an identifier within that source.',
      ),
      org(
        'Endpoints',
        'postIdentity | identity (required, organization identity), responseIdentityFormatNames[] (string)',
      ),
    ],
    profile: () => ({ sourcePlacement: 'content.source' }),
    hooks: sourceInContent,
  },
  {
    name: 'relationship-verbs',
    description: 'addRelationshipService accepts only the configured relationship verb <verb>',
    seeds: [
      org(
        'Resources, Gaps in resources',
        'Allowed values and formats of `relationshipVerb`, `status`, `trustFactor` and `domain`: not shown.',
      ),
      pp(
        'Endpoints, Provider service',
        '/addRelationshipService | adds a relationship between two identities according to configured ' +
          'relationship definitions',
      ),
    ],
    parameter: word('the configured verb', 'PARENT_OF'),
    profile: (verb: string) => ({ relationship: { verb } }),
    hooks: relationshipVerbs,
  },
  {
    name: 'person-basic-auth',
    description: 'the person service accepts HTTP basic credentials only; a bearer token is refused',
    seeds: [
      pp('Authentication', 'Which of the two schemes applies to which deployment of the person service: not shown.'),
    ],
    services: ['person'],
    profile: () => ({ person: { auth: 'basic' } }),
    hooks: personBasicAuth,
  },
  {
    name: 'latency',
    description: 'every request is answered <ms> later (plus up to half as much jitter)',
    seeds: [org('Limits', 'Rate limits: not shown.'), pp('Limits', 'Rate limits and request size limits: not shown.')],
    parameter: integer('latency in ms', 40, 0, 10000),
    hooks: (ms: number) => latency(ms, ms / 2),
  },
  {
    name: 'slow-tail',
    description:
      'a share <share> of requests, drawn independently of the request, is answered <ms> later (plus up to half ' +
      'as much)',
    seeds: [org('Limits', 'Rate limits: not shown.'), pp('Limits', 'Rate limits and request size limits: not shown.')],
    parameter: pairOf(
      'slow requests',
      '0.05/2000',
      { what: 'share', min: 0, max: 1 },
      { what: 'ms', min: 0, max: 20000 },
    ),
    hooks: ([share, ms]: [number, number]) => slowTail(share, ms),
  },
  {
    name: 'transient',
    description:
      'a share <rate> of requests, drawn independently of the request, fails before it is handled (nothing ' +
      'changes): HTTP 503, or success=false with retryableError=true on HTTP 200 or 500',
    seeds: [TRANSIENT_OPEN, ...STATUS_OPEN],
    parameter: decimal('failure rate', 0.2, 0, 1),
    alone: true,
    hooks: (rate: number) => transient(rate),
  },
  {
    name: 'transient-reset',
    description:
      'a share <rate> of requests, drawn independently of the request, loses its connection before it is ' +
      'handled (nothing changes, but the caller cannot know): the suite re-sends reads and postIdentity, never a ' +
      'merge or other change whose outcome is unknown, so such checks cannot be judged (the run is INCOMPLETE, ' +
      'never failed)',
    seeds: [TRANSIENT_OPEN, ...STATUS_OPEN],
    parameter: decimal('failure rate', 0.05, 0, 1),
    judge: 'no-fail',
    alone: true,
    hooks: (rate: number) => transient(rate, Math.random, ['reset']),
  },
  {
    name: 'restarts',
    description:
      'each service restarts at drawn moments (gaps of <gap> s on average): for <down> s every request to it is ' +
      'answered HTTP 503 without Retry-After, before it reaches the service (nothing changes)',
    seeds: [TRANSIENT_OPEN, ...STATUS_OPEN],
    parameter: pairOf('restarts', '3/30', { what: 'down', min: 0.1, max: 20 }, { what: 'gap', min: 1, max: 3600 }),
    // Every check meets the outages: bundled, it would slow every other variant's checks.
    alone: true,
    hooks: ([down, gap]: [number, number]) => restarts(down * 1000, gap * 1000),
  },
  {
    name: 'throttled',
    description:
      'a gateway lets through at most <n> requests per second per service (any one-second window) and answers ' +
      'the others HTTP 429 with Retry-After: 1, before they reach the service',
    seeds: RATE_OPEN,
    parameter: integer('requests per second per service', 20, 1, 10000),
    conflicts: ['throttled-bare'],
    // The whole run is paced by it: bundled, it would slow every other variant's checks.
    alone: true,
    hooks: (perSecond: number) => throttled(perSecond),
  },
  {
    name: 'throttled-bare',
    description: 'the throttled gateway answers HTTP 429 without Retry-After (the client chooses how long to wait)',
    seeds: RATE_OPEN,
    parameter: integer('requests per second per service', 20, 1, 10000),
    conflicts: ['throttled'],
    alone: true,
    hooks: (perSecond: number) => throttled(perSecond, {}),
  },
  {
    name: 'gone',
    description:
      'the deployment stops answering after it has taken <n> requests: every later request is left without a reply ' +
      '(the connection stays open), before it reaches the service (nothing changes); the checks still running ' +
      'cannot be judged, and the teardown cannot remove what the run created',
    seeds: [TRANSIENT_OPEN, ...STATUS_OPEN],
    // Every request after the cut waits out its timeout: npm run detection never runs it (detection: none). The
    // self-tests stage a cancel while the deployment is gone with it (test/interrupt-gone.test.ts).
    parameter: { ...integer('requests answered before', 300, 0, 1000000), detection: [] },
    judge: 'no-fail',
    alone: true,
    hooks: (answered: number) => gone(answered),
  },
  {
    name: 'busy',
    description:
      'other users write <n> records a second per service while the run goes on, under a source that is not a ' +
      'test source: new records with common names, updates of them, near duplicates that link into their ' +
      "identities or into the run's own, each with its notification in searchNotifications",
    seeds: OTHER_WRITERS,
    parameter: integer('records per second per service', 5, 1, 100),
    hooks: (perSecond: number) => busy(perSecond),
  },
];

export const VARIANTS = new Map(VARIANT_LIST.map((v) => [v.name, v]));
