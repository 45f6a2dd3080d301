/**
 * Boundary values, derived from the types (generators/boundaries.ts): every request member the
 * suite chooses gets the values at the edges of its type, the members enumerated from the
 * operations table's schemas (specs/common/leaf-types.ts valueLeaves): the posted identity's
 * leaves, the native ID within the run's namespace, the envelope's trackingId, auditId and
 * auditLogMap values, a relationship's dates and details, and the numbers of a search and of a
 * notification page. A member the suite does not choose is left alone: a CODE-SET (its values are
 * the deployment's), a value the profile gives (a relationship verb, the provider type), a link ID.
 *
 * What each value is judged by (specs/clauses/boundaries.ts): a request carrying it may be refused
 * (always legal: size limits and allowed characters are not shown); once accepted, what comes back
 * must be it: the identity read back by nativeIdQuery (VALUE-NOT-KEPT), the source's native ID
 * (NATIVE-ID-NOT-KEPT), the trackingId and auditId of the reply (ECHO-DIFFERS), the relationship
 * the add replies with (VALUE-NOT-KEPT, members it echoes). auditLogMap values come back nowhere
 * (the reply envelope has no such member): a request carrying them is refused or answered as any
 * other, its trackingId and auditId echoed. The numbers are held to their own rules (BELOW-THRESHOLD,
 * OVER-MAX, PAGE-OVER-SIZE, PAGE-PAST-END: scenarios/shared/rules/boundary-numbers.ts).
 *
 * The records are out of the ordinary on purpose, so they are isolated as bad input is: quarantined
 * in the ledger before they are posted (no other check judges them; their native IDs lie in the
 * run's invalid namespace), unmatchable (each text starts with a mark of the check's own), deleted
 * as soon as they are read, and their file runs last in its service (run/vitest/file-order.ts).
 * CONFORMANCE_SCOPE=default sends one narrow and one wide request per member kind (a sample drawn
 * from the run seed), full every value on every member (generators/boundaries.ts boundaryRequests).
 *
 * Source: organization-identity-api.md, Endpoints (rule 2), What the service does, Errors ("The
 * request auditId and trackingId are returned in the reply"), Resources (Field data types, Request
 * envelope, Relationship); person-provider-identity-api.md, Endpoints, Resources.
 */
import type { z } from 'zod';
import { postContent } from '../../../generators/common.js';
import {
  type Boundary,
  type Placed,
  boundaryRequests,
  boundaryTable,
  chosenLeaves,
  keyOf,
  nativeIdBoundaries,
  withBoundaries,
} from '../../../generators/boundaries.js';
import type { Check } from '../../../harness/check.js';
import { type Reply, isAbsent } from '../../../harness/reply.js';
import { runInfo } from '../../../harness/targets.js';
import {
  type KeptObservation,
  NATIVE_ID_NOT_KEPT,
  VALUE_NOT_KEPT,
  nativeIdNotKept,
  valueNotKept,
} from '../../../specs/clauses/boundaries.js';
import { ECHO_DIFFERS, echoDiffers } from '../../../specs/clauses/envelope.js';
import { POSTED_NOT_FOUND, postedNotFound } from '../../../specs/clauses/post.js';
import type { Clause } from '../../../specs/common/clause.js';
import { groupedSources } from '../../../specs/common/identity-content.js';
import { RequestEnvelopeChosen } from '../../../specs/common/envelope.js';
import {
  type LeafPath,
  type ValueLeaf,
  type ValueType,
  valueLeaves,
  valuesAt,
} from '../../../specs/common/leaf-types.js';
import { Text, type SourceRef } from '../../../specs/common/wire.js';
import { operation, requirementFor } from '../../../specs/services.js';
import { relationshipContent } from '../requests.js';
import { sharedScript } from '../shared-script.js';
import { requestNumbers } from './boundary-numbers.js';
import { type Kit, type Shared, type SharedCheck, registerShared, src } from './types.js';

export const BOUNDARY_ROLES = [
  'boundaries.stored',
  'boundaries.nativeId',
  'envelope.echo',
  'boundaries.relationship',
  'search.maxResults',
  'search.threshold',
  'notifications.paging',
] as const;
export type BoundaryRole = (typeof BOUNDARY_ROLES)[number];
type Ids = Partial<Record<BoundaryRole, string>>;

/** What the boundary checks of a service receive: `roles` limits them (a second identity type needs the records'). */
export interface BoundarySetup extends Shared {
  roles?: readonly BoundaryRole[];
}

