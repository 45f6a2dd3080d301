/**
 * The whole-state oracle: after a step, what the step can have changed is read and judged by the oracle's clauses
 * (specs/state/oracle.ts) against the executable specification (specs/<service>/state-spec.ts), not only which sources
 * share a link ID. A walk reads everything at its start and at its end (a full observation); after each step in
 * between:
 * - nativeIdQuery of the records in its scope (lookupScope: the records it touched, those of their identities before
 *   and after it, and records of unknown state);
 * - identityIdQuery of the link IDs the step's records had before it at a merge or a removal (and, at a removal, every
 *   earlier link ID that named one of them), of identities the step deleted as a whole, and (but after a post) of the
 *   link IDs its records resolve to now;
 * - demographicsSearch with the data of the step's records that are out of matching (or of all of them at a removal);
 * - householdQuery (person) by source and by link ID of the record the step moved, then by the household IDs those show
 *   (when it moved an active record).
 * Requests of one observation go out together, in two rounds (the second needs the link IDs the first found). Reading
 * is here; judging is the clauses', each a pure function with its own tests.
 *
 * Source: organization-identity-api.md, "States and transitions", Endpoints (rule 3); person-provider-identity-api.md,
 * "States and transitions", Endpoints (/householdQuery).
 */
import { answerOf, isAbsent } from '../../../harness/reply.js';
import type { Finding } from '../../../specs/common/clause.js';
import { householdOf } from '../../../specs/state/households.js';
import type { IdentityModel, ModelRecord } from '../../../specs/state/identity-model.js';
import type { Observation, ObservePlan } from '../../../specs/state/observation.js';
import { judgeObservation } from '../../../specs/state/oracle.js';
import { type StateSpec, isLive } from '../../../specs/state/state-spec.js';
import type { WalkReal } from './walk-real.js';

export type { ObservePlan } from '../../../specs/state/observation.js';

const src = (r: ModelRecord) => ({ name: r.source.name, id: r.source.id });

/**
 * Link IDs asked for together with the lookups: those the step's records had before it, and every earlier link ID that
 * named one of them. What a link ID answers can change only when its records move: the others were judged at the steps
 * that moved them, and the lookups of every record still show whether an untouched identity kept its sources.
 */
function knownLinks(m: IdentityModel, touched: ReadonlySet<string>, gone: string[], removal: boolean): string[] {
  const before = [...touched].map((l) => m.lastLinkOf.get(l)).filter((l): l is string => Boolean(l));
  const earlier = removal
    ? [...m.linkHistory].filter(([, holders]) => [...holders].some((l) => touched.has(l))).map(([link]) => link)
    : [];
  return [...new Set([...before, ...earlier, ...gone])];
}

/**
 * The records whose nativeIdQuery a step's observation reads: every record at a full observation; otherwise what the
 * step can have changed, as the state table moved the model: the records it touched (named, moved, the other sources of
 * their identities, the sources merged into them), the records of their identities before the step (those that resolved
 * to the same link IDs) and after it (the same model identities now), and records of unknown state (they may be
 * anywhere). Every other record keeps what it resolved to at the last observation (nothing the seeds state moved it),
 * and the walk's full observation at its end reads it again.
 */
export function lookupScope(m: IdentityModel, plan: ObservePlan): ModelRecord[] {
  // The full observation reads what the last step's observation did not.
  if (plan.full) return m.records.filter((r) => !m.lastRead.records.has(r.label));
  const touched = plan.applied.touched;
  const before = new Set([...touched].map((l) => m.lastLinkOf.get(l)).filter((l): l is string => Boolean(l)));
  const groups = new Set(
    [...touched]
      .map((l) => m.get(l))
      .filter((r): r is ModelRecord => Boolean(r && isLive(r)))
      .map((r) => r.group),
  );
  return m.records.filter(
    (r) =>
      touched.has(r.label) ||
      r.state === 'unknown' ||
      before.has(m.lastLinkOf.get(r.label) ?? '') ||
      (isLive(r) && groups.has(r.group)) ||
      (r.state === 'retired' && touched.has(r.retiredInto ?? '')),
  );
}

/**
 * Reads everything the oracle judges. The first round (lookups, known link IDs, searches, households by source) needs
 * nothing the deployment has not shown yet; the second asks for link IDs and households the first round revealed.
 */
