/**
 * Observing the deployment's partition of the walk's records and comparing it with the model,
 * up to renaming of link IDs: every record is looked up by nativeIdQuery, every model identity
 * by identityIdQuery on the link ID its records resolve to (asked together with the lookups where
 * the model knew that link ID before the step: askEarly).
 *
 * Source: organization-identity-api.md, "States and transitions" and "What the service does"
 * (nativeIdQuery returns the identity that holds the source; identityIdQuery the identity with a
 * link ID). Tolerances: a soft-deleted source may still resolve when the profile says
 * softDeletedLookup=any; a retired source may resolve to its survivor's identity; records in
 * state `unknown` are not judged.
 */
import type { Reply } from '../../../harness/reply.js';
import { isAbsent } from '../../../harness/reply.js';
import { describeReply } from '../../../harness/check.js';
import { groupedSources } from '../steps.js';
import { type IdentityModel, type ModelRecord, isLive } from './identity-model.js';
import type { WalkReal } from './walk-real.js';

export interface Observation {
  /** Link ID each record's source resolves to now; undefined when nativeIdQuery finds nothing. */
  linkOf: Map<string, string | undefined>;
  replies: Map<string, Reply>;
}

const src = (r: ModelRecord) => ({ name: r.source.name, id: r.source.id });

/** nativeIdQuery for every record of the walk. */
export async function lookupAll(w: WalkReal, m: IdentityModel): Promise<Observation> {
  const replies = await Promise.all(m.records.map((r) => w.call('nativeIdQuery', { source: src(r) })));
  const obs: Observation = { linkOf: new Map(), replies: new Map() };
  m.records.forEach((r, i) => {
    const reply = replies[i]!;
    w.assertNoServerError(reply, 'nativeIdQuery');
    obs.replies.set(r.label, reply);
    obs.linkOf.set(r.label, isAbsent(reply) ? undefined : String(reply.content?.linkId));
  });
  return obs;
}

/**
 * Lets the named records follow what the deployment did (a step the seeds leave open, or a free
 * choice within an allowed step): each joins the model identity whose records resolve to the
 * same link ID, or a new one. A record not found becomes `unknown`, or a problem when
 * `mustBeLive` (the seeds keep it live); a soft-deleted record found where the profile says
 * soft-deleted sources may still be found (`softDeletedLookup` any) becomes `unknown` too.
 */
