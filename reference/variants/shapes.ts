/**
 * Reply-shape variants: members the seeds do not mark required, member sets they do not close, element shapes they do
 * not show, and equally valid wire forms of a type. Each is a reply hook (reference/hooks.ts) rewriting the envelope
 * after the handler; state is never touched.
 */
import type { ReferenceHook, ReplyInfo } from '../hooks.js';

type Json = any;
const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);
const ok = (i: ReplyInfo) => i.body.success === true && isObject(i.body.content);
/**
 * The reply content as a copy the hook may change: handlers return objects shared with the store (a record's data),
 * which a reply rewrite must never reach.
 */
const ownContent = (i: ReplyInfo) => (i.body.content = structuredClone(i.body.content));

/** Identity-bearing members of a reply content (and of each search result). */
const IDENTITY_MEMBERS = ['identity', 'linkIdentity', 'incomingIdentity'];

/** Calls `fn` on every reply object that carries identity members: the content, and each search result. */
function eachIdentityReply(content: Json, fn: (r: Record<string, Json>) => void): void {
  if (!isObject(content)) return;
  fn(content);
  if (Array.isArray(content.searchResults)) for (const r of content.searchResults) if (isObject(r)) fn(r);
}

/** Removes members whose value is null, at any depth; `keep(path)` spares some. */
function dropNulls(value: Json, keep: (path: string) => boolean, path = ''): void {
  if (Array.isArray(value)) value.forEach((v, i) => dropNulls(v, keep, `${path}/${i}`));
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) {
      if (v === null && !keep(`${path}/${k}`)) delete value[k];
      else dropNulls(v, keep, `${path}/${k}`);
    }
}

/**
 * absent-optional: optional members that would be null are left out. postIdentity keeps `content.linkId: null`
 * (Endpoints, rule 2: "`linkId` is null when there is no match").
 */
export const absentOptional = (): ReferenceHook[] => [
  {
    reply: (i) => {
      ownContent(i);
      dropNulls(i.body, (p) => i.operation === 'postIdentity' && p === '/content/linkId');
    },
  },
];

/**
 * extra-members: unknown members in the envelope, the content, identities, their attribute objects, search results,
 * notifications and events.
 */
export const extraMembers = (): ReferenceHook[] => [
  {
    reply: (i) => {
      i.body.apiVersion = '2026.1.2';
      i.body.serverInfo = { node: 'reference-1', region: 'local' };
      if (!ok(i)) return;
      const c = ownContent(i);
      c.vendorExtensions = { generatedBy: 'reference', schema: 2 };
      eachIdentityReply(c, (r) => {
        for (const m of IDENTITY_MEMBERS) {
          const identity = r[m];
          if (!isObject(identity)) continue;
          for (const list of Object.values(identity))
            if (Array.isArray(list)) for (const item of list) if (isObject(item)) item.vendorConfidence = 1;
          identity.vendorAttributes = [{ key: 'dataQuality', value: 'A' }];
        }
        if (Array.isArray(r.identityGroupedBySource))
          for (const g of r.identityGroupedBySource) if (isObject(g)) g.vendorRecordVersion = 3;
      });
      if (Array.isArray(c.searchResults))
        c.searchResults.forEach(
          (r: Json, n: number) =>
            isObject(r) && Object.assign(r, { vendorRank: n + 1, explanation: { method: 'probabilistic' } }),
        );
      for (const list of [
        c.notifications,
        c.events,
        Array.isArray(c.relationship) ? c.relationship : [c.relationship],
        c.relationships,
      ])
        if (Array.isArray(list)) for (const x of list) if (isObject(x)) x.vendorTag = 'v1';
    },
  },
];

const RENAMED: Record<string, string> = {
  source: 'sourceSystem',
  nativeId: 'recordId',
  newLinkId: 'entityId',
  previousLinkId: 'priorEntityId',
  survivingSource: 'survivorSystem',
  survivingNativeId: 'survivorRecordId',
  retiredSource: 'retiredSystem',
  retiredNativeId: 'retiredRecordId',
};

/** A stored notification in other member names (its IDs still present, nested under `detail`). */
function renamedNotification(n: Json): Json {
  if (!isObject(n)) return n;
  const body = isObject(n.notificationLowerCaseBody) ? n.notificationLowerCaseBody : {};
  return {
    messageId: n.id,
    occurredAt: n.ts,
    category: n.notificationType,
    tenant: n.customerId,
    detail: Object.fromEntries(
      Object.entries(body)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [RENAMED[k] ?? k, v]),
    ),
  };
}

/** An event as one line of text: kind, source and link ID. */
const eventString = (e: Json) =>
  isObject(e)
    ? `${e.eventType ?? 'EVENT'} ${e.source?.name ?? ''}/${e.source?.id ?? ''} -> ${e.linkId ?? ''}`
    : String(e);
