/**
 * Person-only handlers of the reference and the person member differences of shared ones: deactivate / reactivate
 * (person-provider-identity-api.md, States and transitions), householdQuery, createDataSource (Endpoints; Limits: at
 * most 10 per call), relationships named by subjectVeratoId / objectVeratoId and searched by relationshipFilter (vendor
 * description; the profile defaults name the same members), and person replies whose attribute objects carry sources[]
 * and clusterStatus (Resources, "Source entry"). Everything else is the shared handler
 * (reference/handlers/identity.ts).
 */
import type { PersonOperation } from '../../specs/common/operation-names.js';
import { createHash } from 'node:crypto';
import { householdKey } from '../matching/person.js';
import type { SourceRecord } from '../store.js';
import { sharedHandlers, sourceRecord } from './identity.js';
import { type Handler, type HandlerContext, Rejection } from './types.js';

type Src = { name?: string; id?: string };
type Item = Record<string, unknown>;

const MAX_DATA_SOURCES = 10;
/** Data source names: no spaces and none of " | : ' (vendor description), at most 255 characters. */
const DATA_SOURCE_NAME = /^[^\s"|:']{1,255}$/;
/** Relationship members on the person service (same as the profile defaults person.relationshipSubject/Object). */
const PERSON_MEMBERS = { relationshipSubject: 'subjectVeratoId', relationshipObject: 'objectVeratoId' };

/** The person source entry of a record: which source asserts an attribute object. */
export const sourceEntry = (r: SourceRecord) => ({
  sourceId: r.source.name,
  sourceName: r.source.name,
  displayName: r.source.name,
  nativeId: r.source.id,
});

/** The identity of a link ID with every attribute object carrying the source entries that assert it. */
export function personIdentityOf(ctx: HandlerContext, linkId: string): Item {
  const out: Record<string, Item[]> = {};
  for (const m of ctx.store.visibleMembers(linkId)) {
    const entry = sourceEntry(m);
    for (const [key, value] of Object.entries(m.data)) {
      if (key === 'sources' || !Array.isArray(value)) continue;
      const list = (out[key] ??= []);
      for (const item of value as Item[]) {
        const { sources: _s, clusterStatus: _c, ...fields } = item ?? {};
        const same = list.find((x) => {
          const { sources: _xs, clusterStatus: _xc, ...xf } = x;
          return JSON.stringify(xf) === JSON.stringify(fields);
        });
        if (same) (same.sources as Item[]).push(entry);
        else list.push({ ...fields, sources: [entry], clusterStatus: 'ACTIVE' });
      }
    }
  }
  return out;
}

/** Rewrites the identities of an identity-returning reply in the person form; adds enrichment on request. */
function personReply(ctx: HandlerContext, reply: Item): Item {
  const decorate = (r: Item) => {
    const out: Item =
      typeof r.linkId === 'string' && r.identity ? { ...r, identity: personIdentityOf(ctx, r.linkId) } : { ...r };
    // includeEnrichData (default false): enrichment only when asked; its structure is "not shown".
    if (ctx.content.includeEnrichData === true && typeof r.linkId === 'string')
      out.enrichedDetails = { enrichedBy: 'reference', linkId: r.linkId };
    return out;
  };
  return Array.isArray(reply.searchResults)
    ? { ...reply, searchResults: (reply.searchResults as Item[]).map(decorate) }
    : decorate(reply);
}

const withPersonReply =
  (handler: Handler): Handler =>
  (ctx) =>
    personReply(ctx, handler(ctx));
const withPersonMembers =
  (handler: Handler): Handler =>
  (ctx) =>
    handler({ ...ctx, members: { ...ctx.members, ...PERSON_MEMBERS } });

export const deactivateSourceWs: Handler = (ctx) => {
  const r = sourceRecord(ctx, ctx.members.deactivateSource);
  if (r.state !== 'active') throw new Rejection(409, `source is ${r.state}, not active`);
  r.state = 'deactivated';
  // Reactivation returns the record to the link ID it has now.
  r.originalLinkId = r.linkId;
  r.updatedAt = ctx.store.now();
  const stillActive = ctx.store.activeMembers(r.linkId).length > 0;
  ctx.store.notify('DEACTIVATE', { source: r.source.name, nativeId: r.source.id, previousLinkId: r.linkId });
  return { linkIdsModified: stillActive ? [r.linkId] : [], linkIdsDeactivated: stillActive ? [] : [r.linkId] };
};

export const reactivateSourceWs: Handler = (ctx) => {
  const r = sourceRecord(ctx, ctx.members.reactivateSource);
  if (r.state !== 'deactivated') throw new Rejection(409, `source is ${r.state}, not deactivated`);
  r.state = 'active';
  r.linkId = r.originalLinkId;
  r.updatedAt = ctx.store.now();
  ctx.store.notify('REACTIVATE', { source: r.source.name, nativeId: r.source.id, newLinkId: r.linkId });
  return { linkIdsModified: [r.linkId], linkIdCreated: null };
};

const householdIdOf = (key: string) => `HH${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

/** Households: identities (with an active record) whose first addresses normalise alike. */
function households(
  ctx: HandlerContext,
): Map<string, { key: string; linkIds: string[]; createdAt: number; updatedAt: number }> {
  const byId = new Map<string, { key: string; linkIds: string[]; createdAt: number; updatedAt: number }>();
  for (const linkId of ctx.store.activeLinkIds()) {
    const members = ctx.store.activeMembers(linkId);
    const key = members.map((m) => householdKey(m.data)).find(Boolean);
    if (!key) continue;
    const id = householdIdOf(key);
    const h = byId.get(id) ?? { key, linkIds: [], createdAt: Infinity, updatedAt: 0 };
    h.linkIds.push(linkId);
    for (const m of members) {
      h.createdAt = Math.min(h.createdAt, m.updatedAt);
      h.updatedAt = Math.max(h.updatedAt, m.updatedAt);
    }
    byId.set(id, h);
  }
  return byId;
}

export const householdQuery: Handler = (ctx) => {
  const { householdId, linkId, source } = ctx.content as { householdId?: string; linkId?: string; source?: Src };
  const keys = [householdId, linkId, source].filter((k) => k !== undefined && k !== null);
  if (keys.length !== 1) throw new Rejection(400, 'householdQuery needs exactly one of householdId, linkId or source');
  const all = households(ctx);
  let id = householdId;
  if (!id) {
    const target = linkId ?? ctx.store.get(source)?.linkId;
    if (!target) throw new Rejection(404, `source ${source?.name}/${source?.id} not found`);
    id = [...all.entries()].find(([, h]) => h.linkIds.includes(target))?.[0];
  }
  const h = id ? all.get(id) : undefined;
  if (!h || !id) throw new Rejection(404, 'no household found');
  return {
    householdId: id,
    linkIdsInHousehold: [...h.linkIds].sort(),
    createDate: new Date(h.createdAt).toISOString(),
    lastUpdateDate: new Date(h.updatedAt).toISOString(),
  };
};

export const createDataSource: Handler = (ctx) => {
  const names = ctx.content.sources;
  if (!Array.isArray(names) || names.length === 0)
    throw new Rejection(400, 'sources must list at least one data source name');
  if (names.length > MAX_DATA_SOURCES)
    throw new Rejection(
      400,
      `createDataSource accepts at most ${MAX_DATA_SOURCES} data sources per call, got ${names.length}`,
    );
  return {
    datasourceCreationResponses: names.map((name: unknown) => {
      const n = String(name);
      if (!DATA_SOURCE_NAME.test(n)) return { datasource: n, status: 'FAILED', error: 'invalid data source name' };
      if (ctx.store.dataSources.has(n)) return { datasource: n, status: 'FAILED', error: 'data source already exists' };
      ctx.store.dataSources.add(n);
      return { datasource: n, status: 'SUCCESS', error: null };
    }),
  };
};

export const searchRelationshipsService: Handler = (ctx) => {
  const f = (ctx.content.relationshipFilter ?? {}) as Record<string, string | undefined>;
  const { relationshipSubject: subj, relationshipObject: obj } = PERSON_MEMBERS;
  const found = [...ctx.store.relationships.values()].filter(
    (r) =>
      (!f.filterBySubjectVeratoId || r[subj] === f.filterBySubjectVeratoId) &&
      (!f.filterByObjectVeratoId || r[obj] === f.filterByObjectVeratoId) &&
      (!f.filterBySubjectOrObjectVeratoId ||
        r[subj] === f.filterBySubjectOrObjectVeratoId ||
        r[obj] === f.filterBySubjectOrObjectVeratoId) &&
      (!f.filterByRelationshipVerb || r.relationshipVerb === f.filterByRelationshipVerb),
  );
  return { relationships: found };
};

const { softDeleteSource: _soft, restoreSource: _restore, ...shared } = sharedHandlers;

/** Handlers of the person service, by operation name (a missing one is a compile error). */
export const personHandlers: Record<PersonOperation, Handler> = {
  ...shared,
  postIdentity: withPersonReply(sharedHandlers.postIdentity),
  demographicsSearch: withPersonReply(sharedHandlers.demographicsSearch),
  demographicsQuery: withPersonReply(sharedHandlers.demographicsQuery),
  nativeIdQuery: withPersonReply(sharedHandlers.nativeIdQuery),
  identityIdQuery: withPersonReply(sharedHandlers.identityIdQuery),
  deactivateSourceWs,
  reactivateSourceWs,
  householdQuery,
  createDataSource,
  addRelationshipService: withPersonMembers(sharedHandlers.addRelationshipService),
  searchRelationshipsService,
};
