/**
 * Handlers of the operations the three services share: post, search, query, lifecycle (soft delete, restore, hard
 * delete), merge, unmerge, link, unlink, relationships and notifications. The service-specific pieces (matcher, member
 * names) come in the context.
 *
 * Source: organization-identity-api.md, Endpoints and "States and transitions"; person-provider-identity-api.md,
 * "States and transitions".
 */
import type { SharedOperation } from '../../specs/common/operation-names.js';
import type { SourceRecord } from '../store.js';
import { keyOf } from '../store.js';
import { blockedRecords, indexRecord } from '../matching/blocking.js';
import { type Handler, type HandlerContext, Rejection } from './types.js';

type Identity = Record<string, unknown>;
type Src = { name?: string; id?: string; date?: string };

const SYSTEM_MAX_RESULTS = 50;

/** The posted identity's source: identity.sources[0], or content.source. */
export function postedSource(content: Record<string, any>): Src {
  const s = (Array.isArray(content.identity?.sources) ? content.identity.sources[0] : undefined) ?? content.source;
  if (!s?.name || !s?.id)
    throw new Rejection(400, 'postIdentity needs a source reference (identity.sources[0] with name and id)');
  return s;
}

function requireSource(content: Record<string, any>, member: string): Src {
  const s = content?.[member];
  if (!s || typeof s.name !== 'string' || typeof s.id !== 'string')
    throw new Rejection(400, `${member} must be a source reference with name and id`);
  return s;
}

function find(ctx: HandlerContext, s: Src): SourceRecord {
  const r = ctx.store.get(s);
  if (!r) throw new Rejection(404, `source ${s.name}/${s.id} not found`);
  return r;
}

const sourceOf = (r: SourceRecord) => ({
  name: r.source.name,
  id: r.source.id,
  ...(r.source.date ? { date: r.source.date } : {}),
});

/** Union of the members' attribute arrays (duplicates removed), as the identity's DEFAULT view. */
export function unionIdentity(members: SourceRecord[]): Identity {
  const out: Record<string, unknown[]> = {};
  for (const m of members) {
    for (const [k, v] of Object.entries(m.data)) {
      if (!Array.isArray(v)) continue;
      const list = (out[k] ??= []);
      for (const item of v) if (!list.some((x) => JSON.stringify(x) === JSON.stringify(item))) list.push(item);
    }
  }
  return out;
}

/**
 * An identityIdQuery answer for `linkId` showing `identity` and no source: what a deployment that keeps answering a
 * link ID it no longer uses may reply (a new object each call: reply hooks change content in place).
 */
export const idQueryAnswer = (linkId: unknown, identity: Record<string, unknown> = {}) => ({
  linkId,
  requestedLinkId: linkId,
  identity,
  identityGroupedBySource: [],
  customerSources: [],
  domains: [],
});

/** A query answer that found no identity (a new object each call). */
export const noIdentity = () => ({
  linkId: null,
  identity: null,
  identityGroupedBySource: [],
  customerSources: [],
  domains: [],
});

/** The source record the request member `member` names. @throws Rejection 400 (no source reference), 404 (unknown) */
export const sourceRecord = (ctx: HandlerContext, member: string): SourceRecord =>
  find(ctx, requireSource(ctx.content, member));

/** The identity-returning reply members for a link ID (nativeIdQuery, identityIdQuery, demographicsQuery). */
export function identityReply(ctx: HandlerContext, linkId: string): Record<string, unknown> {
  const members = ctx.store.visibleMembers(linkId);
  // A survivor holds the combined data of the records merged into it (provider seed, mergeIdentities; organization
  // seed: the retired section unmerge takes data back from).
  const retired = ctx.store.withLinkId(linkId).filter((r) => r.state === 'retired');
  return {
    linkId,
    identity: unionIdentity([...members, ...retired]),
    identityGroupedBySource: members.map((m) => ({ source: sourceOf(m), ...m.data })),
    customerSources: [],
    domains: [],
    customizedIdentities: {},
  };
}

