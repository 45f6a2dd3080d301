/**
 * The whole-state oracle: after a step, every observable part of the model's records is read and
 * judged against the executable specification (specs/<service>/state-spec.ts), not only which
 * sources share a link ID:
 * - nativeIdQuery of every record: live records in their identity, one link ID per identity;
 *   soft-deleted, retired and deleted records as the seeds allow; records of unknown state not judged;
 * - identityIdQuery of every link ID seen so far: a current one returns itself and lists its sources;
 *   one no longer current answers nothing or an identity of the model; every answer echoes the
 *   requested link ID (where the service states it);
 * - each identity's data: no values of a deleted source (nor of a soft-deleted provider source),
 *   none of an unmerged source in the identity it left, the survivor's identity showing a merged
 *   provider source's values, and the values a restore, unmerge or link brings in;
 * - demographicsSearch with the data of the records the step named: no link ID that names no
 *   identity any more, no identity made only of deactivated records;
 * - householdQuery (person) by link ID, by source and by household ID, agreeing with one another.
 * Requests of one observation go out together, in two rounds (the second needs the link IDs the
 * first found).
 *
 * Source: organization-identity-api.md, "States and transitions", Endpoints (rule 3);
 * person-provider-identity-api.md, "States and transitions", Endpoints (/householdQuery).
 */
import { describeReply } from '../../../harness/check.js';
import type { Reply } from '../../../harness/reply.js';
import { isAbsent } from '../../../harness/reply.js';
import { type Applied, type Follower, forgetAbsence } from '../../../specs/common/state-engine.js';
import type { StateSpec } from '../../../specs/common/state-spec.js';
import { groupedSources, identityValues, resultLinkIds, sameSource } from '../steps.js';
import { type IdentityModel, type ModelRecord, isLive } from './identity-model.js';
import type { WalkReal } from './walk-real.js';

/** One thing the deployment shows that the specification does not allow, and the requirement it breaks. */
export interface Problem {
  requirement: string;
  text: string;
}

export interface ObservePlan {
  applied: Applied;
  /** What a partition that differs from the model breaks: the step's effect (or, after a rejection, "a rejected request changes nothing"). */
  stepRequirement: string;
  /** Records whose data a search is made with (the records the step named). */
  probes: ModelRecord[];
  /** Link IDs of the model's identities before the step. */
  before: Map<number, string>;
}

interface Observation {
  linkOf: Map<string, string | undefined>;
  lookups: Map<string, Reply>;
  identities: Map<string, Reply>;
  searches: Map<string, Reply>;
  householdsBySource: Map<string, Reply>;
  householdsByLink: Map<string, Reply>;
  householdsById: Map<string, Reply>;
}

const src = (r: ModelRecord) => ({ name: r.source.name, id: r.source.id });
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const labels = (rs: ModelRecord[]) => rs.map((r) => r.label).join('+');

/**
 * Link IDs asked for together with the lookups: those the step's records had before it, and every
 * earlier link ID that named one of them. What a link ID answers can change only when its records
 * move: the others were judged at the steps that moved them, and the lookups of every record still
 * show whether an untouched identity kept its sources.
 */
function knownLinks(m: IdentityModel, touched: ReadonlySet<string>): string[] {
  const before = [...touched].map((l) => m.lastLinkOf.get(l)).filter((l): l is string => Boolean(l));
  const earlier = [...m.linkHistory].filter(([, holders]) => [...holders].some((l) => touched.has(l))).map(([link]) => link);
  return [...new Set([...before, ...earlier])];
}

/**
 * Reads everything the oracle judges. The first round (lookups, known link IDs, searches,
 * households by source) needs nothing the deployment has not shown yet; the second asks for link
 * IDs and households the first round revealed.
 */