const eventObject = (e: Json) =>
  isObject(e)
    ? { type: e.eventType, entityId: e.linkId, record: { system: e.source?.name, recordId: e.source?.id } }
    : e;

/**
 * event-shapes: `events` elements as strings ('strings') or objects with other member names ('objects'); notifications
 * always in other member names, still naming the records and link IDs they are about.
 */
export const eventShapes = (form: 'strings' | 'objects'): ReferenceHook[] => [
  {
    operations: ['postIdentity'],
    reply: (i) =>
      void (
        ok(i) &&
        Array.isArray(i.body.content.events) &&
        (ownContent(i).events = i.body.content.events.map(form === 'strings' ? eventString : eventObject))
      ),
  },
  {
    operations: ['searchNotifications'],
    reply: (i) =>
      void (
        ok(i) &&
        Array.isArray(i.body.content.notifications) &&
        (i.body.content.notifications = i.body.content.notifications.map(renamedNotification))
      ),
  },
];

const UTC_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/;

/** Every DATE-TIME value `...Z` rewritten as `....ffffff+00:00` (both ISO 8601 UTC). */
function offsetForm(value: Json): Json {
  if (typeof value === 'string') {
    const m = UTC_Z.exec(value);
    return m ? `${m[1]}.${(m[2] ?? '').padEnd(6, '0').slice(0, 6)}+00:00` : value;
  }
  if (Array.isArray(value)) return value.map(offsetForm);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, offsetForm(v)]));
  return value;
}

/** datetime-offset: DATE-TIME values with a `+00:00` offset and microseconds instead of `Z`. */
export const datetimeOffset = (): ReferenceHook[] => [
  { reply: (i) => void (ok(i) && (i.body.content = offsetForm(i.body.content))) },
];

/** Members a minimal reply leaves out, per operation (none of them is marked required). */
const OPTIONAL_IN_MINIMAL: Record<string, string[]> = {
  postIdentity: [
    'customerSources',
    'domains',
    'customizedIdentities',
    'customizedIdentitiesWithSource',
    'vinIds',
    'linkIdentity',
    'incomingIdentity',
  ],
  demographicsQuery: ['customerSources', 'domains', 'customizedIdentities', 'customizedIdentitiesWithSource', 'vinIds'],
  nativeIdQuery: ['customerSources', 'domains', 'customizedIdentities', 'customizedIdentitiesWithSource', 'vinIds'],
  identityIdQuery: ['customerSources', 'domains', 'customizedIdentities', 'customizedIdentitiesWithSource', 'vinIds'],
  mergeIdentities: ['toSurviveSource'],
  linkIdentities: ['linkToSource'],
  unmergeIdentities: ['unmergedSource', 'unmergedFromSource'],
  unlinkIdentities: ['unlinkedSource', 'unlinkedFromSource'],
  searchNotifications: ['customerId'],
};

/**
 * minimal-replies: a reply carries only the members its state-table row or rule says it gives (and the identity and
 * link ID of identity replies); the provider unlink reply keeps its source information
 * (person-provider-identity-api.md, Endpoints, Provider service: "reply returns their link IDs and source
 * information").
 */
export const minimalReplies = (): ReferenceHook[] => [
  {
    reply: (i) => {
      if (!ok(i)) return;
      ownContent(i);
      const drop = (OPTIONAL_IN_MINIMAL[i.operation] ?? []).filter(
        (_m) => !(i.service === 'provider' && i.operation === 'unlinkIdentities'),
      );
      for (const m of drop) delete i.body.content[m];
      if (Array.isArray(i.body.content.searchResults))
        for (const r of i.body.content.searchResults)
          for (const m of OPTIONAL_IN_MINIMAL.demographicsQuery!) delete r[m];
    },
  },
];

/** no-grouped-by-source: identityGroupedBySource is never sent (not required; views "not shown"). */
export const noGroupedBySource = (): ReferenceHook[] => [
  { reply: (i) => void (ok(i) && eachIdentityReply(ownContent(i), (r) => delete r.identityGroupedBySource)) },
];

/** no-events: postIdentity never returns `events` ("may return generated events"). */
export const noEvents = (): ReferenceHook[] => [
  { operations: ['postIdentity'], reply: (i) => void (ok(i) && delete ownContent(i).events) },
];

/**
 * relationship-object: searchRelationshipsService answers `relationship` as one object (the first match) or null, not a
 * list.
 */
export const relationshipObject = (): ReferenceHook[] => [
  {
    operations: ['searchRelationshipsService'],
    reply: (i) =>
      void (
        ok(i) &&
        Array.isArray(i.body.content.relationship) &&
        (i.body.content.relationship = i.body.content.relationship[0] ?? null)
      ),
  },
];