/** Best score of `probe` against the active members of each identity, filtered by kind. */
export function candidates(
  ctx: HandlerContext,
  probe: Identity,
  exclude?: string,
): Array<{ linkId: string; score: number }> {
  const best = new Map<string, number>();
  const kind = ctx.matcher.kind?.(probe);
  // Blocking (reference/matching/blocking.ts): a full scan below 1,000 records, else key-sharing records only.
  for (const r of blockedRecords(ctx.store, probe)) {
    if (r.state !== 'active' || r.key === exclude) continue;
    if (kind !== undefined && ctx.matcher.kind?.(r.data) !== kind) continue;
    const s = ctx.matcher.score(probe, r.data);
    if (s > (best.get(r.linkId) ?? -1)) best.set(r.linkId, s);
  }
  // Ties keep the order identities were first met in (the store's insertion order), not the random link IDs, so the
  // same posts in the same order always link the same way (match-quality --compare).
  return [...best.entries()]
    .map(([linkId, score]) => ({ linkId, score: Math.round(score * 10000) / 10000 }))
    .sort((a, b) => b.score - a.score);
}

export const postIdentity: Handler = (ctx) => {
  const { store } = ctx;
  const identity = ctx.content.identity as Identity;
  const source = postedSource(ctx.content);
  const existing = store.get(source);
  const now = store.now();
  if (existing) {
    existing.data = identity;
    existing.updatedAt = now;
    indexRecord(store, existing);
    store.notify('UPDATE', { source: source.name, nativeId: source.id, newLinkId: existing.linkId });
    return {
      linkId: existing.linkId,
      ...identityReply(ctx, existing.linkId),
      linkIdentity: unionIdentity(store.visibleMembers(existing.linkId)),
      incomingIdentity: identity,
      events: [{ eventType: 'UPDATE', linkId: existing.linkId, source: { name: source.name, id: source.id } }],
    };
  }
  const match = candidates(ctx, identity).find((c) => c.score >= ctx.matcher.threshold);
  const linkId = match?.linkId ?? store.newLinkId();
  const record: SourceRecord = {
    key: keyOf(source),
    source: { name: source.name!, id: source.id!, ...(source.date ? { date: source.date } : {}) },
    data: identity,
    state: 'active',
    linkId,
    originalLinkId: linkId,
    updatedAt: now,
  };
  store.records.set(record.key, record);
  indexRecord(store, record);
  store.notify(match ? 'MATCH' : 'CREATE', { source: source.name, nativeId: source.id, newLinkId: linkId });
  return {
    // Rule 2: linkId is null when the posted record matched no existing identity.
    linkId: match ? linkId : null,
    ...(match
      ? identityReply(ctx, linkId)
      : { identity: null, identityGroupedBySource: [], customerSources: [], domains: [], customizedIdentities: {} }),
    linkIdentity: match ? unionIdentity(store.visibleMembers(linkId)) : null,
    incomingIdentity: identity,
    events: [{ eventType: match ? 'MATCH' : 'CREATE', linkId, source: { name: source.name, id: source.id } }],
  };
};

export const demographicsSearch: Handler = (ctx) => {
  const { matchScoreThreshold: threshold, maxSearchResults: max } = ctx.content;
  if (max !== undefined && max !== null && !(Number.isInteger(max) && max > 0))
    throw new Rejection(400, 'maxSearchResults must be greater than 0');
  const floor = typeof threshold === 'number' ? threshold : ctx.matcher.floor;
  const found = candidates(ctx, ctx.content.identity)
    .filter((c) => c.score >= floor)
    .slice(0, max ?? SYSTEM_MAX_RESULTS);
  return {
    searchResults: found.map((c) => ({
      ...identityReply(ctx, c.linkId),
      matchScore: c.score,
      sameIdentity: c.score >= ctx.matcher.threshold ? 'Y' : c.score >= ctx.matcher.uncertain ? 'U' : 'N',
    })),
  };
};

export const demographicsQuery: Handler = (ctx) => {
  const best = candidates(ctx, ctx.content.identity)[0];
  if (!best || best.score < ctx.matcher.threshold)
    return { linkId: null, identity: null, identityGroupedBySource: [], customerSources: [], domains: [] };
  return identityReply(ctx, best.linkId);
};

export const nativeIdQuery: Handler = (ctx) => {
  const r = sourceRecord(ctx, 'source');
  if (r.state === 'soft-deleted') throw new Rejection(404, `source ${r.source.name}/${r.source.id} is soft-deleted`);
  if (!ctx.store.visibleMembers(r.linkId).length)
    throw new Rejection(404, `source ${r.source.name}/${r.source.id} has no identity`);
  return identityReply(ctx, r.linkId);
};

export const identityIdQuery: Handler = (ctx) => {
  const linkId = ctx.content.linkId;
  if (typeof linkId !== 'string' || !linkId) throw new Rejection(400, 'linkId is required');
  if (!ctx.store.visibleMembers(linkId).length) throw new Rejection(404, `identity ${linkId} not found`);
  return { ...identityReply(ctx, linkId), requestedLinkId: linkId };
};