async function read(m: IdentityModel, w: WalkReal, spec: StateSpec, plan: ObservePlan): Promise<Observation> {
  const households = spec.queries.households;
  // Households of the records the step named (its probes): every lookup form of each.
  const active = households ? plan.probes.filter((r) => r.state === 'active') : [];
  const known = knownLinks(m, plan.applied.touched);
  const probes = plan.probes.filter((r) => r.state !== 'unknown');
  const [lookups, early, searches, bySource] = await Promise.all([
    Promise.all(m.records.map((r) => w.call('nativeIdQuery', { source: src(r) }))),
    Promise.all(known.map((linkId) => w.call('identityIdQuery', { linkId }))),
    Promise.all(probes.map((r) => w.call('demographicsSearch', { identity: r.identity }))),
    households ? Promise.all(active.map((r) => w.call('householdQuery', { source: src(r) }))) : Promise.resolve([] as Reply[]),
  ]);
  const obs: Observation = {
    linkOf: new Map(),
    lookups: new Map(),
    identities: new Map(known.map((l, i) => [l, early[i]!])),
    searches: new Map(probes.map((r, i) => [r.label, searches[i]!])),
    householdsBySource: new Map(active.map((r, i) => [r.label, bySource[i]!])),
    householdsByLink: new Map(),
    householdsById: new Map(),
  };
  m.records.forEach((r, i) => {
    const reply = lookups[i]!;
    w.assertNoServerError(reply, 'nativeIdQuery');
    obs.lookups.set(r.label, reply);
    obs.linkOf.set(r.label, isAbsent(reply) ? undefined : String(reply.content?.linkId));
  });
  for (const reply of [...early, ...searches, ...bySource]) w.assertNoServerError(reply, reply.exchange.operation);
  const touchedNow = [...plan.applied.touched].map((l) => obs.linkOf.get(l));
  const fresh = [...new Set(touchedNow.filter((l): l is string => Boolean(l) && !obs.identities.has(l!)))];
  const activeLinks = households ? [...new Set(active.map((r) => obs.linkOf.get(r.label)).filter((l): l is string => Boolean(l)))] : [];
  const [late, byLink] = await Promise.all([
    Promise.all(fresh.map((linkId) => w.call('identityIdQuery', { linkId }))),
    Promise.all(activeLinks.map((linkId) => w.call('householdQuery', { linkId }))),
  ]);
  fresh.forEach((l, i) => obs.identities.set(l, late[i]!));
  activeLinks.forEach((l, i) => obs.householdsByLink.set(l, byLink[i]!));
  for (const reply of [...late, ...byLink]) w.assertNoServerError(reply, reply.exchange.operation);
  if (households) {
    const ids = [
      ...new Set(
        [...obs.householdsBySource.values(), ...obs.householdsByLink.values()].map(householdOf).filter((h): h is string => Boolean(h)),
      ),
    ];
    const byId = await Promise.all(ids.map((householdId) => w.call('householdQuery', { householdId })));
    for (const reply of byId) w.assertNoServerError(reply, 'householdQuery');
    ids.forEach((h, i) => obs.householdsById.set(h, byId[i]!));
  }
  return obs;
}

/** Link IDs that records of unknown state, or retired ones, resolve to: they name an identity the model does not place. */
const undecidedLinks = (m: IdentityModel, obs: Observation) =>
  new Set(
    m.records
      .filter((r) => r.state === 'unknown' || r.state === 'retired')
      .map((r) => obs.linkOf.get(r.label))
      .filter(Boolean),
  );

/** The household a householdQuery reply names, or undefined when it names none (a rejection, or no householdId). */
const householdOf = (r: Reply): string | undefined =>
  r.success === true && typeof r.content?.householdId === 'string' ? r.content.householdId : undefined;

/**
 * Lets records follow what the deployment did (a step the seeds leave open, or a free choice within
 * an allowed step): each joins the model identity whose records resolve to the same link ID, or a
 * new one. A record not found becomes `unknown`, or a problem when it must stay live; a
 * soft-deleted record found where the profile says soft-deleted sources may still be found becomes
 * `unknown` too.
 */
