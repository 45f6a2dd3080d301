/**
 * The fault catalogue: each entry is one realistic defect that breaks exactly one documented requirement of the
 * reference deployment. `npm run detection` runs the conformance suite once per fault and scores how many the suite
 * catches (a failing check citing `requirement`).
 *
 * An entry: name (what REFERENCE_FAULTS lists), service, requirement (catalogue ID it violates), description (the
 * defect in plain words), and how it is applied: `handler` wraps the operation's handler, `reply` rewrites the reply
 * envelope, `auth` changes the credential verdict, `acceptInvalid` lets a request through that the schema would reject.
 * `operations` limits a fault to some operations (default: all of its service).
 *
 * To add a fault: add an entry to a list below (docs/detection.md walks through it). Sources:
 * organization-identity-api.md (sections named by each requirement).
 */
import type { ServiceName } from '../../specs/common/model.js';
import type { OperationName } from '../../specs/common/operation-names.js';
import { SERVICES, requirementFor } from '../../specs/services.js';
import { demographicsSearch as SEARCH_HANDLER, identityReply, noIdentity } from '../handlers/identity.js';
import type { HandlerContext } from '../handlers/types.js';
import { Rejection } from '../handlers/types.js';
import type { FaultDefinition, ReplyInfo, RequirementRef } from './types.js';
import { cachedForever, mapIdentities, mapLeaves, withoutEffect } from './transforms.js';
import { MATCHING_FAULTS, SEQUENCE_FAULTS } from './sequence-faults.js';
import { PERSON_FAULTS, PROVIDER_FAULTS } from './service-faults.js';
import { RULE_FAULTS, RULE_FAULT_SPECS } from './rule-faults.js';
import { BOUNDARY_FAULT_SPECS } from './boundary-faults.js';
import { STATE_FAULTS } from './state-faults.js';
import { CATEGORY_FAULTS, SINGLE_CATEGORY_FAULTS } from './category-faults.js';

export type { FaultDefinition } from './types.js';

/** How a fault is applied, for the detection table. */
export const applied = (f: FaultDefinition) =>
  [f.handler && 'handler', f.reply && 'reply', f.auth && 'auth', f.acceptInvalid && 'request validation']
    .filter(Boolean)
    .join('+') + (f.operations ? ` of ${f.operations.join(', ')}` : '');

/**
 * A SHARED entry; `services` limits it to some services (default: every service whose catalogue has the requirement).
 */
type Spec = Omit<FaultDefinition, 'service' | 'requirement' | 'name'> & {
  name: string;
  requirement: RequirementRef;
  services?: ServiceName[];
};

const ok = (i: ReplyInfo) => i.status < 300 && i.body.success === true;
const fail = (i: ReplyInfo) => !ok(i);
const list = (v: unknown): string[] => (Array.isArray(v) ? v : []);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HHMM = /^(\d{2}):(\d{2})$/;
const DATE_KEYS = new RegExp(
  '^(dateOfBirth|deathDate|validFrom|validTo|foundedDate|issueDate|startDate|endDate|launchDate|effectiveDate|' +
    'verificationDate)$',
);

/**
 * Faults of the operations every identity service shares. `name` is a suffix: an instance gets the service's name
 * prefix (none for organization); `requirement` is a role or per-service IDs (RequirementRef), resolved in each
 * service's catalogue.
 */
