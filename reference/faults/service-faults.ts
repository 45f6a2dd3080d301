/**
 * Faults of the person and provider services' own rules (the operations they share with the organization service get
 * theirs from the SHARED list of catalogue.ts): one realistic defect per MUST requirement of
 * specs/person/requirements.ts and specs/provider/requirements.ts that a black box can observe, plus some EXPECT rows.
 *
 * MUST requirements with no fault here or in SHARED, and why:
 * - PERSON-SYSTEM-MAX-VALUE, PERSON-DATASOURCE-AVAILABILITY, PERSON-AUTH-SCHEME-CHOICE, PERSON-RATE-LIMITS,
 *   PERSON-VERSION, PROV-RATE-LIMITS, PROV-VERSION: untestable (the requirement's `untestable` reason).
 * - "customerId ignored": not observable (a reply does not reveal whether the deployment read customerId); the
 *   observable defect, customerId rejected, is `person-customerid-rejected`.
 *
 * Sources: person-provider-identity-api.md (sections named by each requirement).
 */
import { Rejection, recordNamed as rec } from '../handlers/types.js';
import { perStore } from '../store.js';
import type { FaultDefinition } from './types.js';
import type { ReplyInfo } from './types.js';
import { mapIdentities, withoutEffect } from './transforms.js';
import { idQueryAnswer } from '../handlers/identity.js';

const ok = (i: ReplyInfo) => i.status < 300 && i.body.success === true;

/** Link IDs whose identity a hard delete removed, per store (person-delete-keeps-identity). */
const deleted = perStore(() => new Set<string>());

const person = (f: Omit<FaultDefinition, 'service'>): FaultDefinition => ({ ...f, service: 'person' });
const provider = (f: Omit<FaultDefinition, 'service'>): FaultDefinition => ({ ...f, service: 'provider' });

/** A handler that matches the person relationship filter `from` against the member `to` filters by. */
const filterMovedTo =
  (from: string, to: string): FaultDefinition['handler'] =>
  (next, ctx) => {
    const f = ctx.content.relationshipFilter ?? {};
    return f[from]
      ? next({ ...ctx, content: { relationshipFilter: { ...f, [from]: undefined, [to]: f[from] } } })
      : next(ctx);
  };