/** Link IDs touched by removing a record from its identity: deleted when nothing active is left. */
function touched(ctx: HandlerContext, linkId: string) {
  return ctx.store.activeMembers(linkId).length ? { modified: [linkId], gone: [] } : { modified: [], gone: [linkId] };
}

export const softDeleteSource: Handler = (ctx) => {
  const r = sourceRecord(ctx, 'sourceToSoftDelete');
  if (r.state !== 'active') throw new Rejection(409, `source is ${r.state}, not active`);
  r.state = 'soft-deleted';
  r.updatedAt = ctx.store.now();
  const t = touched(ctx, r.linkId);
  ctx.store.notify('SOFT_DELETE', { source: r.source.name, nativeId: r.source.id, previousLinkId: r.linkId });
  return { linkIdsSoftDeleted: t.gone, linkIdsModified: t.modified };
};

export const restoreSource: Handler = (ctx) => {
  const r = sourceRecord(ctx, ctx.members.restoreSource);
  if (r.state !== 'soft-deleted') throw new Rejection(409, `source is ${r.state}, not soft-deleted`);
  r.state = 'active';
  r.updatedAt = ctx.store.now();
  const rejoin = ctx.store.activeMembers(r.linkId).length > 1;
  if (!rejoin) r.linkId = r.originalLinkId = ctx.store.newLinkId();
  ctx.store.notify('RESTORE', { source: r.source.name, nativeId: r.source.id, newLinkId: r.linkId });
  return { linkIdsModified: rejoin ? [r.linkId] : [], linkIdCreated: rejoin ? null : r.linkId };
};

export const deleteSourceIdentity: Handler = (ctx) => {
  const r = sourceRecord(ctx, 'source');
  ctx.store.records.delete(r.key);
  const visibleLeft = ctx.store.visibleMembers(r.linkId).length > 0;
  ctx.store.notify('DELETE', { source: r.source.name, nativeId: r.source.id, previousLinkId: r.linkId });
  return { linkIdsModified: visibleLeft ? [r.linkId] : [], linkIdsDeleted: visibleLeft ? [] : [r.linkId] };
};

function requireSameKind(ctx: HandlerContext, a: SourceRecord, b: SourceRecord, what: string): void {
  const ka = ctx.matcher.kind?.(a.data);
  const kb = ctx.matcher.kind?.(b.data);
  if (ka !== kb) throw new Rejection(409, `${what} only between identities of the same type (${ka} vs ${kb})`);
}

export const mergeIdentities: Handler = (ctx) => {
  const survive = sourceRecord(ctx, 'toSurviveSource');
  const retire = sourceRecord(ctx, 'toRetireSource');
  if (survive.key === retire.key) throw new Rejection(400, 'a source cannot be merged into itself');
  if (survive.state !== 'active' || retire.state !== 'active') throw new Rejection(409, 'both sources must be active');
  requireSameKind(ctx, survive, retire, 'merge');
  const previous = retire.linkId;
  retire.state = 'retired';
  retire.retiredInto = survive.key;
  retire.linkId = survive.linkId;
  retire.updatedAt = ctx.store.now();
  ctx.store.notify('MERGE', {
    survivingSource: survive.source.name,
    survivingNativeId: survive.source.id,
    retiredSource: retire.source.name,
    retiredNativeId: retire.source.id,
    previousLinkId: previous,
    newLinkId: survive.linkId,
  });
  return { linkId: survive.linkId, toSurviveSource: sourceOf(survive) };
};

/** Stamps a source record that moved to another identity and notifies the move (its previous and new link ID). */
const notifyMoved = (ctx: HandlerContext, event: string, r: SourceRecord, previousLinkId: string) => {
  r.updatedAt = ctx.store.now();
  ctx.store.notify(event, { source: r.source.name, nativeId: r.source.id, previousLinkId, newLinkId: r.linkId });
};

export const unmergeIdentities: Handler = (ctx) => {
  const from = sourceRecord(ctx, 'unmergeFromSource');
  const r = sourceRecord(ctx, 'unmergeSource');
  if (r.state !== 'retired' || r.retiredInto !== from.key)
    throw new Rejection(409, 'unmergeSource is not retired into unmergeFromSource');
  r.state = 'active';
  r.retiredInto = undefined;
  r.linkId = r.originalLinkId = ctx.store.newLinkId();
  notifyMoved(ctx, 'UNMERGE', r, from.linkId);
  return {
    unmergedSource: sourceOf(r),
    unmergedFromSource: sourceOf(from),
    unmergedId: r.linkId,
    unmergedFromId: from.linkId,
  };
};