const SHARED: Spec[] = [
  ...RULE_FAULT_SPECS,
  ...BOUNDARY_FAULT_SPECS,
  // Envelope promises
  {
    name: 'success-as-string',
    requirement: 'envelope.reply',
    description: 'success is sent as the string "true"/"false" instead of a JSON boolean',
    reply: (i) => void (i.body.success = String(i.body.success)),
  },
  {
    name: 'errors-as-string',
    requirement: 'envelope.reply',
    description: 'on failure, errors is one comma-joined string instead of an array of strings',
    reply: (i) => void (fail(i) && (i.body.errors = list(i.body.errors).join(', '))),
  },
  {
    name: 'tracking-not-echoed',
    requirement: 'envelope.echo',
    description: "the reply carries a server-generated trackingId instead of the request's",
    reply: (i) => void (i.body.trackingId = `srv-${Date.now()}`),
  },
  {
    name: 'audit-not-echoed',
    requirement: 'envelope.echo',
    description: 'auditId is dropped from every reply',
    reply: (i) => void delete i.body.auditId,
  },
  {
    name: 'echo-missing-on-failure',
    requirement: 'envelope.echo',
    description: 'trackingId and auditId are echoed on success only; failures carry null',
    reply: (i) => void (fail(i) && (i.body.trackingId = i.body.auditId = null)),
  },
  {
    name: 'failure-without-reason',
    requirement: 'envelope.errCarried',
    description: 'a failure says nothing: empty message and empty errors',
    reply: (i) => {
      if (!fail(i)) return;
      i.body.message = '';
      i.body.errors = [];
    },
  },
  {
    name: 'bad-input-retryable',
    requirement: { organization: 'ORG-ERR-NOT-RETRYABLE', person: 'PERSON-ERR-NOT-RETRYABLE' },
    description: 'rejections of bad input are marked retryableError=true',
    reply: (i) => void (i.status >= 400 && i.status < 500 && (i.body.retryableError = true)),
  },
  {
    name: 'path-versioned',
    requirement: 'envelope.paths',
    operations: ['identityIdQuery'],
    description: 'identityIdQuery moved to /v2/identityIdQuery; the documented path answers 404',
    handler: () => {
      throw new Rejection(404, 'no such operation at this path (moved to /v2/identityIdQuery)');
    },
  },
  {
    name: 'default-view-empty',
    requirement: 'envelope.viewsDefault',
    operations: ['nativeIdQuery'],
    description: 'without responseIdentityFormatNames the reply carries an empty identity instead of the DEFAULT view',
    handler: (next, ctx) => {
      const r = next(ctx);
      return ctx.content.responseIdentityFormatNames ? r : { ...r, identity: {} };
    },
  },
  // Data types in replies
  {
    name: 'date-us-format',
    requirement: 'type.date',
    description: 'DATE values in replies are sent as MM/dd/yyyy',
    reply: (i) =>
      mapIdentities(i.body.content, (k, v) =>
        DATE_KEYS.test(k) && typeof v === 'string' && ISO_DATE.test(v) ? v.replace(ISO_DATE, '$2/$3/$1') : v,
      ),
  },
  {
    name: 'time-12-hour',
    requirement: 'type.time',
    description: 'TIME values in replies are sent as h:mm AM/PM',
    reply: (i) =>
      mapIdentities(i.body.content, (k, v) =>
        /Time$/.test(k) && typeof v === 'string' && HHMM.test(v)
          ? `${Number(v.slice(0, 2)) % 12 || 12}:${v.slice(3)} ${Number(v.slice(0, 2)) < 12 ? 'AM' : 'PM'}`
          : v,
      ),
  },
  {
    name: 'number-as-json-number',
    requirement: 'type.number',
    services: ['organization', 'provider'],
    description: 'NUMBER values (latitude, longitude, phone numbers) are sent as JSON numbers, not strings',
    reply: (i) =>
      mapIdentities(i.body.content, (k, v) =>
        /^(latitude|longitude|number|price|annualRevenue|numberOfEmployees)$/.test(k) &&
        typeof v === 'string' &&
        /^-?\d+(\.\d+)?$/.test(v)
          ? Number(v)
          : v,
      ),
  },
  {
    name: 'boolean-as-string',
    requirement: 'type.boolean',
    description: 'BOOLEAN values are sent as the strings "true"/"false"',
    reply: (i) => mapIdentities(i.body.content, (_k, v) => (typeof v === 'boolean' ? String(v) : v)),
  },
  {
    name: 'text-as-number',
    requirement: 'type.text',
    description: 'numeric-looking TEXT values (postal codes) are sent as JSON numbers',
    reply: (i) =>
      mapIdentities(i.body.content, (k, v) =>
        k === 'postalCode' && typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v,
      ),
  },
  {
    name: 'datetime-local',
    requirement: 'type.dateTime',
    operations: ['addRelationshipService', 'searchRelationshipsService'],
    description: 'relationship DATE-TIME values are sent as local "yyyy-MM-dd HH:mm:ss" without a zone',
    reply: (i) =>
      void (
        i.body.content &&
        (i.body.content = mapLeaves(i.body.content, (k, v) =>
          /Date$/.test(k) && typeof v === 'string' ? v.replace('T', ' ').replace(/(\.\d+)?Z$/, '') : v,
        ))
      ),
  },
  // Required identity and bad input
  {
    name: 'identity-optional',
    requirement: { organization: 'ORG-IDENTITY-REQUIRED' },
    operations: ['demographicsSearch', 'demographicsQuery', 'postIdentity'],
    description: 'a search or query without content.identity is accepted and answered as an empty search',
    acceptInvalid: (_op, c) => c.identity === undefined,
    handler: (next, ctx, op) =>
      ctx.content.identity === undefined
        ? op === 'demographicsSearch'
          ? { searchResults: [] }
          : { linkId: null, identity: null }
        : next(ctx),
  },
  {
    name: 'malformed-dates-accepted',
    requirement: { organization: 'ORG-BADINPUT-REJECTED', person: 'PERSON-BADINPUT-REJECTED' },
    operations: ['postIdentity'],
    description: 'postIdentity stores DATE and TIME values it cannot parse instead of rejecting them',
    acceptInvalid: () => true,
  },
  // postIdentity
  {
    name: 'post-not-stored',
    requirement: 'walk.post',
    operations: ['postIdentity'],
    description: 'postIdentity replies success but the record is not stored',
    handler: withoutEffect,
  },
  {
    name: 'post-events-object',
    requirement: { organization: 'ORG-POST-EVENTS' },
    operations: ['postIdentity'],
    description: 'events is a single object instead of an array',
    reply: (i) =>
      void (ok(i) && Array.isArray(i.body.content?.events) && (i.body.content.events = i.body.content.events[0] ?? {})),
  },
  {
    name: 'post-linkid-of-new-identity',
    requirement: { organization: 'ORG-POST-LINKID-NULL' },
    operations: ['postIdentity'],
    description: "rule 2 broken: a record that matched nothing gets the new identity's link ID instead of null",
    handler: (next, ctx) => {
      const r = next(ctx);
      return r.linkId === null ? { ...r, linkId: (r.events as Array<{ linkId: string }>)[0]?.linkId } : r;
    },
  },
  {
    name: 'post-same-source-duplicates',
    requirement: 'walk.update',
    operations: ['postIdentity'],
    description: 're-posting a source creates a second record under a new identity instead of updating',
    handler: (next, ctx) => {
      const s = (ctx.content.identity?.sources?.[0] ?? ctx.content.source) as { name: string; id: string } | undefined;
      const existing = s && ctx.store.get(s);
      if (existing) {
        ctx.store.records.delete(existing.key);
        const r = next(ctx);
        ctx.store.records.set(`${existing.key}\u0000old`, existing);
        return r;
      }
      return next(ctx);
    },
  },
  // Search and query
  {
    name: 'search-below-threshold',
    requirement: 'search.threshold',
    operations: ['demographicsSearch'],
    description: 'matchScoreThreshold is ignored: every candidate comes back',
    handler: (next, ctx) => next({ ...ctx, content: { ...ctx.content, matchScoreThreshold: 0 } }),
  },
  {
    name: 'search-unsorted',
    requirement: 'search.order',
    operations: ['demographicsSearch'],
    description: 'searchResults come worst first',
    reply: (i) => void (Array.isArray(i.body.content?.searchResults) && i.body.content.searchResults.reverse()),
  },
  {
    name: 'search-never-empty',
    requirement: 'search.resultsRequired',
    operations: ['demographicsSearch'],
    description: 'when nothing matches, the closest candidate is returned anyway instead of an empty list',
    handler: (next, ctx) => {
      const r = next(ctx) as { searchResults: unknown[] };
      return r.searchResults.length
        ? r
        : next({ ...ctx, content: { ...ctx.content, matchScoreThreshold: 0, maxSearchResults: 1 } });
    },
  },
  {
    name: 'search-max-ignored',
    requirement: 'search.maxResults',
    operations: ['demographicsSearch'],
    description: 'maxSearchResults is ignored',
    handler: (next, ctx) => next({ ...ctx, content: { ...ctx.content, maxSearchResults: undefined } }),
  },
  {
    name: 'search-max-zero-accepted',
    requirement: 'search.maxPositive',
    operations: ['demographicsSearch'],
    description: 'maxSearchResults 0 or negative is accepted (treated as "no limit")',
    handler: (next, ctx) =>
      next({
        ...ctx,
        content: {
          ...ctx.content,
          maxSearchResults: ctx.content.maxSearchResults > 0 ? ctx.content.maxSearchResults : undefined,
        },
      }),
  },
  {
    name: 'score-percent',
    requirement: 'search.scoreRange',
    operations: ['demographicsSearch'],
    description: 'matchScore is sent as a percentage (0-100)',
    reply: (i) =>
      void list(i.body.content?.searchResults).forEach(
        (r: any) => (r.matchScore = Math.round(r.matchScore * 10000) / 100),
      ),
  },
  {
    name: 'same-identity-x',
    requirement: 'search.sameIdentity',
    operations: ['demographicsSearch'],
    description: 'sameIdentity is "X" where it should be U or N',
    reply: (i) =>
      void list(i.body.content?.searchResults).forEach((r: any) => r.sameIdentity !== 'Y' && (r.sameIdentity = 'X')),
  },
  {
    name: 'search-misses-exact',
    requirement: 'search.findsExact',
    operations: ['demographicsSearch'],
    description:
      'the search index drops sure matches (results scoring at or above the match threshold are filtered out)',
    handler: (next, ctx) => {
      const r = next(ctx) as { searchResults: Array<{ matchScore: number }> };
      return { ...r, searchResults: r.searchResults.filter((x) => x.matchScore < ctx.matcher.threshold) };
    },
  },
  {
    name: 'query-worst-candidate',
    requirement: 'query.bestMatch',
    operations: ['demographicsQuery'],
    description: 'demographicsQuery sorts candidates the wrong way round and returns the worst one',
    handler: (next, ctx) => {
      const all =
        (SEARCH(ctx, { ...ctx.content, matchScoreThreshold: 0, maxSearchResults: 50 }).searchResults as Array<{
          linkId: string;
        }>) ?? [];
      const worst = all[all.length - 1];
      if (!worst || all.length < 2) return next(ctx);
      const r = NATIVE_REPLY(ctx, worst.linkId);
      return r;
    },
  },
  {
    name: 'query-misses-exact',
    requirement: 'query.findsExact',
    operations: ['demographicsQuery'],
    description: 'demographicsQuery never returns a match',
    handler: noIdentity,
  },
  {
    name: 'nativeid-wrong-source',
    requirement: {
      organization: 'ORG-NATIVEID-QUERY',
      person: 'PERSON-NATIVEID-QUERY',
      provider: 'PROV-NATIVEID-QUERY',
    },
    operations: ['nativeIdQuery'],
    description: 'nativeIdQuery groups the identity under a master record instead of the source records it holds',
    handler: (next, ctx) => {
      const r = next(ctx) as Record<string, any>;
      return {
        ...r,
        identityGroupedBySource: list(r.identityGroupedBySource).map((g: any) => ({
          ...g,
          source: { name: 'MASTER', id: r.linkId },
        })),
      };
    },
  },
  {
    name: 'idquery-no-linkid',
    requirement: 'query.idQueryReturns',
    operations: ['identityIdQuery'],
    description: 'identityIdQuery returns the identity without its linkId',
    handler: (next, ctx) => ({ ...next(ctx), linkId: null }),
  },
  {
    name: 'requested-linkid-missing',
    requirement: 'query.idQueryEcho',
    operations: ['identityIdQuery'],
    description: 'rule 3 broken: requestedLinkId is not echoed',
    handler: (next, ctx) => ({ ...next(ctx), requestedLinkId: null }),
  },
  // State table rows
  {
    name: 'softdelete-reply-empty',
    requirement: 'lifecycle.softDeleteReply',
    operations: ['softDeleteSource'],
    description: 'softDeleteSource replies with empty linkIdsSoftDeleted and linkIdsModified',
    handler: (next, ctx) => ({ ...next(ctx), linkIdsSoftDeleted: [], linkIdsModified: [] }),
  },
  {
    name: 'softdelete-no-effect',
    requirement: 'lifecycle.softDeleteEffect',
    operations: ['softDeleteSource'],
    description: 'softDeleteSource replies success but the source stays active',
    handler: withoutEffect,
  },
  {
    name: 'restore-reply-wrong-id',
    requirement: 'lifecycle.restoreReply',
    operations: ['restoreSource'],
    description: 'restoreSource names a link ID the source is not in',
    handler: (next, ctx) => ({ ...next(ctx), linkIdsModified: [], linkIdCreated: ctx.store.newLinkId() }),
  },
  {
    name: 'restore-no-effect',
    requirement: 'lifecycle.restoreEffect',
    operations: ['restoreSource'],
    description: 'restoreSource replies success but the source stays soft-deleted',
    handler: withoutEffect,
  },
  {
    name: 'harddelete-reply-modified',
    requirement: 'lifecycle.hardDeleteReply',
    operations: ['deleteSourceIdentity'],
    description: 'an identity whose only source was deleted is listed as modified, not deleted',
    handler: (next, ctx) => {
      const r = next(ctx) as { linkIdsModified: string[]; linkIdsDeleted: string[] };
      return { linkIdsModified: [...r.linkIdsModified, ...r.linkIdsDeleted], linkIdsDeleted: [] };
    },
  },
  {
    name: 'harddelete-is-soft',
    requirement: 'lifecycle.hardDeleteEffect',
    operations: ['deleteSourceIdentity'],
    description: 'deleteSourceIdentity only soft-deletes: the source can still be restored',
    handler: (next, ctx) => {
      const r = ctx.store.get(ctx.content.source);
      const reply = next(ctx);
      if (r) ctx.store.records.set(r.key, { ...r, state: 'soft-deleted' });
      return reply;
    },
  },
  {
    name: 'merge-reply-retired-linkid',
    requirement: 'mergeLink.mergeReply',
    operations: ['mergeIdentities'],
    description: "mergeIdentities replies with the retired identity's link ID",
    handler: (next, ctx) => {
      const retired = ctx.store.get(ctx.content.toRetireSource)?.linkId;
      return { ...next(ctx), linkId: retired };
    },
  },
  {
    name: 'merge-no-unify',
    requirement: 'mergeLink.mergeEffect',
    operations: ['mergeIdentities'],
    description: 'mergeIdentities replies success but both identities stay separate',
    handler: withoutEffect,
  },
  {
    name: 'unmerge-reply-swapped',
    requirement: 'mergeLink.unmergeReply',
    operations: ['unmergeIdentities'],
    description: 'unmergedId and unmergedFromId are swapped',
    handler: (next, ctx) => {
      const r = next(ctx) as Record<string, unknown>;
      return { ...r, unmergedId: r.unmergedFromId, unmergedFromId: r.unmergedId };
    },
  },
  {
    name: 'unmerge-no-split',
    requirement: 'mergeLink.unmergeEffect',
    operations: ['unmergeIdentities'],
    description: 'unmergeIdentities replies success but the source stays retired in the survivor',
    handler: withoutEffect,
  },
  {
    name: 'link-reply-own-linkid',
    requirement: 'mergeLink.linkReply',
    operations: ['linkIdentities'],
    description: "linkIdentities replies with the linked source's old link ID",
    handler: (next, ctx) => {
      const own = ctx.store.get(ctx.content.source)?.linkId;
      return { ...next(ctx), linkId: own };
    },
  },
  {
    name: 'link-no-effect',
    requirement: 'mergeLink.linkEffect',
    operations: ['linkIdentities'],
    description: 'linkIdentities replies success but the records stay in separate identities',
    handler: withoutEffect,
  },
  {
    name: 'unlink-reply-missing-ids',
    requirement: 'mergeLink.unlinkReply',
    operations: ['unlinkIdentities'],
    description: 'unlinkIdentities replies without unlinkedId and unlinkedFromId',
    handler: (next, ctx) => ({ ...next(ctx), unlinkedId: null, unlinkedFromId: null }),
  },
  {
    name: 'unlink-no-split',
    requirement: 'mergeLink.unlinkEffect',
    operations: ['unlinkIdentities'],
    description: 'unlinkIdentities replies success but the records stay together',
    handler: withoutEffect,
  },
  {
    name: 'stale-nativeid-reads',
    requirement: 'mergeLink.mergeEffect',
    operations: ['nativeIdQuery'],
    description: 'nativeIdQuery answers from a cache that a state change never invalidates (stale reads)',
    handler: cachedForever,
  },
  // Relationships
  {
    name: 'rel-add-no-id',
    requirement: { organization: 'ORG-REL-ADD', person: 'PERSON-REL-ADD', provider: 'PROV-REL-ADD' },
    operations: ['addRelationshipService'],
    description: "addRelationshipService replies without the new relationship's id",
    handler: (next, ctx) => ({ relationship: { ...(next(ctx).relationship as object), id: null } }),
  },
  {
    name: 'rel-search-ignores-criteria',
    requirement: 'relationships.search',
    operations: ['searchRelationshipsService'],
    description: 'searchRelationshipsService ignores its criteria and returns every relationship',
    handler: (next, ctx) => next({ ...ctx, content: { relationship: {} } }),
  },
  {
    name: 'rel-delete-no-effect',
    requirement: { organization: 'ORG-REL-DELETE', person: 'PERSON-REL-DELETE', provider: 'PROV-REL-DELETE' },
    operations: ['deleteRelationshipService'],
    description: 'deleteRelationshipService replies success but the relationship stays',
    handler: withoutEffect,
  },
  // Notifications
  {
    name: 'notif-page-oversize',
    requirement: 'notifications.paging',
    operations: ['searchNotifications'],
    description: 'pages hold pageSize + 1 notifications (off by one)',
    handler: (next, ctx) => next({ ...ctx, content: { ...ctx.content, pageSize: ctx.content.pageSize + 1 } }),
  },
  {
    name: 'notif-hasnext-always-false',
    requirement: 'notifications.paging',
    operations: ['searchNotifications'],
    description: 'hasNext is false on every page, also when more pages follow',
    handler: (next, ctx) => ({ ...next(ctx), hasNext: false }),
  },
  {
    name: 'notif-total-is-page-count',
    requirement: 'notifications.total',
    operations: ['searchNotifications'],
    description: 'totalElements gives the size of the page, not of the window',
    handler: (next, ctx) => {
      const r = next(ctx) as { notifications: unknown[] };
      return { ...r, totalElements: r.notifications.length };
    },
  },
  {
    name: 'notif-duplicates',
    requirement: 'notifications.noDuplicates',
    operations: ['searchNotifications'],
    description: 'each page repeats the last notification of the previous page',
    handler: (next, ctx) => {
      const r = next(ctx) as { notifications: unknown[] };
      if (ctx.content.pageNumber < 1) return r;
      const prev = next({ ...ctx, content: { ...ctx.content, pageNumber: ctx.content.pageNumber - 1 } }) as {
        notifications: unknown[];
      };
      return {
        ...r,
        notifications: [...prev.notifications.slice(-1), ...r.notifications].slice(0, ctx.content.pageSize),
      };
    },
  },
  {
    name: 'notif-missing-post-events',
    requirement: {
      organization: 'ORG-NOTIF-RECORDS-CHANGES',
      person: 'PERSON-NOTIF-RECORDS-CHANGES',
      provider: 'PROV-NOTIF-RECORDS-CHANGES',
    },
    // Only the organization's expectation covers identity creation; the person and provider seeds list the kinds they
    // report (person: matches, links, merges, deactivations; provider: merge, link and unlink events), which faults of
    // their own cover.
    services: ['organization'],
    operations: ['searchNotifications'],
    description: 'one kind of event (the creation of an identity) never reaches the notification feed',
    handler: (next, ctx) => {
      const r = next(ctx) as { notifications: Array<{ notificationType?: string }> };
      return {
        ...r,
        notifications: r.notifications.filter((n) => n.notificationType !== 'CREATE' && n.notificationType !== 'MATCH'),
      };
    },
  },
  // Authentication
  {
    name: 'auth-none-accepted',
    requirement: 'auth.rejected',
    description: 'a request without credentials is served',
    auth: (v) => (v === 'missing' ? 'ok' : v),
  },
  {
    name: 'auth-any-token',
    requirement: 'auth.rejected',
    description: 'any bearer value is accepted without verifying the JWT',
    auth: (v) => (v === 'invalid' ? 'ok' : v),
  },
];