function adopt(
  m: IdentityModel,
  obs: Observation,
  followers: Follower[],
  softDeletedLookup: 'absent' | 'any',
  requirement: string,
): Problem[] {
  const problems: Problem[] = [];
  const floating = new Set(followers.map((f) => f.label));
  const anchored = new Map<string, number>();
  for (const r of m.records) {
    const link = obs.linkOf.get(r.label);
    if (!floating.has(r.label) && isLive(r) && link) anchored.set(link, r.group);
  }
  // A link ID seen before keeps its model identity (so retired records still know where they went).
  const fresh = new Map<string, number>([...m.lastLinks].filter(([, l]) => !anchored.has(l)).map(([g, l]) => [l, g]));
  const retiredLast = [...followers].sort(
    (a, b) => Number(m.get(a.label)!.state === 'retired') - Number(m.get(b.label)!.state === 'retired'),
  );
  for (const f of retiredLast) {
    const r = m.get(f.label)!;
    const link = obs.linkOf.get(f.label);
    if (!link) {
      if (f.mustBeLive)
        problems.push({
          requirement,
          text: `${r.label} must still be active, but nativeIdQuery finds nothing: ${describeReply(obs.lookups.get(r.label)!)}`,
        });
      else r.state = 'unknown';
      continue;
    }
    if (r.state === 'retired' && retiredLinks(m, r, new Map([...fresh, ...anchored])).includes(link)) continue; // still retired, seen through its survivor
    if (r.state === 'unknown' && anchored.has(link)) continue; // seen through another record's identity: merged into it or a member of it, not shown which
    // Where a soft-deleted source may still be found (profile softDeletedLookup=any), being found
    // does not show that an open step made it active again.
    if (r.state === 'soft-deleted' && softDeletedLookup === 'any') {
      r.state = 'unknown';
      continue;
    }
    if (!isLive(r)) {
      // Back from a state the seeds say nothing more about (an open step brought it back): its data shows again.
      r.state = 'active';
      r.data = { absentFrom: r.data.absentFrom };
    }
    r.retiredInto = undefined;
    const group = anchored.get(link) ?? fresh.get(link) ?? m.newGroup();
    fresh.set(link, group);
    r.group = group;
    forgetAbsence(r);
  }
  return problems;
}

/** Link IDs a retired record may resolve to: its survivor's identity, now or at the merge. */
function retiredLinks(m: IdentityModel, r: ModelRecord, linkToGroup: Map<string, number>): string[] {
  const survivor = m.get(r.retiredInto ?? '');
  const groups = [survivor && isLive(survivor) ? survivor.group : undefined, r.mergedGroup];
  return [...linkToGroup].filter(([, g]) => groups.includes(g)).map(([l]) => l);
}

/**
 * The partition: live records resolve, one link ID per model identity and a different one for
 * each; soft-deleted and deleted records do not resolve (a soft-deleted one may where the profile
 * says so); a retired record resolves to its survivor's identity (now or at the merge) or to
 * nothing, and anywhere once its survivor is no longer live (what becomes of it then is open).
 */