/** The requirements of the roles the set-up judges, by role. */
function idsOf(s: BoundarySetup): Ids {
  const ids: Ids = {};
  for (const role of s.roles ?? BOUNDARY_ROLES) {
    const id = requirementFor(s.check.service, role);
    if (id) ids[role] = id;
  }
  return ids;
}

/** A check of the records (one shared run of the records serves them all). */
const recordCheck = (role: BoundaryRole, id: string, title: string): SharedCheck<BoundarySetup> => ({
  id,
  role,
  title,
  needs: { setup: (s) => (s.roles ?? BOUNDARY_ROLES).includes(role) },
  body: (t, { s }) => {
    const ids = idsOf(s);
    const cites = RECORD_ROLES.map((r) => ids[r]).filter((x): x is string => Boolean(x));
    return sharedScript(t, `boundaries/${s.label ?? 'records'}`, cites, (r, judge) =>
      probeRecords(r, s.kit, ids, judge),
    );
  },
});
const RECORD_ROLES: readonly BoundaryRole[] = [
  'boundaries.stored',
  'boundaries.nativeId',
  'envelope.echo',
  'boundaries.relationship',
];

const BOUNDARY_CHECKS: readonly SharedCheck<BoundarySetup>[] = [
  recordCheck(
    'boundaries.stored',
    'boundary-identity-values-come-back-as-posted-or-the-post-is-refused',
    'boundary identity values come back as posted, or the post is refused',
  ),
  recordCheck(
    'boundaries.nativeId',
    'boundary-native-ids-find-their-record-and-are-listed-as-sent',
    'boundary native IDs find their record and are listed as sent',
  ),
  recordCheck(
    'envelope.echo',
    'boundary-trackingid-and-auditid-come-back-as-sent-also-beside-boundary-auditlogmap-values',
    'boundary trackingId and auditId come back as sent, also beside boundary auditLogMap values',
  ),
  recordCheck(
    'boundaries.relationship',
    'boundary-relationship-dates-and-details-come-back-as-sent-or-the-add-is-refused',
    'boundary relationship dates and details come back as sent, or the add is refused',
  ),
  {
    id: 'boundary-maxsearchresults-matchscorethreshold-pagenumber-and-pagesize-keep-their-rules',
    role: 'search.maxResults',
    title: 'boundary maxSearchResults, matchScoreThreshold, pageNumber and pageSize keep their rules',
    needs: {
      cites: ['search.threshold', 'notifications.paging'],
      setup: (s) => (s.roles ?? BOUNDARY_ROLES).includes('search.maxResults'),
    },
    body: (t, { s }) => requestNumbers(t, s.kit, idsOf(s)),
  },
];

/**
 * Registers the boundary checks of a service: those of the records (one shared run) and the one of
 * the request numbers.
 */
export const boundaryChecks = (s: BoundarySetup) => registerShared(s, BOUNDARY_CHECKS);

/** Every string and number of the profile: values the deployment gives (codes, verbs, the provider type). */
function profileValues(t: Check): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (v && typeof v === 'object') Object.values(v).forEach(walk);
    else if (typeof v === 'string' || typeof v === 'number') out.add(String(v));
  };
  walk(t.profile);
  return out;
}

/** The leaves of a request member of an operation's table, relative to that member. */
const memberLeaves = (t: Check, op: 'postIdentity' | 'addRelationshipService', member: string): ValueLeaf[] =>
  valueLeaves((operation(t.service, op).request as unknown as z.ZodObject).shape[member] as z.ZodType);

/** Every value the identity of a reply shows at a leaf path: its identity and each identityGroupedBySource entry. */
const shownAt = (content: any, path: LeafPath): unknown[] =>
  [
    content?.identity,
    ...(Array.isArray(content?.identityGroupedBySource) ? content.identityGroupedBySource : []),
  ].flatMap((x) => valuesAt(x, path).map((v) => v.value));

/** A placed value's path with the key a map member went under. */
const concrete = (p: Placed) => p.leaf.path.map((seg) => (seg === '{}' ? keyOf(p.boundary) : seg));
const describe = (p: Placed) =>
  `${p.boundary.name} at ${p.leaf.path.filter((s) => s !== '[]').join('.') || 'the native ID'}`;
