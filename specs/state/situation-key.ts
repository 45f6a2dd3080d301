/**
 * What a situation is (specs/state/situations.ts): a step, what its row says of it, and the records
 * the row concerns as the engine selects them (specs/state/state-engine.ts): the named records and,
 * for an allowed step, the other sources of their identities and the sources merged into them (the
 * row's effects' `membersOf` and `retiredInto`). Each record is named by the dimensions the engine
 * keeps, counts capped at three; records the row does not concern are no part of it.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md,
 * "States and transitions".
 */
import {
  type AbstractRecord,
  type AbstractStep,
  GROUP_STATES,
  type Scope,
  type Verdict,
  markFlags,
} from './abstract-state.js';
import { type StateSpec, isLive } from './state-spec.js';

const cap = (n: number) => (n >= 3 ? '3+' : String(n));

/**
 * A record as a situation names it: its state, the step that put it there, its identity's size, the sources merged into
 * it, its marks.
 */
function recordText(recs: readonly AbstractRecord[], r: AbstractRecord, scope: Scope): string {
  const size = recs.filter((x) => isLive(x) && x.group === r.group && x !== r).length + (isLive(r) ? 1 : 0);
  const held = recs.filter((x) => x.state === 'retired' && x.retiredInto === r.label).length;
  return [
    r.state,
    ...(scope.history && r.since ? [`since ${r.since.requirement}`] : []),
    ...(GROUP_STATES.has(r.state) ? [`identity of ${cap(size)}`] : []),
    ...(held ? [`${cap(held)} merged in`] : []),
    ...(scope.marks && markFlags(r) ? [`marks ${markFlags(r)}`] : []),
  ].join(', ');
}

/**
 * How a named record relates to one named before it: the same, one identity, merged into it, other kinds, sources,
 * native IDs.
 */
function relation(a: AbstractRecord, b: AbstractRecord, scope: Scope): string {
  if (a === b) return 'the same record';
  return [
    ...(isLive(a) && isLive(b) && a.group === b.group ? ['one identity'] : []),
    ...(b.retiredInto === a.label ? ['merged into it'] : a.retiredInto === b.label ? ['holds it'] : []),
    ...(a.kind !== b.kind ? ['other kinds'] : []),
    ...(scope.sources > 1
      ? [a.source === b.source ? 'one source' : a.nativeId === b.nativeId ? 'one native ID' : 'two sources']
      : []),
  ].join(', ');
}

/** True when a record shares its native ID with a record the step does not name (in another source). */
const sharesNativeId = (recs: readonly AbstractRecord[], r: AbstractRecord, named: readonly AbstractRecord[]) =>
  recs.some((x) => x !== r && x.nativeId === r.nativeId && !named.includes(x));

/** The records an allowed step's effects concern besides the named ones (Who: membersOf, retiredInto), in words. */
function concerned(spec: StateSpec, recs: readonly AbstractRecord[], step: AbstractStep, scope: Scope): string[] {
  const row = spec.rows.find((r) => r.step === step.step)!;
  const named = step.roles.map((i) => recs[i]!);
  const out = row.effects.flatMap((e) => {
    if ('role' in e.who) return [];
    const role = 'membersOf' in e.who ? e.who.membersOf : e.who.retiredInto;
    const r = named[row.roles.indexOf(role)]!;
    const others =
      'membersOf' in e.who
        ? recs.filter((x) => isLive(r) && isLive(x) && x.group === r.group && !named.includes(x))
        : recs.filter((x) => x.state === 'retired' && x.retiredInto === r.label && !named.includes(x));
    const texts = others.map((x) => recordText(recs, x, scope)).sort();
    return texts.length ? [`${'membersOf' in e.who ? 'with' : 'merged into'} ${role}: ${texts.join(' + ')}`] : [];
  });
  return [...new Set(out)];
}

/**
 * The key of the situation of `step` from the state `recs`: `<step> <verdict>: <role>=<record>
 * [<relations>]; ...; <records the effects concern>`. A step that may change nothing (inert,
 * rejected, open) is decided by the named records' states and how they relate alone.
 */
export function situationKey(
  spec: StateSpec,
  recs: readonly AbstractRecord[],
  step: AbstractStep,
  verdict: Verdict,
  scope: Scope,
): string {
  const row = spec.rows.find((r) => r.step === step.step)!;
  const named = step.roles.map((i) => recs[i]!);
  const roles = named.map((r, i) => {
    const text = verdict === 'allow' ? recordText(recs, r, scope) : r.state;
    const shares =
      scope.sharedNativeIds && sharesNativeId(recs, r, named) ? ', its native ID in another source too' : '';
    const rel = named.slice(0, i).map((o) => relation(o, r, scope));
    return `${row.roles[i]} ${text}${shares}${rel.length ? ` (${rel.join('; ')})` : ''}`;
  });
  const more = verdict === 'allow' ? concerned(spec, recs, step, scope) : [];
  return `${step.step} ${verdict}: ${[...roles, ...more].join('; ') || 'nothing named'}`;
}

/** The coarser classes of a situation: its step and verdict; and those with the named records' states. */
export function tiersOf(
  spec: StateSpec,
  recs: readonly AbstractRecord[],
  step: AbstractStep,
  verdict: Verdict,
): [string, string] {
  const row = spec.rows.find((r) => r.step === step.step)!;
  const states = step.roles.map((i, n) => `${row.roles[n]} ${recs[i]!.state}`).join(', ');
  return [`${step.step} ${verdict}`, `${step.step} ${verdict}: ${states}`];
}