function partition(
  m: IdentityModel,
  obs: Observation,
  softDeletedLookup: 'absent' | 'any',
  requirement: string,
  cites: Map<string, string>,
): { problems: Problem[]; links: Map<number, string> } {
  const problems: Problem[] = [];
  const links = new Map<number, string>();
  const owner = new Map<string, number>();
  // A record the step moved breaks the requirement of the effect that moved it; any other deviation, the step's.
  const say = (text: string, ...about: ModelRecord[]) =>
    problems.push({ requirement: about.map((r) => cites.get(r.label)).find(Boolean) ?? requirement, text });
  for (const [group, members] of m.groups()) {
    for (const r of members)
      if (!obs.linkOf.get(r.label))
        say(`${r.label} is ${r.state} in the model but nativeIdQuery finds no identity: ${describeReply(obs.lookups.get(r.label)!)}`, r);
    const found = [...new Set(members.map((r) => obs.linkOf.get(r.label)))].filter((l): l is string => Boolean(l));
    if (found.length > 1)
      say(
        `${labels(members)} form one identity in the model but resolve to ${found.length} link IDs: ${members.map((r) => `${r.label}=${obs.linkOf.get(r.label)}`).join(', ')}`,
        ...members,
      );
    const link = found[0];
    if (!link) continue;
    links.set(group, link);
    const other = owner.get(link);
    if (other !== undefined)
      say(`${labels(m.members(other))} and ${labels(members)} are separate identities in the model but share link ID ${link}`);
    owner.set(link, group);
  }
  for (const r of m.records) {
    const link = obs.linkOf.get(r.label);
    if (!link) continue;
    if (r.state === 'deleted') say(`${r.label} was hard-deleted but nativeIdQuery still resolves it to ${link}`, r);
    if (r.state === 'soft-deleted' && softDeletedLookup === 'absent')
      say(`${r.label} is soft-deleted but nativeIdQuery still resolves it to ${link}`, r);
    const survivor = m.get(r.retiredInto ?? '');
    if (r.state === 'retired' && survivor && isLive(survivor)) {
      // The survivor's identity now and at the merge are often the same link ID: named once.
      const allowed = [
        ...new Set([links.get(survivor.group), r.mergedGroup === undefined ? undefined : links.get(r.mergedGroup)].filter(Boolean)),
      ];
      if (!allowed.includes(link))
        say(
          `${r.label} is retired into ${r.retiredInto} but resolves to ${link}, not to the survivor's identity (${allowed.join(' or ') || 'none found'})`,
          r,
        );
    }
  }
  return { problems, links };
}

/**
 * identityIdQuery of every link ID seen so far. A current one returns itself, lists (where it lists
 * sources) every live member and no record that is live elsewhere or deleted. One no longer current
 * answers nothing or an identity of the model (the link ID itself, or a current one): what a link ID
 * of a merged-away or relinked identity answers is open; one whose sources are all deleted, with
 * nothing merged into them, answers nothing. Every answer echoes the requested link ID.
 */
function identities(m: IdentityModel, obs: Observation, spec: StateSpec, links: Map<number, string>, requirement: string): Problem[] {
  const problems: Problem[] = [];
  const q = spec.queries;
  const current = new Map([...links].map(([g, l]) => [l, g]));
  // A record of unknown state (or a retired one) may resolve to a link ID no model identity holds: it still names an identity.
  const resolved = undecidedLinks(m, obs);
  const undecided = m.records.some((r) => r.state === 'unknown');
  for (const [linkId, reply] of obs.identities) {
    const group = current.get(linkId);
    if (reply.success === true && q.idQueryEcho && reply.content?.requestedLinkId !== linkId && !isAbsent(reply))
      problems.push({
        requirement: q.idQueryEcho.requirement,
        text: `identityIdQuery(${linkId}) answered requestedLinkId ${JSON.stringify(reply.content?.requestedLinkId)}, not the requested ${linkId}`,
      });
    if (group === undefined) {
      if (isAbsent(reply)) continue;
      const answered = String(reply.content?.linkId);
      if (answered !== linkId && !current.has(answered) && !resolved.has(answered))
        problems.push({
          requirement: q.idQueryReturns,
          text: `identityIdQuery(${linkId}), a link ID no longer in use, answered identity ${answered}, which holds none of the model's records`,
        });
      const holders = [...(m.linkHistory.get(linkId) ?? [])].map((l) => m.get(l)!);
      const gone =
        holders.length > 0 &&
        holders.every((h) => h.state === 'deleted') &&
        !undecided &&
        !m.records.some((x) => x.state === 'retired' && holders.some((h) => h.label === x.retiredInto));
      if (gone)
        problems.push({
          requirement: q.deletedIdentityGone ?? holders[0]!.since ?? requirement,
          text: `identityIdQuery(${linkId}) still answers, though every source of that identity (${labels(holders)}) was hard-deleted`,
        });
      continue;
    }
    const members = m.members(group);
    if (isAbsent(reply)) {
      problems.push({
        requirement: q.idQueryReturns,
        text: `identityIdQuery(${linkId}) of ${labels(members)} finds nothing: ${describeReply(reply)}`,
      });
      continue;
    }
    if (reply.content?.linkId !== linkId)
      problems.push({
        requirement: q.idQueryReturns,
        text: `identityIdQuery(${linkId}) of ${labels(members)} returned linkId ${reply.content?.linkId}`,
      });
    const listed = groupedSources(reply.content)
      .map((s) => m.records.find((r) => sameSource(r.source, s)))
      .filter((r): r is ModelRecord => Boolean(r));
    if (!listed.length) continue;
    for (const r of members)
      if (!listed.includes(r))
        problems.push({
          requirement,
          text: `identityIdQuery(${linkId}) lists ${labels(listed)} but not ${r.label}, which is in that identity`,
        });
    for (const r of listed) {
      if (r.data.nowhere)
        problems.push({ requirement: r.data.nowhere, text: `identityIdQuery(${linkId}) still lists ${r.state} ${r.label}` });
      else if (isLive(r) && r.group !== group)
        problems.push({ requirement, text: `identityIdQuery(${linkId}) lists ${r.label}, which is in another identity` });
    }
  }
  return problems;
}

