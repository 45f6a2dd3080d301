/**
 * The person operations table: all 18 operations with path, request content schema and reply content schema. The rows
 * the person service shares with the others come from the shared factory (specs/common/operations.ts) and only what
 * differs is stated here: the `/v2` path of the first five operations, the person request options and reply members,
 * source lifecycle by deactivate / reactivate instead of soft delete / restore, householdQuery, createDataSource, and
 * the relationship members.
 *
 * Source: person-provider-identity-api.md, Endpoints ("Person service"), Resources ("Person request content options",
 * "Person reply content members"), Versioning. Members the seed marks "not shown" follow the vendor description:
 * householdQuery {householdId | linkId | source} replying {householdId, linkIdsInHousehold}; createDataSource {sources:
 * [name]} replying datasourceCreationResponses[{datasource, status, error}]; relationships with subject and object link
 * IDs (member names are profile settings, see harness/profile.ts `person`), a search by `relationshipFilter`
 * {filterBySubjectVeratoId, filterByObjectVeratoId, filterByRelationshipVerb} replying `relationships[]`; deactivate /
 * reactivate name the source in the members the profile gives (`members.deactivateSource`, `members.reactivateSource`).
 */
import { z } from 'zod';
import { type OperationRow, type OperationSpec, operationsOf } from '../common/model.js';
import {
  NOT_PERSON,
  PERSON_ONLY_OPERATIONS,
  type PersonOnlyOperation,
  type PersonOperation,
  type SharedOperation,
} from '../common/operation-names.js';
import { type SharedReplyContent, identityOperations } from '../common/operations.js';
import { Relationship, identityReplyShape } from '../common/resources.js';
import { DateTimeString, SourceRef, arr, obj, opt } from '../common/wire.js';
import { PersonIdentity } from './identity.js';
import { sourceExample } from '../common/source-requests.js';

const views = { responseIdentityFormatNames: arr(z.string()) };
/** includeEnrichData: include enrichment data in the reply (default false). */
const enrich = { includeEnrichData: opt(z.boolean()) };

/** Members every person identity reply may add to the shared ones (structures "not shown"). */
const personReplyExtras = {
  customizedIdentitiesWithSource: opt(z.record(z.string(), z.unknown())),
  vinIds: arr(z.unknown()),
  enrichedDetails: opt(z.unknown()),
};
const identityReply = { ...identityReplyShape(PersonIdentity), ...personReplyExtras };

/** Search result element: its fields are "not shown" for the person service, so all are optional. */
export const PersonSearchResult = obj({ ...identityReply, matchScore: opt(z.number()), sameIdentity: opt(z.string()) });

/** A person relationship: the shared members plus the vendor's subject / object link-ID members. */
export const PersonRelationship = Relationship.extend({
  subjectVeratoId: opt(z.string()),
  objectVeratoId: opt(z.string()),
});

/** searchRelationshipsService filter: subject link ID, object link ID and relationship verb. */
export const RelationshipFilter = obj({
  filterBySubjectVeratoId: opt(z.string()),
  filterByObjectVeratoId: opt(z.string()),
  filterBySubjectOrObjectVeratoId: opt(z.string()),
  filterByRelationshipVerb: opt(z.string()),
});

/** Paths that carry the `/v2` segment (Versioning). */
const V2 = new Set(['postIdentity', 'demographicsSearch', 'demographicsQuery', 'identityIdQuery', 'nativeIdQuery']);

/** What the person service changes in a shared row (schemas, sources named). */
const overrides = {
  postIdentity: {
    request: obj({ ...enrich, identity: PersonIdentity, ...views }),
    reply: obj({
      ...identityReply,
      linkIdentity: opt(PersonIdentity),
      events: arr(z.unknown()),
      incomingIdentity: opt(PersonIdentity),
    }),
  },
  demographicsSearch: {
    request: obj({
      ...enrich,
      identity: PersonIdentity,
      matchScoreThreshold: opt(z.number()),
      maxSearchResults: opt(z.number().int()),
      ...views,
    }),
    reply: obj({ searchResults: z.array(PersonSearchResult) }),
  },
  demographicsQuery: { request: obj({ ...enrich, identity: PersonIdentity, ...views }), reply: obj(identityReply) },
  identityIdQuery: {
    request: obj({ linkId: z.string(), ...enrich, ...views }),
    reply: obj({ ...identityReply, requestedLinkId: opt(z.string()) }),
  },
  nativeIdQuery: { request: obj({ source: SourceRef, ...enrich, ...views }), reply: obj(identityReply) },
  addRelationshipService: {
    request: obj({ relationship: PersonRelationship }),
    reply: obj({ relationship: opt(PersonRelationship) }),
  },
  searchRelationshipsService: {
    request: obj({ relationshipFilter: opt(RelationshipFilter) }),
    example: (c) => ({ relationshipFilter: { filterBySubjectVeratoId: c.linkA } }),
    reply: obj({
      relationships: arr(PersonRelationship),
      relationship: opt(z.union([PersonRelationship, z.array(PersonRelationship)])),
    }),
  },
  // Notification payload members are "not shown" for the person service: read tolerantly.
  searchNotifications: {
    reply: obj({
      customerId: opt(z.string()),
      hasNext: opt(z.boolean()),
      notifications: arr(z.unknown()),
      totalElements: opt(z.number().int().min(0)),
    }),
  },
} satisfies Partial<Record<PersonOperation, Partial<OperationSpec>>>;