const SEARCH = (ctx: HandlerContext, content: Record<string, any>) => SEARCH_HANDLER({ ...ctx, content });
const NATIVE_REPLY = (ctx: HandlerContext, linkId: string) => identityReply(ctx, linkId);

/**
 * Operation-shape faults: for each operation, one reply member sent with the wrong type (keyed by every operation name,
 * so a new operation needs its shape fault).
 */
const SHAPE: Record<OperationName, { member: string; to: (v: unknown) => unknown; what: string }> = {
  postIdentity: {
    member: 'identityGroupedBySource',
    to: () => ({}),
    what: 'identityGroupedBySource is an object, not an array',
  },
  deleteSourceIdentity: {
    member: 'linkIdsModified',
    to: (v) => list(v).join(','),
    what: 'linkIdsModified is a comma-joined string',
  },
  demographicsSearch: {
    member: 'searchResults',
    to: (v) => ({ items: v }),
    what: 'searchResults is wrapped in an object',
  },
  demographicsQuery: { member: 'domains', to: () => 'none', what: 'domains is the string "none"' },
  nativeIdQuery: { member: 'linkId', to: (v) => ({ value: v }), what: 'linkId is an object {value}' },
  identityIdQuery: { member: 'customerSources', to: () => 'n/a', what: 'customerSources is a string' },
  softDeleteSource: { member: 'linkIdsSoftDeleted', to: (v) => list(v).length, what: 'linkIdsSoftDeleted is a count' },
  restoreSource: { member: 'linkIdCreated', to: (v) => (v ? [v] : [0]), what: 'linkIdCreated is an array' },
  mergeIdentities: {
    member: 'toSurviveSource',
    to: (v: any) => `${v?.name}/${v?.id}`,
    what: 'toSurviveSource is a "name/id" string',
  },
  unmergeIdentities: {
    member: 'unmergedSource',
    to: (v: any) => `${v?.name}/${v?.id}`,
    what: 'unmergedSource is a "name/id" string',
  },
  linkIdentities: { member: 'linkToSource', to: (v) => [v], what: 'linkToSource is an array' },
  unlinkIdentities: { member: 'unlinkedFromSource', to: () => true, what: 'unlinkedFromSource is a boolean' },
  addRelationshipService: {
    member: 'relationship',
    to: (v) => JSON.stringify(v),
    what: 'relationship is a JSON string',
  },
  searchRelationshipsService: {
    member: 'relationship',
    to: (v) => JSON.stringify(v),
    what: 'relationship is a JSON string',
  },
  deleteRelationshipService: { member: 'id', to: () => 1, what: 'id is a number' },
  searchNotifications: { member: 'hasNext', to: (v) => (v ? 'Y' : 'N'), what: 'hasNext is "Y"/"N"' },
  deactivateSourceWs: {
    member: 'linkIdsModified',
    to: (v) => list(v).join(','),
    what: 'linkIdsModified is a comma-joined string',
  },
  reactivateSourceWs: {
    member: 'linkIdsModified',
    to: (v) => list(v).join(','),
    what: 'linkIdsModified is a comma-joined string',
  },
  householdQuery: {
    member: 'linkIdsInHousehold',
    to: (v) => list(v).join(','),
    what: 'linkIdsInHousehold is a comma-joined string',
  },
  createDataSource: {
    member: 'datasourceCreationResponses',
    to: (v) => ({ items: v }),
    what: 'datasourceCreationResponses is wrapped in an object',
  },
};
/** Where a service names a member differently from SHAPE. */
const SHAPE_BY_SERVICE: Partial<Record<ServiceName, Partial<typeof SHAPE>>> = {
  person: {
    searchRelationshipsService: {
      member: 'relationships',
      to: (v) => JSON.stringify(v),
      what: 'relationships is a JSON string',
    },
  },
};