/** Values of `values` a reply shows (its identity and each identityGroupedBySource entry). */
const shownOf = (reply: Reply | undefined, values: string[]) => {
  if (reply?.success !== true) return [];
  const shown = identityValues(reply.content);
  return values.filter((v) => shown.has(v));
};

/**
 * Each identity's data, as far as the seeds state it: a record's values (those no other record of
 * the model has) leave every identity once the record is deleted (and, provider, soft-deleted),
 * leave the identity an unmerge took it from, show with the survivor a provider merge joined it
 * to, and show in its identity right after a restore, unmerge or link (all of them where it stands
 * alone; where its identity groups by source and lists it, some of them; a consolidated view of
 * several sources is not judged: which values it shows is not stated).
 */
function data(m: IdentityModel, obs: Observation, links: Map<number, string>, applied: Applied): Problem[] {
  const problems: Problem[] = [];
  const replyOf = (group: number) => {
    const l = links.get(group);
    return l ? obs.identities.get(l) : undefined;
  };
  for (const r of m.records) {
    const own = m.ownValues(r);
    if (!own.length) continue;
    if (r.data.nowhere)
      for (const [group, l] of links) {
        const shown = shownOf(replyOf(group), own);
        if (shown.length)
          problems.push({
            requirement: r.data.nowhere,
            text: `identity ${l} still shows data of ${r.state} ${r.label}: ${shown.slice(0, 3).join(', ')}`,
          });
      }
    for (const a of r.data.absentFrom ?? []) {
      if ((isLive(r) && r.group === a.group) || (r.state === 'retired' && r.mergedGroup === a.group)) continue;
      const shown = shownOf(replyOf(a.group), own);
      if (shown.length)
        problems.push({
          requirement: a.requirement,
          text: `identity ${links.get(a.group)} still shows data of ${r.label}, which was unmerged from it: ${shown.slice(0, 3).join(', ')}`,
        });
    }
    const survivor = m.get(r.retiredInto ?? '');
    // The survivor's identity at the merge holds the combined data; once the survivor moved on (restored into a new entity), it is not stated.
    if (
      r.state === 'retired' &&
      r.data.withSurvivor &&
      survivor &&
      isLive(survivor) &&
      survivor.group === r.mergedGroup &&
      replyOf(survivor.group)
    ) {
      if (!shownOf(replyOf(survivor.group), own).length)
        problems.push({
          requirement: r.data.withSurvivor,
          text: `the survivor's identity ${links.get(survivor.group)} shows none of the data of ${r.label}, merged into it (${own.slice(0, 3).join(', ')})`,
        });
    }
  }
  for (const s of applied.shownNow) {
    const r = m.get(s.label)!;
    const own = m.ownValues(r);
    const reply = isLive(r) && own.length ? replyOf(r.group) : undefined;
    if (!reply) continue;
    const shown = shownOf(reply, own);
    const alone = m.members(r.group).length === 1;
    if (s.how === 'all' && alone) {
      const missing = own.filter((v) => !shown.includes(v));
      if (missing.length)
        problems.push({
          requirement: s.requirement,
          text: `identity ${links.get(r.group)} of ${r.label} alone does not show its data: ${missing.slice(0, 3).join(', ')}`,
        });
    } else if (groupedSources(reply?.content).some((g) => sameSource(g, r.source)) && !shown.length)
      problems.push({
        requirement: s.requirement,
        text: `identity ${links.get(r.group)} lists ${r.label} among its sources but shows none of its data`,
      });
  }
  return problems;
}

