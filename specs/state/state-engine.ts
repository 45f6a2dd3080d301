/**
 * Moving the model through one step as the executable specification says (specs/state/state-spec.ts): the records an
 * effect concerns, their new state and identity, the data marks they keep, and what the observation right after the
 * step must judge. Pure: no request is sent here.
 */
import type { Cite } from '../common/clause.js';
import {
  type Effect,
  type ReplyContext,
  type RowSpec,
  type SpecRecord,
  type StateModel,
  type Who,
  isLive,
} from './state-spec.js';

/** A record whose identity an observation decides (adopted from what the deployment shows). */
export interface Follower {
  label: string;
  /** It must be found live (the seeds keep it live); otherwise a record not found becomes unknown. */
  mustBeLive: boolean;
}

/** What the observation after a step must judge besides the model's partition. */
export interface Applied {
  follow: Follower[];
  /** Records the step named, moved or changed: a deviation of these breaks the row's effect requirement. */
  touched: Set<string>;
  /** The effect that moved each touched record (a deviation of that record breaks its requirement). */
  cites: Map<string, Cite>;
  /** Records whose identity must show their values right after the step. */
  shownNow: Array<{ label: string; how: 'all' | 'some'; cite: Cite }>;
  /** Records whose link ID must be the one their identity had before the step (person reactivate). */
  sameLink: Array<{ label: string; group: number; cite: Cite }>;
  /**
   * Records whose identity must carry a link ID not seen before in the model's life (person: "a new link ID of its
   * own").
   */
  freshLink: Array<{ label: string; cite: Cite }>;
  /**
   * Identities the step deleted as a whole (person: the hard delete of an identity's only source record): the model
   * identity, as it stood before the step, and what a reply presenting it breaks.
   */
  goneIdentities: Array<{ group: number; cite: Cite }>;
}

/**
 * A record that is one of an identity's sources again (linked or merged back into it) is no longer held out of that
 * identity's data: an unmerge's promise ends when the record returns.
 */
export function forgetAbsence(r: SpecRecord): void {
  if (!r.data.absentFrom) return;
  const back = r.state === 'retired' ? r.mergedGroup : isLive(r) ? r.group : undefined;
  r.data = { ...r.data, absentFrom: r.data.absentFrom.filter((a) => a.group !== back) };
}

/** Nothing applied yet: the named records are touched. */
export function emptyApplied(labels: string[]): Applied {
  return {
    follow: [],
    touched: new Set(labels),
    cites: new Map(),
    shownNow: [],
    sameLink: [],
    freshLink: [],
    goneIdentities: [],
  };
}

/** The records an effect concerns, as the model stood before the step. */
function select(m: StateModel, recs: SpecRecord[], row: RowSpec, who: Who): SpecRecord[] {
  const at = (role: string) => {
    const i = row.roles.indexOf(role);
    if (i < 0) throw new Error(`${row.step}: no role ${role}`);
    return recs[i]!;
  };
  if ('role' in who) return [at(who.role)];
  if ('membersOf' in who) {
    const r = at(who.membersOf);
    return isLive(r) ? m.members(r.group).filter((x) => !recs.includes(x)) : [];
  }
  return m.retiredInto(at(who.retiredInto)).filter((x) => !recs.includes(x));
}

const roleRecord = (row: RowSpec, recs: SpecRecord[], role: string) => recs[row.roles.indexOf(role)]!;

/**
 * Applies an accepted step. `verdict` is the request outcome: an allowed step (or an open one whose row says its
 * effects hold whenever it is accepted) moves the records as the row's effects say; an open one lets the records it
 * touches follow the deployment; an inert one changes nothing.
 */
export function applyStep(
  m: StateModel,
  row: RowSpec,
  recs: SpecRecord[],
  verdict: 'allow' | 'open' | 'inert',
  effectsHold = verdict === 'allow',
): Applied {
  const applied = emptyApplied(recs.map((r) => r.label));
  if (verdict === 'inert') return applied;
  if (!effectsHold) return applyOpen(m, row, recs, applied);
  // Every effect's records and every role's identity as they stood before the step.
  const groups = new Map(row.roles.map((role) => [role, roleRecord(row, recs, role).group]));
  const plan = row.effects.map((e) => ({
    e,
    records: select(m, recs, row, e.who).filter((r) => !e.when || e.when.includes(r.state)),
  }));
  const undecided = m.records.some((x) => x.state === 'unknown');
  for (const { e, records } of plan)
    for (const r of records)
      if (e.identityGone && isLive(r) && !undecided && m.members(r.group).length === 1 && !m.retiredInto(r).length)
        applied.goneIdentities.push({ group: r.group, cite: e.identityGone });
  for (const { e, records } of plan) for (const r of records) applyEffect(m, row, recs, groups, e, r, applied);
  return applied;
}