/** The person-only rows (a row missing here is a compile error). */
const personOnly = {
  deactivateSourceWs: {
    example: sourceExample('deactivateSourceWs'),
    path: '/deactivateSourceWs',
    mutates: true,
    request: obj({}),
    reply: obj({ linkIdsModified: arr(z.string()), linkIdsDeactivated: arr(z.string()) }),
    sourcesNamed: (c, names) => [c?.[names.deactivateSourceMember] as Partial<SourceRef> | undefined],
  },
  reactivateSourceWs: {
    example: sourceExample('reactivateSourceWs'),
    path: '/reactivateSourceWs',
    mutates: true,
    request: obj({}),
    reply: obj({ linkIdsModified: arr(z.string()), linkIdCreated: opt(z.string()) }),
    sourcesNamed: (c, names) => [c?.[names.reactivateSourceMember] as Partial<SourceRef> | undefined],
  },
  householdQuery: {
    example: (c) => ({ linkId: c.linkA }),
    path: '/householdQuery',
    mutates: false,
    request: obj({ householdId: opt(z.string()), linkId: opt(z.string()), source: opt(SourceRef) }),
    reply: obj({
      householdId: opt(z.string()),
      linkIdsInHousehold: arr(z.string()),
      createDate: opt(DateTimeString),
      lastUpdateDate: opt(DateTimeString),
    }),
    sourcesNamed: () => [],
  },
  createDataSource: {
    example: (c) => (c.newDataSource === undefined ? undefined : { sources: [c.newDataSource] }),
    path: '/createDataSource',
    mutates: true,
    // The limit of 10 is a rule checked by behaviour (PERSON-DATASOURCE-LIMIT), not by the schema.
    request: obj({ sources: z.array(z.string()) }),
    reply: obj({
      datasourceCreationResponses: arr(
        obj({ datasource: opt(z.string()), status: opt(z.string()), error: opt(z.string()) }),
      ),
    }),
    sourcesNamed: () => [],
    namesCreated: (c) => (Array.isArray(c?.sources) ? c.sources : [c?.sources]),
  },
} satisfies Record<PersonOnlyOperation, OperationRow>;

const notPerson = new Set<string>(NOT_PERSON);
/** The overrides looked up by any person operation's name (their literal type keeps PersonReplyContent's schemas). */
const changes: Partial<Record<PersonOperation, Partial<OperationSpec>>> = overrides;

export const personOperations: OperationSpec[] = [
  ...identityOperations('person', 'PERSON', PersonIdentity)
    .filter((op) => !notPerson.has(op.name))
    .map((op) => ({
      ...op,
      ...changes[op.name as PersonOperation],
      path: V2.has(op.name) ? `/v2${op.path}` : op.path,
    })),
  ...operationsOf('person', 'PERSON', personOnly, PERSON_ONLY_OPERATIONS),
];

/**
 * The reply content of each person operation as its schema gives it (the person row where it differs from the shared
 * one, else the shared row's). Source: person-provider-identity-api.md, Resources, "Person reply content members";
 * members "not shown" as the vendor description has them.
 */
export type PersonReplyContent = {
  [K in PersonOperation]: K extends keyof typeof overrides
    ? (typeof overrides)[K] extends { reply: infer R extends z.ZodType }
      ? z.infer<R>
      : SharedReplyContent[K & SharedOperation]
    : K extends PersonOnlyOperation
      ? z.infer<(typeof personOnly)[K]['reply']>
      : SharedReplyContent[K & SharedOperation];
};