/**
 * Searches with the data of the step's records return no link ID of the model that names no
 * identity any more, and no identity whose records are all deactivated (excluded from matching).
 */
function searches(m: IdentityModel, obs: Observation, spec: StateSpec, links: Map<number, string>, requirement: string): Problem[] {
  const problems: Problem[] = [];
  const current = new Map([...links].map(([g, l]) => [l, g]));
  const resolved = undecidedLinks(m, obs);
  for (const [label, reply] of obs.searches) {
    if (reply.success !== true) continue;
    for (const l of resultLinkIds(reply)) {
      const group = current.get(l);
      if (group === undefined) {
        if (m.linkHistory.has(l) && !resolved.has(l))
          problems.push({ requirement, text: `a search with ${label}'s data returns ${l}, which names no identity any more` });
        continue;
      }
      const members = m.members(group);
      const excluded = spec.queries.excludedFromMatching;
      if (excluded && members.length && members.every((r) => r.state === 'deactivated'))
        problems.push({
          requirement: excluded,
          text: `a search with ${label}'s data returns ${l}, whose records (${labels(members)}) are all deactivated`,
        });
    }
  }
  return problems;
}

/**
 * householdQuery by source, by link ID and by household ID agree for the step's active records
 * (householdForms). Households forming at all is not stated.
 */
function households(obs: Observation, spec: StateSpec): Problem[] {
  const h = spec.queries.households;
  if (!h) return [];
  return [...obs.householdsBySource].flatMap(([label, bySource]) => {
    const link = obs.linkOf.get(label);
    const byLink = link ? obs.householdsByLink.get(link) : undefined;
    return link && byLink ? householdForms(h, label, link, bySource, byLink, (id) => obs.householdsById.get(id)) : [];
  });
}

/**
 * The three lookup forms of householdQuery for one record, against one another: by link ID the
 * household holding that link ID, by source the household of the record's identity, by household
 * ID that household with the same link IDs. A household one form finds and another does not
 * breaks the form that missed it. `byId` gives the reply for a household ID (undefined: not asked).
 * Source: person-provider-identity-api.md, Endpoints (/householdQuery: "looked up by link ID, by
 * source plus native ID, or by household ID").
 */
