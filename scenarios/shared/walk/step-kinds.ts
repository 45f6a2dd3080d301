/**
 * The walk's step kinds: one per state-table row of the service, plus (provider) merge and link attempts across
 * identity kinds. A kind holds its row (specs/<service>/state-spec.ts); the row gives the operation, the roles of the
 * records it names and, for a row that names records by source (SourceRowSpec), the request. What a kind adds is which
 * records make it interesting (`fit`), how a walk lists it, and, for a row whose request carries identity data
 * (DataStepName: a posted identity), that request.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import { postContent } from '../../../generators/common.js';
import { type RequestOutcome, type RowSpec, type StateSpec, rowOf } from '../../../specs/state/state-spec.js';
import type { DataStepName, KindName, SourceStepName, StepName } from '../../../specs/state/step-names.js';
import type { IdentityModel, ModelRecord } from '../../../specs/state/identity-model.js';
import { type StepKind, src } from './run-step.js';
import type { WalkConfig } from '../walk-config.js';
import type { WalkReal } from './walk-real.js';

type Verdict = RequestOutcome['verdict'];

/**
 * What a kind adds to its row: its name, which records fit it (the tuples whose request outcome, as the row gives it
 * from their states, is one of `outcomes`: by default those the row allows; `also` narrows them), how a walk lists it
 * (default: the operation and the records' labels), and the request of a row that does not build it.
 */
type StepTemplate = Omit<StepKind, 'row' | 'roles' | 'roleNames' | 'content' | 'describe' | 'fit'> & {
  describe?: StepKind['describe'];
  outcomes?: readonly Verdict[];
  also?: (recs: ModelRecord[]) => boolean;
} & ({ step: SourceStepName } | { step: DataStepName; content: StepKind['content'] });

const active = (r: ModelRecord) => r.state === 'active';

/** Every tuple of `n` records a step may name: none, one, or an ordered pair of two distinct records. */
const tuples = (m: IdentityModel, n: number): ModelRecord[][] =>
  n === 0
    ? [[]]
    : n === 1
      ? m.records.map((r) => [r])
      : m.records.flatMap((a) => m.records.filter((b) => b !== a).map((b) => [a, b]));

/** The records that fit a kind: the tuples whose request outcome the row gives is one the kind runs. */
const fitOf =
  (row: RowSpec, t: StepTemplate): StepKind['fit'] =>
  (m) => {
    const outcomes = t.outcomes ?? ['allow'];
    return tuples(m, row.roles.length).filter(
      (recs) => outcomes.includes(row.request(m, recs).verdict) && (t.also?.(recs) ?? true),
    );
  };

/**
 * The identity the walk's record number `index` gets: its source, its data, and its kind where the service has kinds.
 */
export function newIdentity(w: WalkReal, m: IdentityModel, index: number): NonNullable<WalkReal['pending']> {
  const kinds = m.kindsFor ?? w.config.spec.kinds;
  const kind = kinds ? kinds[m.singleKind ? 0 : index % kinds.length] : undefined;
  const source = w.t.source(index);
  return { source, identity: w.config.generate(w.faker, source, kind, w.t.profile), kind };
}

const postNew: StepTemplate = {
  name: 'post new identity',
  step: 'post new identity',
  describe: () => 'postIdentity of a new, distinct identity',
  content(w, m) {
    w.pending = newIdentity(w, m, m.records.length);
    return postContent(w.pending.identity, w.pending.source, w.t.profile.sourcePlacement);
  },
  created(m, reply, w) {
    const p = w.pending!;
    const r = m.add(p.source, p.identity, p.kind);
    const linkId = reply.content?.linkId;
    if (linkId === null || linkId === undefined) return [];
    w.findings.push(
      `postIdentity of ${r.label}, generated far apart from the walk's other identities, was linked to existing ` +
        `identity ${String(linkId)}`,
    );
    return [r.label];
  },
};

/** A step naming records by source: its row builds the request. */
const bySource = (
  step: SourceStepName,
  more: Pick<StepTemplate, 'outcomes' | 'also' | 'describe' | 'bond'> = {},
): StepTemplate => ({ name: step, step, ...more });

const repost: StepTemplate = {
  name: 'update',
  step: 'update',
  describe: ([r]) => `postIdentity again for ${r!.label} (update)`,
  content: (w, _m, [r]) => postContent(r!.identity, r!.source, w.t.profile.sourcePlacement),
};
const softDelete = bySource('soft delete');
const restore = bySource('restore');
// Also a source whose state is unknown: the row leaves that open, and deletes it once accepted.
const hardDelete = bySource('hard delete', { outcomes: ['allow', 'open'] });
const deactivate = bySource('deactivate');
const reactivate = bySource('reactivate');

const merge = bySource('merge', {
  describe: ([s, r]) => `mergeIdentities survivor ${s!.label}, retire ${r!.label}`,
  bond: ([, r]) => r,
});