export function adopt(
  m: IdentityModel,
  obs: Observation,
  labels: string[],
  mustBeLive: boolean,
  softDeletedLookup: 'absent' | 'any' = 'absent',
): string[] {
  const problems: string[] = [];
  const floating = new Set(labels);
  const anchored = new Map<string, number>();
  for (const r of m.records) {
    const link = obs.linkOf.get(r.label);
    if (!floating.has(r.label) && isLive(r) && link) anchored.set(link, r.group);
  }
  // A link ID seen before keeps its model identity (so retired records still know where they went).
  const fresh = new Map<string, number>([...m.lastLinks].filter(([, l]) => !anchored.has(l)).map(([g, l]) => [l, g]));
  const retiredLast = [...labels].sort((a, b) => Number(m.get(a)!.state === 'retired') - Number(m.get(b)!.state === 'retired'));
  for (const label of retiredLast) {
    const r = m.get(label)!;
    const link = obs.linkOf.get(label);
    if (!link) {
      if (mustBeLive)
        problems.push(`${label} must still be active, but nativeIdQuery finds nothing: ${describeReply(obs.replies.get(label)!)}`);
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
    if (!isLive(r)) r.state = 'active';
    r.retiredInto = undefined;
    const group = anchored.get(link) ?? fresh.get(link) ?? m.newGroup();
    fresh.set(link, group);
    r.group = group;
  }
  return problems;
}

/** Link IDs a retired record may resolve to: its survivor's identity, now or at the merge. */
function retiredLinks(m: IdentityModel, r: ModelRecord, anchored: Map<string, number>): string[] {
  const survivor = m.get(r.retiredInto ?? '');
  const groups = [survivor && isLive(survivor) ? survivor.group : undefined, r.mergedGroup];
  return [...anchored].filter(([, g]) => groups.includes(g)).map(([l]) => l);
}

/**
 * Compares the observation with the model: live records resolve, one link ID per model
 * identity and a different one for each; soft-deleted, retired and deleted records as the seeds
 * allow. Returns the problems found and the link ID of every model identity.
 */
export function comparePartition(
  m: IdentityModel,
  obs: Observation,
  softDeletedLookup: 'absent' | 'any',
): { problems: string[]; links: Map<number, string> } {
  const problems: string[] = [];
  const links = new Map<number, string>();
  const owner = new Map<string, number>();
  for (const [group, members] of m.groups()) {
    const seen = new Set(members.map((r) => obs.linkOf.get(r.label)));
    for (const r of members)
      if (!obs.linkOf.get(r.label))
        problems.push(
          `${r.label} is ${r.state} in the model but nativeIdQuery finds no identity: ${describeReply(obs.replies.get(r.label)!)}`,
        );
    const found = [...seen].filter((l): l is string => Boolean(l));
    if (found.length > 1)
      problems.push(
        `${members.map((r) => r.label).join('+')} form one identity in the model but resolve to ${found.length} link IDs: ${members.map((r) => `${r.label}=${obs.linkOf.get(r.label)}`).join(', ')}`,
      );
    const link = found[0];
    if (!link) continue;
    links.set(group, link);
    const other = owner.get(link);
    if (other !== undefined)
      problems.push(
        `${m
          .members(other)
          .map((r) => r.label)
          .join('+')} and ${members.map((r) => r.label).join('+')} are separate identities in the model but share link ID ${link}`,
      );
    owner.set(link, group);
  }
  for (const r of m.records) {
    const link = obs.linkOf.get(r.label);
    if (r.state === 'deleted' && link) problems.push(`${r.label} was hard-deleted but nativeIdQuery still resolves it to ${link}`);
    if (r.state === 'soft-deleted' && link && softDeletedLookup === 'absent')
      problems.push(`${r.label} is soft-deleted but nativeIdQuery still resolves it to ${link}`);
    const survivor = m.get(r.retiredInto ?? '');
    // A record retired into one whose state is no longer known may resolve anywhere its survivor may.
    if (r.state === 'retired' && link && survivor?.state !== 'unknown') {
      // The retired source may resolve to its survivor's identity, now or as it was at the merge.
      const allowed = [
        survivor && isLive(survivor) ? links.get(survivor.group) : undefined,
        r.mergedGroup === undefined ? undefined : links.get(r.mergedGroup),
      ].filter(Boolean);
      if (!allowed.includes(link))
        problems.push(
          `${r.label} is retired into ${r.retiredInto} but resolves to ${link}, not to the survivor's identity (${allowed.join(' or ') || 'none live'})`,
        );
    }
  }
  return { problems, links };
}

/**
 * identityIdQuery of every model identity: it returns that link ID, and when its
 * identityGroupedBySource names walk records, it names every live member and no record that is
 * live elsewhere or deleted. Replies in `early` (asked for before the link IDs were known, see
 * askEarly) are used for their link IDs; the other link IDs are asked for now.
 */
export async function checkIdentities(
  w: WalkReal,
  m: IdentityModel,
  links: Map<number, string>,
  early: Map<string, Reply> = new Map(),
): Promise<string[]> {
  const problems: string[] = [];
  const entries = [...links.entries()];
  const replies = await Promise.all(entries.map(([, linkId]) => early.get(linkId) ?? w.call('identityIdQuery', { linkId })));
  entries.forEach(([group, linkId], i) => {
    const reply = replies[i]!;
    w.assertNoServerError(reply, 'identityIdQuery');
    const members = m.members(group);
    const names = members.map((r) => r.label).join('+');
    if (isAbsent(reply)) {
      problems.push(`identityIdQuery(${linkId}) of ${names} finds nothing: ${describeReply(reply)}`);
      return;
    }
    if (reply.content?.linkId !== linkId) problems.push(`identityIdQuery(${linkId}) of ${names} returned linkId ${reply.content?.linkId}`);
    const listed = groupedSources(reply.content)
      .map((s) => m.records.find((r) => r.source.name === s.name && r.source.id === s.id))
      .filter((r): r is ModelRecord => Boolean(r));
    if (!listed.length) return;
    for (const r of members)
      if (!listed.includes(r))
        problems.push(
          `identityIdQuery(${linkId}) lists ${listed.map((x) => x.label).join(',')} but not ${r.label}, which is in that identity`,
        );
    for (const r of listed) {
      if (r.state === 'deleted') problems.push(`identityIdQuery(${linkId}) still lists hard-deleted ${r.label}`);
      else if (isLive(r) && r.group !== group) problems.push(`identityIdQuery(${linkId}) lists ${r.label}, which is in another identity`);
    }
  });
  return problems;
}

/**
 * identityIdQuery of the link IDs the model knew before a step, sent together with that step's
 * lookups: most steps keep most link IDs, so checkIdentities finds their replies here and asks
 * only for the new ones, one round trip fewer per step against a distant deployment. A reply for
 * a link ID the step retired is not judged (checkIdentities never asks for it).
 */
export async function askEarly(w: WalkReal, m: IdentityModel): Promise<Map<string, Reply>> {
  const known = [...new Set(m.lastLinks.values())];
  const replies = await Promise.all(known.map((linkId) => w.call('identityIdQuery', { linkId })));
  return new Map(known.map((linkId, i) => [linkId, replies[i]!]));
}