export const linkIdentities: Handler = (ctx) => {
  const to = sourceRecord(ctx, 'linkToSource');
  const r = sourceRecord(ctx, 'source');
  if (to.state !== 'active' || r.state !== 'active') throw new Rejection(409, 'both sources must be active');
  requireSameKind(ctx, to, r, 'link');
  const previous = r.linkId;
  r.linkId = to.linkId;
  notifyMoved(ctx, 'LINK', r, previous);
  return { linkId: to.linkId, linkToSource: sourceOf(to) };
};

export const unlinkIdentities: Handler = (ctx) => {
  const from = sourceRecord(ctx, 'unlinkFromSource');
  const r = sourceRecord(ctx, 'source');
  if (from.state !== 'active' || r.state !== 'active') throw new Rejection(409, 'both sources must be active');
  if (from.linkId !== r.linkId || from.key === r.key)
    throw new Rejection(409, 'source is not linked to unlinkFromSource');
  r.linkId = r.originalLinkId = ctx.store.newLinkId();
  notifyMoved(ctx, 'UNLINK', r, from.linkId);
  return {
    unlinkedId: r.linkId,
    unlinkedSource: sourceOf(r),
    unlinkedFromId: from.linkId,
    unlinkedFromSource: sourceOf(from),
  };
};

export const addRelationshipService: Handler = (ctx) => {
  const rel = ctx.content.relationship ?? {};
  const { relationshipSubject: subj, relationshipObject: obj } = ctx.members;
  if (!rel.relationshipVerb || !rel[subj] || !rel[obj])
    throw new Rejection(400, `relationship needs relationshipVerb, ${subj} and ${obj}`);
  const id = `REL${ctx.store.newLinkId().slice(3)}`;
  const stored = { ...rel, id };
  ctx.store.relationships.set(id, stored);
  ctx.store.notify('RELATIONSHIP_ADD', { newLinkId: String(rel[subj]), previousLinkId: String(rel[obj]) });
  return { relationship: stored };
};

const CRITERIA = ['id', 'relationshipVerb', 'status', 'domain'];

export const searchRelationshipsService: Handler = (ctx) => {
  const criteria = ctx.content.relationship ?? {};
  const keys = [...CRITERIA, ctx.members.relationshipSubject, ctx.members.relationshipObject].filter(
    (k) => criteria[k] !== undefined && criteria[k] !== null,
  );
  const found = [...ctx.store.relationships.values()].filter((r) => keys.every((k) => r[k] === criteria[k]));
  return { relationship: found };
};

export const deleteRelationshipService: Handler = (ctx) => {
  const id = ctx.content.id;
  if (typeof id !== 'string' || !ctx.store.relationships.has(id))
    throw new Rejection(404, `relationship ${String(id)} not found`);
  ctx.store.relationships.delete(id);
  ctx.store.notify('RELATIONSHIP_DELETE', { source: id });
  return { id };
};

export const searchNotifications: Handler = (ctx) => {
  const { pageNumber, pageSize, startDate, endDate } = ctx.content;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Rejection(400, 'pageSize must be a positive integer');
  if (!Number.isInteger(pageNumber) || pageNumber < 0)
    throw new Rejection(400, 'pageNumber must be a non-negative integer');
  const from = Date.parse(startDate);
  const to = Date.parse(endDate);
  const inWindow = ctx.store.notifications.filter((n) => {
    const t = Date.parse(n.ts);
    return t >= from && t <= to;
  });
  const page = inWindow.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize);
  return {
    customerId: ctx.store.customerId,
    hasNext: (pageNumber + 1) * pageSize < inWindow.length,
    notifications: page,
    totalElements: inWindow.length,
  };
};

/** Handlers of the operations every service shares, by operation name. */
/** Handlers of the shared operations, by name (a missing one is a compile error). */
export const sharedHandlers: Record<SharedOperation, Handler> = {
  postIdentity,
  demographicsSearch,
  demographicsQuery,
  nativeIdQuery,
  identityIdQuery,
  softDeleteSource,
  restoreSource,
  deleteSourceIdentity,
  mergeIdentities,
  unmergeIdentities,
  linkIdentities,
  unlinkIdentities,
  addRelationshipService,
  searchRelationshipsService,
  deleteRelationshipService,
  searchNotifications,
};