async function read(m: IdentityModel, w: WalkReal, spec: StateSpec, plan: ObservePlan): Promise<Observation> {
  const households = spec.queries.households;
  const gone = plan.applied.goneIdentities.map((g) => plan.before.get(g.group)).filter((l): l is string => Boolean(l));
  // A step that took a source out of every identity (hard delete; provider soft delete): every link ID its records ever
  // had may still answer with it. Otherwise what a link ID no longer in use answers is open, and only the link IDs the
  // step's records had before it are read (their echo, their data).
  const removal =
    gone.length > 0 || [...plan.applied.touched].some((l) => m.get(l)?.data.nowhere && !isLive(m.get(l)!));
  // A merge takes the retired source's identity out of use: what its link ID answers then (its echo) is read too.
  const merged = [...plan.applied.touched].some((l) => m.get(l)?.state === 'retired');
  const known = plan.full
    ? [...new Set([...m.linkHistory.keys(), ...gone])].filter((l) => !m.lastRead.links.has(l))
    : removal || merged
      ? knownLinks(m, plan.applied.touched, gone, removal)
      : [];
  const scope = lookupScope(m, plan);
  // Searches with the data of records the search clauses judge: out of matching (retired, soft-deleted, deactivated,
  // deleted), or any probe at a step that removed a source.
  const probes = plan.probes.filter((r) => r.state !== 'unknown' && (removal || r.state !== 'active'));
  const [lookups, early, searches] = await Promise.all([
    Promise.all(scope.map((r) => w.call('nativeIdQuery', { source: src(r) }))),
    Promise.all(known.map((linkId) => w.call('identityIdQuery', { linkId }))),
    Promise.all(probes.map((r) => w.call('demographicsSearch', { identity: r.identity }))),
  ]);
  const obs: Observation = {
    linkOf: new Map(),
    lookups: new Map(),
    identities: new Map(known.map((l, i) => [l, answerOf(early[i]!)])),
    searches: new Map(probes.map((r, i) => [r.label, answerOf(searches[i]!)])),
    householdsBySource: new Map(),
    householdsByLink: new Map(),
    householdsById: new Map(),
  };
  // Records outside the step's scope keep what they resolved to at the last observation.
  for (const r of m.records) obs.linkOf.set(r.label, m.lastLinkOf.get(r.label));
  scope.forEach((r, i) => {
    const reply = lookups[i]!;
    w.assertNoServerError(reply, 'nativeIdQuery');
    obs.lookups.set(r.label, answerOf(reply));
    obs.linkOf.set(r.label, isAbsent(reply) ? undefined : String(reply.content?.linkId));
  });
  for (const reply of [...early, ...searches]) w.assertNoServerError(reply, reply.exchange.operation);
  const touchedNow = (plan.full ? scope.map((r) => r.label) : [...plan.applied.touched]).map((l) => obs.linkOf.get(l));
  const fresh = plan.posted
    ? []
    : [...new Set(touchedNow.filter((l): l is string => Boolean(l) && !obs.identities.has(l!)))];
  // Households (person), every lookup form, of the record the step moved (its last role) when it moved it (a household
  // holds link IDs).
  const last = plan.probes.at(-1);
  const moved = last && m.lastLinkOf.get(last.label) !== obs.linkOf.get(last.label);
  const active = households && moved && last.state === 'active' ? [last] : [];
  const activeLinks = [...new Set(active.map((r) => obs.linkOf.get(r.label)).filter((l): l is string => Boolean(l)))];
  const [late, bySource, byLink] = await Promise.all([
    Promise.all(fresh.map((linkId) => w.call('identityIdQuery', { linkId }))),
    Promise.all(active.map((r) => w.call('householdQuery', { source: src(r) }))),
    Promise.all(activeLinks.map((linkId) => w.call('householdQuery', { linkId }))),
  ]);
  fresh.forEach((l, i) => obs.identities.set(l, answerOf(late[i]!)));
  active.forEach((r, i) => obs.householdsBySource.set(r.label, answerOf(bySource[i]!)));
  activeLinks.forEach((l, i) => obs.householdsByLink.set(l, answerOf(byLink[i]!)));
  for (const reply of [...late, ...bySource, ...byLink]) w.assertNoServerError(reply, reply.exchange.operation);
  if (households) {
    const ids = [
      ...new Set(
        [...obs.householdsBySource.values(), ...obs.householdsByLink.values()]
          .map(householdOf)
          .filter((h): h is string => Boolean(h)),
      ),
    ];
    const byId = await Promise.all(ids.map((householdId) => w.call('householdQuery', { householdId })));
    for (const reply of byId) w.assertNoServerError(reply, 'householdQuery');
    ids.forEach((h, i) => obs.householdsById.set(h, answerOf(byId[i]!)));
  }
  return obs;
}

/**
 * Observes the deployment once and judges it (specs/state/oracle.ts judgeObservation). Returns the findings and each
 * model identity's link ID.
 */
export async function judgeState(
  m: IdentityModel,
  w: WalkReal,
  spec: StateSpec,
  plan: ObservePlan,
): Promise<{ findings: Finding[]; links: Map<number, string>; linkOf: Map<string, string | undefined> }> {
  for (const g of plan.applied.goneIdentities) {
    const link = plan.before.get(g.group);
    if (link) m.goneLinks.set(link, g.cite);
  }
  const obs = await read(m, w, spec, plan);
  return judgeObservation(m, obs, spec, plan, w.t.profile.softDeletedLookup);
}