export function householdForms(
  h: NonNullable<StateSpec['queries']['households']>,
  label: string,
  link: string,
  bySource: Reply,
  byLink: Reply,
  byId: (householdId: string) => Reply | undefined,
): Problem[] {
  const problems: Problem[] = [];
  const say = (requirement: string, text: string) => problems.push({ requirement, text });
  const [hs, hl] = [householdOf(bySource), householdOf(byLink)];
  if (hl && !list(byLink.content?.linkIdsInHousehold).includes(link))
    say(h.byLinkId, `householdQuery by link ID ${link} answered household ${hl} without that link ID`);
  if (hs && !list(bySource.content?.linkIdsInHousehold).includes(link))
    say(h.bySource, `householdQuery by ${label}'s source answered household ${hs} without its link ID ${link}`);
  if (hs && !hl)
    say(
      h.byLinkId,
      `householdQuery by link ID ${link} finds no household (${describeReply(byLink)}), but by ${label}'s source it finds ${hs}`,
    );
  if (hl && !hs)
    say(
      h.bySource,
      `householdQuery by ${label}'s source finds no household (${describeReply(bySource)}), but by its link ID ${link} it finds ${hl}`,
    );
  if (hs && hl && hs !== hl) say(h.bySource, `householdQuery by ${label}'s source finds ${hs}, by its link ID ${link} ${hl}`);
  const found = hl ?? hs;
  if (!found) return problems;
  const reply = byId(found);
  if (!reply || householdOf(reply) !== found) {
    say(h.byId, `householdQuery by household ID ${found} does not return that household: ${reply ? describeReply(reply) : 'not asked'}`);
    return problems;
  }
  const other = hl ? byLink : bySource;
  const [a, b] = [list(reply.content?.linkIdsInHousehold).sort(), list(other.content?.linkIdsInHousehold).sort()];
  if (JSON.stringify(a) !== JSON.stringify(b))
    say(
      h.byId,
      `householdQuery by household ID ${found} lists ${JSON.stringify(a)}, by ${hl ? `link ID ${link}` : `${label}'s source`} ${JSON.stringify(b)}`,
    );
  return problems;
}

/** Link IDs the step pins: the one a record had before (person reactivate), or one never seen before (person unlink, unmerge). */
function linkIds(m: IdentityModel, links: Map<number, string>, plan: ObservePlan): Problem[] {
  const problems: Problem[] = [];
  for (const s of plan.applied.sameLink) {
    const r = m.get(s.label)!;
    const [was, now] = [plan.before.get(s.group), links.get(r.group)];
    if (was && now && now !== was)
      problems.push({ requirement: s.requirement, text: `${r.label} was in identity ${was} but is now in ${now}` });
  }
  for (const s of plan.applied.freshLink) {
    const r = m.get(s.label)!;
    const now = links.get(r.group);
    if (now && m.linkHistory.has(now))
      problems.push({ requirement: s.requirement, text: `${r.label} is in identity ${now}, a link ID seen before, not a new one` });
  }
  return problems;
}

/**
 * Observes the deployment once and judges it: the followers take the identities the deployment gave
 * them, then every part above. Returns the problems and each model identity's link ID.
 */
export async function judgeState(
  m: IdentityModel,
  w: WalkReal,
  spec: StateSpec,
  plan: ObservePlan,
): Promise<{ problems: Problem[]; links: Map<number, string>; linkOf: Map<string, string | undefined> }> {
  const softDeleted = w.t.profile.softDeletedLookup;
  const obs = await read(m, w, spec, plan);
  recordValues(m, obs.lookups);
  const problems = adopt(m, obs, plan.applied.follow, softDeleted, plan.stepRequirement);
  const { problems: split, links } = partition(m, obs, softDeleted, plan.stepRequirement, plan.applied.cites);
  problems.push(
    ...split,
    ...identities(m, obs, spec, links, plan.stepRequirement),
    ...data(m, obs, links, plan.applied),
    ...searches(m, obs, spec, links, plan.stepRequirement),
    ...households(obs, spec),
    ...linkIds(m, links, plan),
  );
  return { problems, links, linkOf: obs.linkOf };
}

/** Records the values the deployment showed for records that stand alone and have none recorded yet (what their data looks like). */
function recordValues(m: IdentityModel, obsLookups: Map<string, Reply>): void {
  for (const r of m.records) {
    if (r.values || r.state !== 'active' || m.members(r.group).length !== 1) continue;
    const reply = obsLookups.get(r.label);
    if (reply?.success === true) r.values = [...identityValues(reply.content)];
  }
}