function shapeFaults(service: ServiceName): FaultDefinition[] {
  const spec = SERVICES[service];
  return spec.operations.map((op) => {
    const s = SHAPE_BY_SERVICE[service]?.[op.name] ?? SHAPE[op.name];
    return {
      name: `${prefixOf(service)}shape-${op.name}`,
      service,
      requirement: op.shapeRequirement,
      operations: [op.name],
      description: `${op.name}: ${s.what}`,
      reply: (i: ReplyInfo) =>
        void (ok(i) && i.body.content && (i.body.content[s.member] = s.to(i.body.content[s.member]))),
    };
  });
}

const prefixOf = (service: ServiceName) => (service === 'organization' ? '' : `${service}-`);

/** The requirement ID a shared fault violates in `service`, or undefined where it has none. */
const requirementIn = (service: ServiceName, ref: RequirementRef) =>
  typeof ref === 'string' ? requirementFor(service, ref) : ref[service];

/** The shared faults instantiated for a service: only those whose requirement its catalogue has (and can test). */
function sharedFaults(service: ServiceName): FaultDefinition[] {
  const ids = new Set(SERVICES[service].requirements.filter((r) => !r.untestable).map((r) => r.id));
  return SHARED.filter((f) => !f.services || f.services.includes(service)).flatMap(({ services: _s, ...f }) => {
    const requirement = requirementIn(service, f.requirement);
    return requirement && ids.has(requirement)
      ? [{ ...f, name: `${prefixOf(service)}${f.name}`, service, requirement }]
      : [];
  });
}