function applyEffect(
  m: StateModel,
  row: RowSpec,
  recs: SpecRecord[],
  groups: Map<string, number>,
  e: Effect,
  r: SpecRecord,
  applied: Applied,
): void {
  applied.touched.add(r.label);
  const requirement = e.requirement ?? row.effectRequirement;
  const cite: Cite = { requirement, forbids: e.seed };
  applied.cites.set(r.label, cite);
  if (e.level === 'open' && e.state === 'unknown') {
    r.state = 'unknown';
    r.since = undefined;
    return;
  }
  const before = r.group;
  // Moved by an open outcome while out of matching: its original link ID is the one it left with or the one it was
  // moved to.
  const movedWhileOut = r.leftMatchingIn !== undefined && r.leftMatchingIn !== before;
  if (e.state === 'deactivated' && r.state !== 'deactivated') r.leftMatchingIn = before;
  if (e.state) {
    r.state = e.state;
    r.since = cite;
    if (e.state !== 'retired') r.retiredInto = undefined;
    if (isLive(r)) r.data = { ...r.data, nowhere: undefined, withSurvivor: undefined };
  }
  if (e.retiredInto) {
    const survivor = roleRecord(row, recs, e.retiredInto);
    r.retiredInto = survivor.label;
    r.mergedGroup = groups.get(e.retiredInto);
  }
  if (e.identity === 'new') r.group = m.newGroup();
  else if (e.identity === 'follows') applied.follow.push({ label: r.label, mustBeLive: true });
  else if (e.identity && typeof e.identity === 'object') r.group = groups.get(e.identity.joins)!;
  forgetAbsence(r);
  if (e.fresh) applied.freshLink.push({ label: r.label, cite });
  if (e.sameLink && movedWhileOut) applied.follow.push({ label: r.label, mustBeLive: true });
  else if (e.sameLink) applied.sameLink.push({ label: r.label, group: before, cite });
  if (r.state !== 'deactivated') r.leftMatchingIn = undefined;
  if (e.data?.nowhere) r.data = { ...r.data, nowhere: cite };
  if (e.data?.history) r.data = { ...r.data, history: { requirement: e.data.history, forbids: e.seed } };
  if (e.data?.withSurvivor) r.data = { ...r.data, withSurvivor: cite };
  for (const [role, data] of [
    [e.data?.absentFromRole, true],
    [e.data?.unlistedFromRole, false],
  ] as const)
    if (role)
      r.data = { ...r.data, absentFrom: [...(r.data.absentFrom ?? []), { group: groups.get(role)!, cite, data }] };
  if (e.data?.shownNow) applied.shownNow.push({ label: r.label, how: e.data.shownNow, cite });
}

/**
 * An accepted step the seeds leave open: the named records, the other sources of their identities, follow whatever the
 * deployment shows (a named record it no longer finds becomes unknown); the sources retired into them, the named
 * records the row says an open step may have retired, and a named deactivated record (whether the step changed its
 * activation is not shown) become unknown.
 */
function applyOpen(m: StateModel, row: RowSpec, recs: SpecRecord[], applied: Applied): Applied {
  const unknown = new Set<SpecRecord>();
  const distinct = new Set(recs).size === recs.length;
  recs.forEach((r, i) => {
    if (distinct && row.openRetires?.includes(row.roles[i]!)) unknown.add(r);
    if (r.state === 'deactivated') unknown.add(r);
    for (const x of m.retiredInto(r)) unknown.add(x);
  });
  const following = new Set<SpecRecord>();
  for (const r of recs) for (const x of isLive(r) ? m.members(r.group) : [r]) following.add(x);
  for (const r of unknown) {
    r.state = 'unknown';
    r.since = undefined;
    applied.touched.add(r.label);
  }
  for (const r of following)
    if (!unknown.has(r) && r.state !== 'unknown') {
      applied.touched.add(r.label);
      applied.follow.push({ label: r.label, mustBeLive: false });
    }
  return applied;
}

/**
 * What a reply judge may ask about a step (specs/state/state-spec.ts ReplyContext). Read from the model and the link
 * IDs before the step is applied; `after` gives each model identity's link ID once the step has been observed.
 */
export function replyContextBefore(
  m: StateModel,
  row: RowSpec,
  recs: SpecRecord[],
  links: Map<number, string>,
  sourceOf: (r: SpecRecord) => { name: string; id: string } | undefined = () => undefined,
  /** Link IDs that sources of unknown state resolved to at the last observation. */
  undecided: ReadonlySet<string> = new Set(),
): (after: Map<number, string>) => ReplyContext {
  const facts = new Map(
    row.roles.map((role, i) => {
      const r = recs[i]!;
      if (!isLive(r)) return [role, { link: undefined, alone: false, held: false }] as const;
      const members = m.members(r.group).map((x) => x.label);
      return [
        role,
        {
          link: links.get(r.group),
          alone: members.length === 1,
          held:
            m.records.some((x) => x.state === 'retired' && members.includes(x.retiredInto ?? '')) ||
            undecided.has(links.get(r.group) ?? ''),
        },
      ] as const;
    }),
  );
  return (after) => ({
    before: (role) => facts.get(role)?.link,
    after: (role) => {
      const r = recs[row.roles.indexOf(role)]!;
      return isLive(r) ? after.get(r.group) : undefined;
    },
    aloneBefore: (role) => facts.get(role)?.alone ?? false,
    heldUndecided: (role) => facts.get(role)?.held ?? false,
    source: (role) => sourceOf(recs[row.roles.indexOf(role)]!),
  });
}
