/**
 * The operations-table factory for the 16 operations the organization and provider services share (same paths, same
 * request and reply members; only the identity schema differs). Each row: path, request content schema, reply content
 * schema, sources named.
 *
 * Source: organization-identity-api.md, Endpoints (table and rules 1-3); person-provider-identity-api.md, Endpoints,
 * "Provider service" (same operations; members "not shown" there, read as in the organization document and the vendor
 * description).
 */
import { z } from 'zod';
import { SHARED_OPERATIONS, type SharedOperation } from './operation-names.js';
import {
  type OperationRow,
  type OperationSpec,
  type ServiceName,
  noSources,
  operationsOf,
  sourcesAt,
} from './model.js';
import { NotificationPage, NotificationQuery, Relationship, SearchResult, identityReplyShape } from './resources.js';
import { SourceRef, arr, obj, opt } from './wire.js';
import { sourceExample } from './source-requests.js';

const views = { responseIdentityFormatNames: arr(z.string()) };

/** The named members of a reply's content (link IDs it gives). */
const given =
  (...members: string[]) =>
  (_: Record<string, unknown>, reply: Record<string, any>) =>
    members.map((m) => reply?.[m]);

/**
 * Link IDs a postIdentity reply's events give for the posted source: an event naming that source (`source`, as name and
 * ID) with a `linkId`. The fields of an event are "not shown" (organization-identity-api.md, Resources, Gaps): where a
 * deployment's events read otherwise this gives nothing, and the link ID of a record that matched nothing (rule 2: the
 * reply's linkId is null) is learned only when a query of its source reveals it.
 */
function postedEventLinkIds(content: Record<string, unknown>, reply: Record<string, any>): unknown[] {
  const posted = postedSources(content);
  const events: unknown[] = Array.isArray(reply?.events) ? reply.events : [];
  return events.flatMap((e) => {
    const ev = (e ?? {}) as { linkId?: unknown; source?: Partial<SourceRef> };
    const names = posted.some((s) => s?.name === ev.source?.name && s?.id === ev.source?.id);
    return names && typeof ev.linkId === 'string' ? [ev.linkId] : [];
  });
}

/** Sources a postIdentity names: the identity's `sources[]` and a content-level `source`, if any. */
const postedSources = (c: Record<string, unknown>) => {
  const identity = c?.identity as { sources?: unknown } | undefined;
  const list = Array.isArray(identity?.sources) ? (identity!.sources as Array<Partial<SourceRef>>) : [];
  return [...list, c?.source as Partial<SourceRef> | undefined].filter(Boolean);
};

/**
 * The 16 operations every identity service shares (organization and provider use them all), built for one service, in
 * the order of SHARED_OPERATIONS (a row missing from the table is a compile error): `identity` is its identity schema,
 * `idPrefix` the prefix of its requirement IDs (the shape requirement of an operation is `<idPrefix>-OP-<NAME>`).
 */
export function identityOperations(service: ServiceName, idPrefix: string, identity: z.ZodType): OperationSpec[] {
  return operationsOf(service, idPrefix, identityOperationTable(identity), SHARED_OPERATIONS).map((op) => {
    const linkIdsGiven = LINK_IDS_GIVEN[op.name as SharedOperation];
    return linkIdsGiven ? { ...op, linkIdsGiven } : op;
  });
}

/**
 * The link IDs a reply gives for the sources its request names, beside `linkId` (OperationSpec.linkIdsGiven).
 * Source: organization-identity-api.md, States and transitions (restoreSource "reply lists linkIdsModified and
 * linkIdCreated"; mergeIdentities "a single surviving identity results; reply gives linkId"; unmergeIdentities "active
 * in a new identity | reply gives unmergedId and unmergedFromId"; linkIdentities "reply gives linkId";
 * unlinkIdentities "active in a separate identity | reply gives unlinkedId and unlinkedFromId"), Endpoints rule 2.
 */