/** Services whose faults are in the catalogue (those the reference serves and the suite has scenarios for). */
export const FAULT_SERVICES: ServiceName[] = ['organization', 'person', 'provider'];

/** Sequence-only faults the walks meet on every run: each lies on a tour (scenarios/shared/walk/commands.ts TOURS). */
const WALK_FAULTS = SEQUENCE_FAULTS.filter((f) => !f.acceptInvalid);

// Sequence-only and matching faults, caught by the walks and metamorphic checks (reference/faults/sequence-faults.ts).
export const FAULT_LIST: FaultDefinition[] = [
  ...FAULT_SERVICES.flatMap((s) => [...sharedFaults(s), ...shapeFaults(s)]),
  ...PERSON_FAULTS,
  ...PROVIDER_FAULTS,
  ...RULE_FAULTS,
  ...STATE_FAULTS,
  ...CATEGORY_FAULTS,
  ...SINGLE_CATEGORY_FAULTS,
  ...MATCHING_FAULTS,
  ...WALK_FAULTS,
];
// The generated-bad-input fault (source-date-unchecked) is switchable but not in the detection list: whether fast-check
// generates the one malformed date it needs depends on the budget.
export const FAULTS = new Map([...FAULT_LIST, ...SEQUENCE_FAULTS].map((f) => [f.name, f]));