const names = (placed: readonly Placed[]) => [...new Set(placed.map((p) => p.boundary.name))];
/** The values of a refused request, for the check's note: the first few names. */
const some = (placed: readonly Placed[]) => {
  const all = names(placed);
  return all.length > 4 ? `${all.slice(0, 4).join(', ')} and ${all.length - 4} more` : all.join(', ');
};

/** A record's boundary values: its identity's, its native ID, its lookup's envelope and its removal's. */
interface Probe {
  identity: Placed[];
  nativeId?: Boundary;
  lookup: Placed[];
  removal: Placed[];
}

/** The probes of a run of the records: as many as the longest plan judged (two at least for a relationship). */
function planProbes(t: Check, kit: Kit, judged: (role: BoundaryRole) => boolean): Probe[] {
  const { scope } = runInfo().budgets;
  const mark = t.faker.string.alpha({ length: 4 });
  const table = (type: ValueType) => boundaryTable(type, mark);
  const plan = (leaves: ValueLeaf[], of = table) => (leaves.length ? boundaryRequests(leaves, of, scope, t.faker) : []);
  const identity = judged('boundaries.stored')
    ? plan(chosenLeaves(memberLeaves(t, 'postIdentity', 'identity'), kit.make(t).identity, profileValues(t)))
    : [];
  const idLeaf: ValueLeaf = { path: [], type: 'TEXT', wire: false, schema: Text };
  const ids = judged('boundaries.nativeId')
    ? plan([idLeaf], () => nativeIdBoundaries(`${t.run.invalidNamespace}${mark}`))
    : [];
  const envelope = judged('envelope.echo') ? valueLeaves(RequestEnvelopeChosen) : [];
  const lookup = plan(envelope.filter((l) => !l.path.includes('{}')));
  const removal = plan(envelope.filter((l) => l.path.includes('{}')));
  const count = Math.max(
    identity.length,
    ids.length,
    lookup.length,
    removal.length,
    judged('boundaries.relationship') ? 2 : 1,
  );
  return Array.from({ length: count }, (_, k) => ({
    identity: identity[k] ?? [],
    ...(ids[k]?.[0] ? { nativeId: ids[k]![0]!.boundary } : {}),
    lookup: lookup[k] ?? [],
    removal: removal[k] ?? [],
  }));
}

/** What a run of the records observed, by clause. */
interface Observed {
  stored: Array<KeptObservation & { path: LeafPath }>;
  nativeId: string[];
  notFound: string[];
  echo: string[];
  relationship: KeptObservation[];
  refused: string[];
}

/** An accepted boundary record: its source, the values it holds, its lookup. */
interface Held {
  source: SourceRef;
  placed: Placed[];
  lookup?: Reply;
  linkId?: string;
  probe: Probe;
}

/** Envelope members of a request from placed values (the others the client's own). */
function envelopeOf(placed: readonly Placed[]): {
  auditId: string;
  trackingId: string;
  auditLogMap?: Record<string, string>;
} {
  const sent = withBoundaries({ auditId: `cf-audit-${Date.now()}`, trackingId: `cf-track-${Date.now()}` }, placed);
  return sent as { auditId: string; trackingId: string; auditLogMap?: Record<string, string> };
}

/**
 * Posts a boundary record, quarantined first; a refusal is legal. A refused record with a boundary
 * native ID is posted again with an ordinary one (its values still judged); with `splits` left, a
 * refused one is posted again as two halves of its values (by name), down to the value refused.
 */
async function postHeld(
  t: Check,
  kit: Kit,
  probe: Probe,
  placed: Placed[],
  source: SourceRef,
  o: Observed,
  splits: number,
): Promise<Held[]> {
  t.run.record({ kind: 'quarantine', service: t.service, source: src(source), at: new Date().toISOString() });
  const identity = withBoundaries(kit.make(t).identity, placed);
  const reply = await t.call('postIdentity', postContent(identity, source, t.profile.sourcePlacement));
  if (reply.success === true) return [{ source, placed, probe }];
  if (probe.nativeId && source.id === probe.nativeId.value) {
    const again = await postHeld(t, kit, { ...probe, nativeId: undefined }, placed, t.invalidSource(), o, splits);
    // The native ID was what the deployment refused when the same values with an ordinary one are accepted whole.
    if (again.length === 1 && again[0]!.placed.length === placed.length)
      o.refused.push(`native ID ${probe.nativeId.name}`);
    return again;
  }
  const all = names(placed);
  if (!splits || all.length < 2) {
    if (placed.length) o.refused.push(`a post with ${some(placed)}`);
    return [];
  }
  const half = new Set(all.slice(0, Math.ceil(all.length / 2)));
  const parts = [placed.filter((p) => half.has(p.boundary.name)), placed.filter((p) => !half.has(p.boundary.name))];
  return (
    await Promise.all(parts.map((part) => postHeld(t, kit, probe, part, t.invalidSource(), o, splits - 1)))
  ).flat();
}