export const PERSON_FAULTS: FaultDefinition[] = [
  // Envelope and request options
  person({
    name: 'person-customerid-rejected',
    requirement: 'PERSON-ENV-CUSTOMERID',
    description: 'a request envelope carrying customerId is rejected as carrying an unknown member',
    handler: (next, ctx) => {
      if (ctx.envelope.customerId !== undefined) throw new Rejection(400, 'unknown envelope member customerId');
      return next(ctx);
    },
  }),
  person({
    name: 'person-enrich-default-true',
    requirement: 'PERSON-ENRICH-DEFAULT',
    operations: ['postIdentity', 'demographicsSearch', 'demographicsQuery', 'identityIdQuery', 'nativeIdQuery'],
    description: 'includeEnrichData defaults to true: omitting it adds enrichment data that sending false does not',
    handler: (next, ctx) =>
      next(
        ctx.content.includeEnrichData === undefined
          ? { ...ctx, content: { ...ctx.content, includeEnrichData: true } }
          : ctx,
      ),
  }),
  // Data types
  person({
    name: 'person-latitude-as-string',
    requirement: 'PERSON-TYPE-NUMBER',
    description: 'latitude and longitude are sent as strings',
    reply: (i) =>
      mapIdentities(i.body.content, (k, v) =>
        (k === 'latitude' || k === 'longitude') && typeof v === 'number' ? String(v) : v,
      ),
  }),
  person({
    name: 'person-email-obfuscated',
    requirement: 'PERSON-TYPE-EMAIL',
    description: 'e-mail values are sent obfuscated ("name at example.com") instead of as addresses',
    reply: (i) =>
      mapIdentities(i.body.content, (k, v) => (k === 'email' && typeof v === 'string' ? v.replace('@', ' at ') : v)),
  }),
  person({
    name: 'person-attr-sources-dropped',
    requirement: 'PERSON-ATTR-SOURCES',
    description: 'attribute objects of returned identities carry no sources[] or clusterStatus',
    handler: (next, ctx) => {
      const strip = (identity: any) =>
        identity && typeof identity === 'object'
          ? Object.fromEntries(
              Object.entries(identity).map(([k, v]) => [
                k,
                Array.isArray(v)
                  ? v.map((x: any) =>
                      x && typeof x === 'object' ? (({ sources: _s, clusterStatus: _c, ...rest }) => rest)(x) : x,
                    )
                  : v,
              ]),
            )
          : identity;
      const r = next(ctx) as Record<string, any>;
      if (Array.isArray(r.searchResults))
        return { ...r, searchResults: r.searchResults.map((x: any) => ({ ...x, identity: strip(x.identity) })) };
      return 'identity' in r ? { ...r, identity: strip(r.identity) } : r;
    },
  }),
  // postIdentity and matching
  person({
    name: 'person-post-never-links',
    requirement: 'PERSON-POST-EXACT-LINKS',
    operations: ['postIdentity'],
    description: 'postIdentity never matches: an exact copy from another source gets a link ID of its own',
    handler: (next, ctx) => next({ ...ctx, matcher: { ...ctx.matcher, threshold: 1.01 } }),
  }),
  person({
    name: 'person-search-default-threshold',
    requirement: 'PERSON-SEARCH-NO-THRESHOLD',
    operations: ['demographicsSearch'],
    description: 'without matchScoreThreshold the search filters at the match threshold instead of not filtering',
    handler: (next, ctx) =>
      next(
        typeof ctx.content.matchScoreThreshold === 'number'
          ? ctx
          : { ...ctx, content: { ...ctx.content, matchScoreThreshold: ctx.matcher.threshold } },
      ),
  }),
  person({
    name: 'person-search-finds-nothing',
    requirement: 'PERSON-SEARCH-ONE-TO-MANY',
    operations: ['demographicsSearch'],
    description: 'demographicsSearch returns no result for any search, also one without matchScoreThreshold',
    handler: (next, ctx) => ({ ...next(ctx), searchResults: [] }),
  }),
  person({
    name: 'person-search-needs-ssn',
    requirement: 'PERSON-SEARCH-ONE-TO-MANY',
    operations: ['demographicsSearch'],
    description: 'demographicsSearch returns no result when the searched identity has no SSN (a matcher scoring none)',
    handler: (next, ctx) => {
      const ssns = (ctx.content.identity as { ssns?: unknown } | undefined)?.ssns;
      return Array.isArray(ssns) && ssns.length ? next(ctx) : { ...next(ctx), searchResults: [] };
    },
  }),
  person({
    name: 'person-search-default-max-one',
    requirement: 'PERSON-SEARCH-MAX-DEFAULT',
    operations: ['demographicsSearch'],
    description: 'without maxSearchResults only the best result is returned instead of the system maximum',
    handler: (next, ctx) =>
      next(
        ctx.content.maxSearchResults === undefined ? { ...ctx, content: { ...ctx.content, maxSearchResults: 1 } } : ctx,
      ),
  }),
  person({
    name: 'person-query-lower-threshold',
    requirement: 'PERSON-QUERY-SAME-THRESHOLD',
    operations: ['demographicsQuery'],
    description:
      'demographicsQuery returns a match from the "uncertain" score up, below the threshold postIdentity links at',
    handler: (next, ctx) => next({ ...ctx, matcher: { ...ctx.matcher, threshold: ctx.matcher.uncertain } }),
  }),
  // State table
  person({
    name: 'person-deactivate-still-matches',
    requirement: 'PERSON-DEACTIVATE-EXCLUDES-MATCHING',
    operations: ['deactivateSourceWs'],
    description: 'deactivateSourceWs replies success but the record stays active and still attracts matches',
    handler: withoutEffect,
  }),
  person({
    name: 'person-deactivated-hidden',
    requirement: 'PERSON-DEACTIVATE-VISIBLE',
    operations: ['nativeIdQuery'],
    description: 'a deactivated record is hidden: nativeIdQuery answers "not found"',
    handler: (next, ctx) => {
      if (rec(ctx, 'source')?.state === 'deactivated') throw new Rejection(404, 'source not found');
      return next(ctx);
    },
  }),
  person({
    name: 'person-reactivate-new-linkid',
    requirement: 'PERSON-REACTIVATE-ORIGINAL-LINK',
    operations: ['reactivateSourceWs'],
    description: 'reactivateSourceWs puts the record into a new link ID instead of its original one',
    handler: (next, ctx) => {
      next(ctx);
      const r = rec(ctx, ctx.members.reactivateSource)!;
      r.linkId = r.originalLinkId = ctx.store.newLinkId();
      return { linkIdsModified: [], linkIdCreated: r.linkId };
    },
  }),
  person({
    name: 'person-reactivate-no-effect',
    requirement: 'PERSON-REACTIVATE-MATCHES-AGAIN',
    operations: ['reactivateSourceWs'],
    description: 'reactivateSourceWs replies success but the record stays deactivated (excluded from matching)',
    handler: withoutEffect,
  }),
  person({
    name: 'person-delete-is-deactivate',
    requirement: 'PERSON-DELETE-PHYSICAL',
    operations: ['deleteSourceIdentity'],
    description: 'deleteSourceIdentity only deactivates: the record is still found and can be reactivated',
    handler: (next, ctx) => {
      const r = rec(ctx, 'source');
      const reply = next(ctx);
      if (r) ctx.store.records.set(r.key, { ...r, state: 'deactivated', originalLinkId: r.linkId });
      return reply;
    },
  }),
  person({
    name: 'person-delete-keeps-identity',
    requirement: 'PERSON-DELETE-ONLY-SOURCE',
    operations: ['deleteSourceIdentity', 'identityIdQuery'],
    description:
      'hard delete of the only source leaves the identity: identityIdQuery still answers its link ID (with an ' +
      'empty identity)',
    handler: (next, ctx, op) => {
      if (op === 'deleteSourceIdentity') {
        const r = next(ctx) as { linkIdsDeleted: string[] };
        for (const l of r.linkIdsDeleted) deleted(ctx.store).add(l);
        return r;
      }
      if (deleted(ctx.store).has(ctx.content.linkId)) return idQueryAnswer(ctx.content.linkId);
      return next(ctx);
    },
  }),
  person({
    name: 'person-delete-whole-identity',
    requirement: 'PERSON-DELETE-KEEPS-OTHERS',
    operations: ['deleteSourceIdentity'],
    description: 'deleting one source record deletes every record of its identity',
    handler: (next, ctx) => {
      const r = rec(ctx, 'source');
      const reply = next(ctx);
      if (r)
        for (const x of [...ctx.store.records.values()]) if (x.linkId === r.linkId) ctx.store.records.delete(x.key);
      return r ? { linkIdsModified: [], linkIdsDeleted: [r.linkId] } : reply;
    },
  }),
  person({
    name: 'person-unlink-reuses-old-linkid',
    requirement: 'PERSON-UNLINK-OWN-LINKID',
    operations: ['unlinkIdentities'],
    description:
      'unlinkIdentities puts a linked record back into the link ID it had before the link instead of a new one',
    handler: (next, ctx) => {
      const r = rec(ctx, 'source');
      const before = r?.originalLinkId;
      const from = rec(ctx, 'unlinkFromSource')?.linkId;
      const reply = next(ctx) as Record<string, unknown>;
      if (r && before && before !== from) {
        r.linkId = r.originalLinkId = before;
        return { ...reply, unlinkedId: before };
      }
      return reply;
    },
  }),
  person({
    name: 'person-unlink-linked-only',
    requirement: 'PERSON-UNLINK-MATCHED',
    operations: ['unlinkIdentities'],
    description:
      'unlinkIdentities splits only records joined by linkIdentities: a record postIdentity matched stays ' +
      '(reply success)',
    handler: (next, ctx) => {
      const r = rec(ctx, 'source');
      const from = rec(ctx, 'unlinkFromSource');
      return r && from && r.originalLinkId === from.linkId ? withoutEffect(next, ctx) : next(ctx);
    },
  }),
  // Data sources
  person({
    name: 'person-datasource-first-only',
    requirement: 'PERSON-DATASOURCE-CREATES',
    operations: ['createDataSource'],
    description: 'createDataSource creates (and reports) only the first of the names it is given',
    handler: (next, ctx) =>
      next({
        ...ctx,
        content: {
          ...ctx.content,
          sources: Array.isArray(ctx.content.sources) ? ctx.content.sources.slice(0, 1) : ctx.content.sources,
        },
      }),
  }),
  person({
    name: 'person-datasource-11-accepted',
    requirement: 'PERSON-DATASOURCE-LIMIT',
    operations: ['createDataSource'],
    description: 'createDataSource accepts any number of names (11 and more), in batches of 10',
    handler: (next, ctx) => {
      const names = Array.isArray(ctx.content.sources) ? (ctx.content.sources as unknown[]) : [];
      if (names.length <= 10) return next(ctx);
      const out: unknown[] = [];
      for (let i = 0; i < names.length; i += 10)
        out.push(
          ...((next({ ...ctx, content: { ...ctx.content, sources: names.slice(i, i + 10) } })
            .datasourceCreationResponses as unknown[]) ?? []),
        );
      return { datasourceCreationResponses: out };
    },
  }),
  // Households
  person({
    name: 'person-household-by-linkid-no-members',
    requirement: 'PERSON-HOUSEHOLD-BY-LINKID',
    operations: ['householdQuery'],
    description: 'householdQuery by link ID returns the household ID without its link IDs',
    handler: (next, ctx) => {
      const r = next(ctx);
      return ctx.content.linkId ? { ...r, linkIdsInHousehold: [] } : r;
    },
  }),
  // householdQuery ignoring one of its lookup keys (person-provider-identity-api.md, Endpoints: householdQuery).
  ...(
    [
      ['linkid', 'LINKID', 'linkId', 'a link ID'],
      ['source', 'SOURCE', 'source', 'a source'],
      ['id', 'ID', 'householdId', 'a household ID'],
    ] as const
  ).map(([name, req, key, what]) =>
    person({
      name: `person-household-${name}-key-ignored`,
      requirement: `PERSON-HOUSEHOLD-BY-${req}`,
      operations: ['householdQuery'],
      description: `householdQuery ignores the ${key} key and rejects a query naming only ${what}`,
      handler: (next, ctx) => next({ ...ctx, content: { ...ctx.content, [key]: undefined } }),
    }),
  ),
  person({
    name: 'person-household-singletons',
    requirement: 'PERSON-HOUSEHOLD-SHARED-ADDRESS',
    operations: ['householdQuery'],
    description: 'every identity is a household of its own: people at one address are never grouped',
    handler: (next, ctx) => {
      const r = next(ctx) as { linkIdsInHousehold: string[] };
      const own = ctx.content.linkId ?? ctx.store.get(ctx.content.source)?.linkId;
      return own ? { ...r, linkIdsInHousehold: [own] } : r;
    },
  }),
  // Relationships
  person({
    name: 'person-rel-subject-filter-swapped',
    requirement: 'PERSON-REL-SEARCH-SUBJECT',
    operations: ['searchRelationshipsService'],
    description: 'filterBySubjectVeratoId is matched against the object link ID',
    handler: filterMovedTo('filterBySubjectVeratoId', 'filterByObjectVeratoId'),
  }),
  person({
    name: 'person-rel-object-filter-swapped',
    requirement: 'PERSON-REL-SEARCH-OBJECT',
    operations: ['searchRelationshipsService'],
    description: 'filterByObjectVeratoId is matched against the subject link ID',
    handler: filterMovedTo('filterByObjectVeratoId', 'filterBySubjectVeratoId'),
  }),
  person({
    name: 'person-rel-verb-filter-wrong-member',
    requirement: 'PERSON-REL-SEARCH-VERB',
    operations: ['searchRelationshipsService'],
    description: 'filterByRelationshipVerb is compared with the relationship status, so a search by verb finds nothing',
    handler: (next, ctx) => {
      const f = ctx.content.relationshipFilter ?? {};
      if (!f.filterByRelationshipVerb) return next(ctx);
      const r = next(ctx) as { relationships: Array<Record<string, unknown>> };
      return { relationships: r.relationships.filter((x) => x.status === f.filterByRelationshipVerb) };
    },
  }),
  // Notifications
  person({
    name: 'person-notif-no-deactivations',
    requirement: 'PERSON-NOTIF-RECORDS-CHANGES',
    operations: ['searchNotifications'],
    description: 'deactivations never reach the notification feed',
    handler: (next, ctx) => {
      const r = next(ctx) as { notifications: Array<{ notificationType?: string }> };
      return { ...r, notifications: r.notifications.filter((n) => n.notificationType !== 'DEACTIVATE') };
    },
  }),
];

