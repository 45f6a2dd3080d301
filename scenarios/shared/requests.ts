/**
 * A valid request per operation of a service, naming only records the check owns: two posted
 * records A and B (with their link IDs), an unposted source with an identity for postIdentity,
 * and optionally a relationship the check added. Checks that send every operation (bad
 * credentials, bad input) start from these.
 * Source: organization-identity-api.md, Endpoints; person-provider-identity-api.md, Endpoints
 * (members "not shown" there follow the profile, harness/profile.ts).
 */
import type { Check } from '../../harness/check.js';
import type { OperationName } from '../../specs/common/operation-names.js';
import type { SourceRef } from '../../specs/common/wire.js';
import { postContent } from '../../generators/common.js';
import { relationshipContent } from './exercise.js';

export interface RequestContext {
  t: Check;
  a: SourceRef;
  b: SourceRef;
  linkA: string;
  linkB: string;
  /** A run-owned source nobody posted, and an identity on it (postIdentity; must stay unstored). */
  fresh: SourceRef;
  identity: Record<string, unknown>;
  /** A relationship the check added (deleteRelationshipService names it). */
  relationshipId?: string;
}

const src = (s: SourceRef) => ({ name: s.name, id: s.id });

/** searchRelationshipsService content: the person service filters by relationshipFilter, the others by a relationship. */
export function relationshipSearch(t: Check, subject: string): Record<string, unknown> {
  if (t.service === 'person') return { relationshipFilter: { filterBySubjectVeratoId: subject } };
  return { relationship: { [t.profile.members.relationshipSubject]: subject } };
}

/**
 * A valid request per operation of any service (a missing one is a compile error), naming only
 * the check's own records; createDataSource only where the profile lets the run create data sources.
 */
export function validRequests(ctx: RequestContext): Record<Exclude<OperationName, 'createDataSource'>, Record<string, unknown>> & {
  createDataSource?: Record<string, unknown>;
} {
  const { t, a, b } = ctx;
  const m = t.profile.members;
  return {
    postIdentity: postContent(ctx.identity, ctx.fresh, t.profile.sourcePlacement),
    deleteSourceIdentity: { source: src(a) },
    demographicsSearch: { identity: ctx.identity, matchScoreThreshold: 0.5, maxSearchResults: 5 },
    demographicsQuery: { identity: ctx.identity },
    nativeIdQuery: { source: src(a) },
    identityIdQuery: { linkId: ctx.linkA },
    softDeleteSource: { sourceToSoftDelete: src(a) },
    restoreSource: { [m.restoreSource]: src(a) },
    deactivateSourceWs: { [m.deactivateSource]: src(a) },
    reactivateSourceWs: { [m.reactivateSource]: src(a) },
    mergeIdentities: { toSurviveSource: src(a), toRetireSource: src(b) },
    unmergeIdentities: { unmergeFromSource: src(a), unmergeSource: src(b) },
    linkIdentities: { linkToSource: src(a), source: src(b) },
    unlinkIdentities: { unlinkFromSource: src(a), source: src(b) },
    addRelationshipService: relationshipContent(t, ctx.linkA, ctx.linkB),
    searchRelationshipsService: relationshipSearch(t, ctx.linkA),
    deleteRelationshipService: { id: ctx.relationshipId ?? 'not-a-relationship-of-this-run' },
    searchNotifications: {
      pageNumber: t.profile.notifications.firstPage,
      pageSize: t.profile.notifications.pageSize,
      startDate: new Date(Date.now() - 3600_000).toISOString(),
      endDate: new Date().toISOString(),
    },
    householdQuery: { linkId: ctx.linkA },
    ...(t.profile.createDataSources
      ? { createDataSource: { sources: [`${t.run.namespace}ds-auth-${t.faker.string.alphanumeric({ length: 6, casing: 'lower' })}`] } }
      : {}),
  };
}