/**
 * Reads a held record back with the probe's envelope values (read again with ordinary ones when
 * that read is refused), quarantines it by its link ID, and observes what it shows.
 */
async function readHeld(t: Check, h: Held, o: Observed): Promise<void> {
  const lookup = (envelope?: ReturnType<typeof envelopeOf>) =>
    t.call('nativeIdQuery', { source: src(h.source) }, envelope ? { envelope } : {});
  const resolved = (r: Reply) => r.success === true && !isAbsent(r);
  // The boundary envelope is sent once: a refusal of it is no lag to wait out (the consistency budget is for the
  // ordinary reads after it).
  const envelope = h.probe.lookup.length ? envelopeOf(h.probe.lookup) : undefined;
  let reply = envelope ? await lookup(envelope) : undefined;
  if (envelope && reply!.success === true) o.echo.push(...echoDiffers(envelope, reply!.body));
  else if (envelope)
    o.refused.push(`a lookup with trackingId and auditId ${some(h.probe.lookup)} (or it found nothing yet)`);
  if (!reply || !resolved(reply)) reply = await t.settle(`${h.source.id} resolves`, () => lookup(), resolved);
  const boundaryId = h.probe.nativeId && h.source.id === h.probe.nativeId.value;
  const found = reply.success === true && !isAbsent(reply);
  if (boundaryId) {
    const listed = groupedSources(reply.content)
      .filter((s) => s.name === h.source.name)
      .map((s) => String(s.id));
    o.nativeId.push(...nativeIdNotKept(`native ID ${h.probe.nativeId!.name}`, h.source.id, found, found ? listed : []));
  } else if (!found) o.notFound.push(...postedNotFound(h.source, false));
  if (!found) return;
  h.lookup = reply;
  h.linkId = typeof reply.content?.linkId === 'string' ? reply.content.linkId : undefined;
  if (h.linkId)
    t.run.record({
      kind: 'quarantine',
      service: t.service,
      source: src(h.source),
      linkId: h.linkId,
      at: new Date().toISOString(),
    });
  for (const p of h.placed)
    o.stored.push({
      what: describe(p),
      path: p.leaf.path,
      type: p.leaf.type,
      sent: p.boundary.value,
      shown: shownAt(reply.content, p.leaf.path),
      memberShown: false,
    });
}

/** Deletes a held record at once, with the probe's auditLogMap values (without them when that delete is refused). */
async function removeHeld(t: Check, h: Held, o: Observed): Promise<void> {
  const remove = (placed: readonly Placed[]) => {
    const envelope = envelopeOf(placed);
    return t.call('deleteSourceIdentity', { source: src(h.source) }, { envelope }).then((r) => ({ r, envelope }));
  };
  const first = await remove(h.probe.removal);
  if (first.r.success === true) o.echo.push(...echoDiffers(first.envelope, first.r.body));
  else if (h.probe.removal.length) {
    o.refused.push(`a hard delete with auditLogMap values ${some(h.probe.removal)}`);
    await remove([]);
  }
}

/**
 * Adds relationships between two held records with the relationship's boundary values, each
 * deleted at once; observes the members the reply echoes (a member left out is not judged).
 */