const LINK_IDS_GIVEN: Partial<Record<SharedOperation, OperationSpec['linkIdsGiven']>> = {
  postIdentity: postedEventLinkIds,
  restoreSource: given('linkIdCreated'),
  mergeIdentities: given('linkId'),
  unmergeIdentities: given('unmergedId', 'unmergedFromId'),
  linkIdentities: given('linkId'),
  unlinkIdentities: given('unlinkedId', 'unlinkedFromId'),
};

/** The rows of identityOperations by name, each keeping its reply schema's type (SharedReplyContent reads them). */
function identityOperationTable<I extends z.ZodType>(identity: I) {
  return {
    postIdentity: {
      example: (c) => c.post,
      path: '/postIdentity',
      mutates: true,
      request: obj({ identity, ...views }),
      reply: obj({
        ...identityReplyShape(identity),
        linkIdentity: opt(identity),
        events: arr(z.unknown()),
        incomingIdentity: opt(identity),
      }),
      sourcesNamed: postedSources,
      sourcesCreated: postedSources,
      revealsLinkIdOf: postedSources,
      // Re-posting the same source and native ID is an update (person seed: "the source plus native ID decides between
      // create and update").
      idempotent: true,
    },
    deleteSourceIdentity: {
      example: sourceExample('deleteSourceIdentity'),
      path: '/deleteSourceIdentity',
      mutates: true,
      request: obj({ source: SourceRef }),
      reply: obj({ linkIdsModified: arr(z.string()), linkIdsDeleted: arr(z.string()) }),
      sourcesNamed: sourcesAt('source'),
      // organization-identity-api.md, Lifecycle: "all information of the source is removed".
      sourcesRemoved: sourcesAt('source'),
    },
    demographicsSearch: {
      example: (c) => ({ identity: c.queryIdentity, matchScoreThreshold: 0.5, maxSearchResults: 5 }),
      path: '/demographicsSearch',
      mutates: false,
      request: obj({
        identity,
        matchScoreThreshold: opt(z.number()),
        maxSearchResults: opt(z.number().int()),
        ...views,
      }),
      reply: obj({ searchResults: z.array(SearchResult(identity)) }),
      sourcesNamed: noSources,
    },
    demographicsQuery: {
      example: (c) => ({ identity: c.queryIdentity }),
      path: '/demographicsQuery',
      mutates: false,
      request: obj({ identity, ...views }),
      reply: obj(identityReplyShape(identity)),
      sourcesNamed: noSources,
    },
    nativeIdQuery: {
      example: (c) => ({ source: c.a }),
      path: '/nativeIdQuery',
      mutates: false,
      request: obj({ source: SourceRef, ...views }),
      reply: obj(identityReplyShape(identity)),
      sourcesNamed: noSources,
      revealsLinkIdOf: sourcesAt('source'),
    },
    identityIdQuery: {
      example: (c) => ({ linkId: c.linkA }),
      path: '/identityIdQuery',
      mutates: false,
      request: obj({ linkId: z.string(), ...views }),
      reply: obj({ ...identityReplyShape(identity), requestedLinkId: opt(z.string()) }),
      sourcesNamed: noSources,
    },
    softDeleteSource: {
      example: sourceExample('softDeleteSource'),
      path: '/softDeleteSource',
      mutates: true,
      request: obj({ sourceToSoftDelete: SourceRef }),
      reply: obj({ linkIdsSoftDeleted: arr(z.string()), linkIdsModified: arr(z.string()) }),
      sourcesNamed: sourcesAt('sourceToSoftDelete'),
    },
    restoreSource: {
      example: sourceExample('restoreSource'),
      path: '/restoreSource',
      mutates: true,
      // Members of the restore request: "not shown"; the profile names the member (default sourceToRestore).
      request: obj({}),
      reply: obj({ linkIdsModified: arr(z.string()), linkIdCreated: opt(z.string()) }),
      sourcesNamed: (c, names) => [c?.[names.restoreSourceMember] as Partial<SourceRef> | undefined],
    },
    mergeIdentities: {
      example: sourceExample('mergeIdentities'),
      path: '/mergeIdentities',
      mutates: true,
      request: obj({ toSurviveSource: SourceRef, toRetireSource: SourceRef }),
      reply: obj({ linkId: opt(z.string()), toSurviveSource: opt(SourceRef) }),
      sourcesNamed: sourcesAt('toSurviveSource', 'toRetireSource'),
    },
    unmergeIdentities: {
      example: sourceExample('unmergeIdentities'),
      path: '/unmergeIdentities',
      mutates: true,
      request: obj({ unmergeFromSource: SourceRef, unmergeSource: SourceRef }),
      reply: obj({
        unmergedSource: opt(SourceRef),
        unmergedFromSource: opt(SourceRef),
        unmergedId: opt(z.string()),
        unmergedFromId: opt(z.string()),
      }),
      sourcesNamed: sourcesAt('unmergeFromSource', 'unmergeSource'),
    },
    linkIdentities: {
      example: sourceExample('linkIdentities'),
      path: '/linkIdentities',
      mutates: true,
      request: obj({ linkToSource: SourceRef, source: SourceRef }),
      reply: obj({ linkId: opt(z.string()), linkToSource: opt(SourceRef) }),
      sourcesNamed: sourcesAt('linkToSource', 'source'),
    },
    unlinkIdentities: {
      example: sourceExample('unlinkIdentities'),
      path: '/unlinkIdentities',
      mutates: true,
      request: obj({ unlinkFromSource: SourceRef, source: SourceRef }),
      reply: obj({
        unlinkedId: opt(z.string()),
        unlinkedSource: opt(SourceRef),
        unlinkedFromId: opt(z.string()),
        unlinkedFromSource: opt(SourceRef),
      }),
      sourcesNamed: sourcesAt('unlinkFromSource', 'source'),
    },
    addRelationshipService: {
      example: (c) => c.relationship(c.linkA, c.linkB),
      path: '/addRelationshipService',
      mutates: true,
      request: obj({ relationship: Relationship }),
      reply: obj({ relationship: opt(Relationship) }),
      sourcesNamed: noSources,
      linkIdsNamed: (c, names) => {
        const r = (c?.relationship ?? {}) as Record<string, unknown>;
        return [r[names.relationshipSubjectMember], r[names.relationshipObjectMember]].filter((v) => v !== undefined);
      },
      relationshipCreated: (reply) => reply?.relationship?.id,
    },
    searchRelationshipsService: {
      example: (c) => ({ relationship: { [c.names.relationshipSubjectMember]: c.linkA } }),
      path: '/searchRelationshipsService',
      mutates: false,
      request: obj({ relationship: Relationship }),
      // The seed names the reply member `relationship` without saying object or list: accept both.
      reply: obj({ relationship: opt(z.union([Relationship, z.array(Relationship)])) }),
      sourcesNamed: noSources,
    },
    deleteRelationshipService: {
      example: (c) => ({ id: c.relationshipId ?? 'not-a-relationship-of-this-run' }),
      path: '/deleteRelationshipService',
      mutates: true,
      request: obj({ id: z.string() }),
      reply: obj({ id: opt(z.string()) }),
      sourcesNamed: noSources,
      relationshipsNamed: (c) => (c?.id === undefined ? [] : [c.id]),
      relationshipsRemoved: (c) => (c?.id === undefined ? [] : [c.id]),
    },
    searchNotifications: {
      example: (c) => c.notificationPage,
      path: '/searchNotifications',
      mutates: false,
      request: NotificationQuery,
      reply: NotificationPage,
      sourcesNamed: noSources,
    },
  } satisfies Record<SharedOperation, OperationRow>;
}

/** An identity as reply types give it: an object of members (each service's schema says which). */
export type IdentityData = Record<string, unknown>;

/**
 * The reply content of each shared operation as its schema in the table gives it: the members the seeds document, each
 * optional and nullable where the contract reads it so, unknown extra members allowed. Source:
 * organization-identity-api.md, Endpoints.
 */
export type SharedReplyContent = {
  [K in SharedOperation]: z.infer<ReturnType<typeof identityOperationTable<z.ZodType<IdentityData>>>[K]['reply']>;
};