export const PROVIDER_FAULTS: FaultDefinition[] = [
  provider({
    name: 'provider-facility-as-practitioner',
    requirement: 'PROV-POST-TYPES',
    description: 'a health facility is stored and returned as a practitioner (entity type code 1)',
    reply: (i) =>
      void (ok(i) && mapIdentities(i.body.content, (k, v) => (k === 'entityTypeCode' && v === '2' ? '1' : v))),
  }),
  provider({
    name: 'provider-same-identity-x',
    requirement: 'PROV-SEARCH-SCORE-RANGE',
    operations: ['demographicsSearch'],
    description: 'sameIdentity is "X" where it should be U or N',
    reply: (i) =>
      void (
        Array.isArray(i.body.content?.searchResults) &&
        i.body.content.searchResults.forEach((r: any) => r.sameIdentity !== 'Y' && (r.sameIdentity = 'X'))
      ),
  }),
  provider({
    name: 'provider-softdelete-still-listed',
    requirement: 'PROV-SOFTDELETE-EFFECT',
    operations: ['nativeIdQuery', 'identityIdQuery'],
    description: 'a soft-deleted source stays listed in the identity it was linked into (identityGroupedBySource)',
    handler: (next, ctx) => {
      const r = next(ctx) as { linkId?: string; identityGroupedBySource?: unknown[] };
      const gone = [...ctx.store.records.values()].filter((x) => x.state === 'soft-deleted' && x.linkId === r.linkId);
      return gone.length
        ? {
            ...r,
            identityGroupedBySource: [
              ...(r.identityGroupedBySource ?? []),
              ...gone.map((x) => ({ source: { name: x.source.name, id: x.source.id }, ...x.data })),
            ],
          }
        : r;
    },
  }),
  provider({
    name: 'provider-softdelete-forgets-merges',
    requirement: 'PROV-SOFTDELETE-KEEPS-HISTORY',
    operations: ['softDeleteSource'],
    description:
      'soft delete drops the merge history of the source: sources merged into it can no longer be unmerged ' +
      'after restore',
    handler: (next, ctx) => {
      const r = rec(ctx, 'sourceToSoftDelete');
      const reply = next(ctx);
      if (r)
        for (const x of ctx.store.records.values())
          if (x.retiredInto === r.key) x.retiredInto = `${r.key}\u0000forgotten`;
      return reply;
    },
  }),
  provider({
    name: 'provider-harddelete-keeps-retired',
    requirement: 'PROV-HARDDELETE-HISTORY',
    operations: ['deleteSourceIdentity'],
    description:
      'deleting a retired (merged) source replies success but keeps it with its merge history, so it can still ' +
      'be unmerged',
    handler: (next, ctx) => (rec(ctx, 'source')?.state === 'retired' ? withoutEffect(next, ctx) : next(ctx)),
  }),
  provider({
    name: 'provider-cross-type-merge',
    requirement: 'PROV-MERGE-SAME-TYPE',
    operations: ['mergeIdentities'],
    description: 'mergeIdentities merges a practitioner and a health facility',
    handler: (next, ctx) => next({ ...ctx, matcher: { ...ctx.matcher, kind: undefined } }),
  }),
  provider({
    name: 'provider-cross-type-link',
    requirement: 'PROV-LINK-SAME-TYPE',
    operations: ['linkIdentities'],
    description: 'linkIdentities links a practitioner and a health facility',
    handler: (next, ctx) => next({ ...ctx, matcher: { ...ctx.matcher, kind: undefined } }),
  }),
  provider({
    name: 'provider-notif-period-open-ended',
    requirement: 'PROV-NOTIF-PERIOD',
    operations: ['searchNotifications'],
    description: 'searchNotifications ignores endDate and returns everything up to now',
    handler: (next, ctx) =>
      next({ ...ctx, content: { ...ctx.content, endDate: new Date(Date.now() + 86_400_000).toISOString() } }),
  }),
  provider({
    name: 'provider-notif-no-merges',
    requirement: 'PROV-NOTIF-RECORDS-CHANGES',
    operations: ['searchNotifications'],
    description: 'merge events never reach the notification feed',
    handler: (next, ctx) => {
      const r = next(ctx) as { notifications: Array<{ notificationType?: string }> };
      return { ...r, notifications: r.notifications.filter((n) => n.notificationType !== 'MERGE') };
    },
  }),
];