async function relationshipsOf(t: Check, kit: Kit, held: Held[], o: Observed): Promise<number> {
  // Two records to relate: ordinary ones, quarantined and removed with the others, where the deployment refused the
  // boundary ones.
  while (held.filter((h) => h.linkId).length < 2) {
    const [plain] = await postHeld(t, kit, { identity: [], lookup: [], removal: [] }, [], t.invalidSource(), o, 0);
    if (!plain) t.skip('an ordinary record to relate was refused, so no relationship could be added');
    held.push(plain);
    await readHeld(t, plain, o);
    if (!plain.linkId) t.skip('an ordinary record to relate was not found by nativeIdQuery');
  }
  const [a, b] = held.filter((h) => h.linkId);
  const mark = t.faker.string.alpha({ length: 4 });
  const base = relationshipContent(t, a.linkId!, b.linkId!, {
    endDate: '2030-12-31T00:00:00Z',
    details: { note: `${mark} boundary` },
  });
  const fixed = new Set([...profileValues(t), a.linkId!, b.linkId!]);
  const leaves = chosenLeaves(valueLeaves(operation(t.service, 'addRelationshipService').request), base, fixed);
  const requests = boundaryRequests(leaves, (type) => boundaryTable(type, mark), runInfo().budgets.scope, t.faker);
  for (const placed of requests) {
    const r = await t.call('addRelationshipService', withBoundaries(base, placed));
    if (r.success !== true) {
      o.refused.push(`a relationship with ${some(placed)}`);
      continue;
    }
    const id = r.content?.relationship?.id;
    if (typeof id === 'string' && id) await t.call('deleteRelationshipService', { id });
    for (const p of placed)
      o.relationship.push({
        what: describe(p),
        type: p.leaf.type,
        sent: p.boundary.value,
        shown: valuesAt(r.content, concrete(p)).map((v) => v.value),
        memberShown: false,
      });
  }
  return requests.reduce((n, placed) => n + placed.length, 0);
}

/**
 * Where a held record shows no value at all at a member, whether the deployment shows that member
 * for an ordinary identity: one more record, posted with the generator's values, read and deleted.
 */
async function membersShown(t: Check, kit: Kit, o: Observed): Promise<void> {
  const blank = o.stored.filter((x) => !x.shown.length);
  if (!blank.length) return;
  const [held] = await postHeld(t, kit, { identity: [], lookup: [], removal: [] }, [], t.invalidSource(), o, 0);
  if (!held) return;
  await readHeld(t, held, o).finally(() => removeHeld(t, held, o));
  for (const x of blank) x.memberShown = held.lookup ? shownAt(held.lookup.content, x.path).length > 0 : false;
}

/**
 * The shared run of the records: plans the probes, posts, reads, relates and deletes them (every
 * record deleted whatever is found), then judges the requirements in `judge`.
 */
async function probeRecords(t: Check, kit: Kit, ids: Ids, judge: readonly string[]): Promise<void> {
  const judged = (role: BoundaryRole) => ids[role] !== undefined && judge.includes(ids[role]!);
  const o: Observed = { stored: [], nativeId: [], notFound: [], echo: [], relationship: [], refused: [] };
  // A refused record is split in halves of its values, once by default (the half that holds no value the deployment
  // refuses is still judged), down to single values in the full scope.
  const splits = runInfo().budgets.scope === 'full' ? 4 : 1;
  const probes = planProbes(t, kit, judged);
  const held = (
    await Promise.all(
      probes.map((p) => {
        const source = p.nativeId ? { name: t.target.sources[0]!, id: String(p.nativeId.value) } : t.invalidSource();
        return postHeld(t, kit, p, p.identity, source, o, splits);
      }),
    )
  ).flat();
  let related = 0;
  try {
    await Promise.all(held.map((h) => readHeld(t, h, o)));
    if (judged('boundaries.relationship')) related = await relationshipsOf(t, kit, held, o);
  } finally {
    await Promise.all(held.map((h) => removeHeld(t, h, o)));
  }
  if (judged('boundaries.stored')) await membersShown(t, kit, o);
  const sent = probes.reduce(
    (n, p) => n + p.identity.length + p.lookup.length + p.removal.length + (p.nativeId ? 1 : 0),
    related,
  );
  t.note(
    `boundary values: ${sent} sent on ${probes.length} records` +
      (o.refused.length ? `; refused (legal): ${o.refused.join('; ')}` : ''),
  );
  const verdicts: Array<[BoundaryRole, Clause, string[]]> = [
    ['boundaries.stored', POSTED_NOT_FOUND, o.notFound],
    ['boundaries.stored', VALUE_NOT_KEPT, valueNotKept(o.stored)],
    ['boundaries.nativeId', NATIVE_ID_NOT_KEPT, o.nativeId],
    ['envelope.echo', ECHO_DIFFERS, o.echo],
    ['boundaries.relationship', VALUE_NOT_KEPT, valueNotKept(o.relationship)],
  ];
  t.judgeAll(
    verdicts
      .filter(([role]) => judged(role))
      .map(([role, clause, rejected]) => ({ clause, requirements: ids[role]!, rejected })),
  );
}