// Also a source merged into one that is no longer active (the row leaves the unmerge open then).
const unmerge = bySource('unmerge', {
  outcomes: ['allow', 'open'],
  also: ([from, r]) => r!.state === 'retired' && r!.retiredInto === from!.label,
  describe: ([from, r]) => `unmergeIdentities ${r!.label} from ${from!.label}`,
});

const link = bySource('link', { describe: ([to, r]) => `linkIdentities ${r!.label} into ${to!.label}` });

const unlink = bySource('unlink', { describe: ([from, r]) => `unlinkIdentities ${r!.label} from ${from!.label}` });

/**
 * An exact copy of a deactivated record, posted from a new source of the run: it must not join the deactivated record's
 * link ID ("excluded from future matching"). The copy is hard-deleted at once, so the walk's records stay far apart (it
 * is never part of the model).
 */
const copyOfDeactivated: StepTemplate = {
  name: 'post copy of deactivated',
  step: 'post copy of deactivated',
  describe: ([r]) =>
    `postIdentity of an exact copy of ${r!.label} from a new source (then deleteSourceIdentity of the copy)`,
  content(w, _m, [r]) {
    const source = w.t.source(1);
    w.pending = { source, identity: r!.identity };
    return postContent(
      { ...r!.identity, sources: [{ name: source.name, id: source.id }] },
      source,
      w.t.profile.sourcePlacement,
    );
  },
  async probe(w, m, [r]) {
    const copy = w.pending!.source;
    const found = await w.call('nativeIdQuery', { source: { name: copy.name, id: copy.id } });
    w.assertNoServerError(found, 'nativeIdQuery');
    const gone = await w.call(
      'deleteSourceIdentity',
      rowOf(w.config.spec, 'hard delete').content([{ name: copy.name, id: copy.id }], w.t.profile.members),
    );
    w.assertNoServerError(gone, 'deleteSourceIdentity');
    const held = m.lastLinks.get(r!.group);
    return held && found.content?.linkId === held
      ? [`the copy joined ${r!.label}'s identity ${held}, though ${r!.label} is deactivated`]
      : [];
  },
};

/**
 * Merge and link attempts across identity kinds (provider: practitioner and facility): the pairs of active records the
 * rows reject.
 */
const crossKind = { outcomes: ['reject'], also: (recs: ModelRecord[]) => recs.every(active) } as const;
const crossMerge: StepTemplate = { ...merge, name: 'cross-type merge', ...crossKind };
const crossLink: StepTemplate = { ...link, name: 'cross-type link', ...crossKind };

/** The request of the kind: the one its row builds from the named records' sources, else the template's own. */
function contentOf(row: RowSpec, t: StepTemplate): StepKind['content'] {
  if (row.content) {
    const build = row.content;
    return (w, _m, recs) => build(recs.map(src), w.t.profile.members);
  }
  if ('content' in t) return t.content;
  // Unreachable: a source step's row is a SourceRowSpec, and a data step's template has content.
  throw new Error(`${row.step}: neither the row nor the walk step builds the request`);
}

/** The kind of a template on the service's row of that step; none where the service has no such row. */
function kindOf(spec: StateSpec, t: StepTemplate): StepKind[] {
  const row = spec.rows.find((r) => r.step === t.step);
  if (!row) return [];
  const { step: _step, outcomes: _outcomes, also: _also, ...rest } = t;
  return [
    {
      ...rest,
      fit: fitOf(row, t),
      row,
      roles: row.roles.length as StepKind['roles'],
      // The coverage keys of a one-record step name no role (`restore: soft-deleted`, `link(moved) -> deactivate`).
      roleNames: row.roles.length > 1 ? row.roles : [],
      describe: t.describe ?? ((recs) => [row.operation, ...recs.map((r) => r.label)].join(' ')),
      content: contentOf(row, t),
    },
  ];
}

/**
 * A template per step name, so a state-table row without a walk step does not compile. The order is the order of the
 * walk's command arbitraries (commandArbitraries): it decides what a seed draws.
 */
const TEMPLATES: Record<StepName, StepTemplate> = {
  'post new identity': postNew,
  update: repost,
  'soft delete': softDelete,
  restore,
  deactivate,
  reactivate,
  'post copy of deactivated': copyOfDeactivated,
  'hard delete': hardDelete,
  merge,
  unmerge,
  link,
  unlink,
};

/**
 * The step kinds of a service: a kind for each row of its state table, and cross-kind attempts where it has identity
 * kinds.
 */
export function stepKindsFor(c: WalkConfig): StepKind[] {
  return [...Object.values(TEMPLATES), ...(c.spec.kinds ? [crossMerge, crossLink] : [])].flatMap((t) =>
    kindOf(c.spec, t),
  );
}

/** A step kind by name. @throws Error for a kind the service does not have */
export function stepKind(c: WalkConfig, name: KindName): StepKind {
  const k = stepKindsFor(c).find((x) => x.name === name);
  if (!k) throw new Error(`${c.service}: no step kind "${name}"`);
  return k;
}
