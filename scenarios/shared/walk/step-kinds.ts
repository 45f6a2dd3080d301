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
import { type RowSpec, type StateSpec, rowOf } from '../../../specs/state/state-spec.js';
import type { DataStepName, SourceStepName, StepName } from '../../../specs/state/step-names.js';
import type { IdentityModel, ModelRecord } from '../state/identity-model.js';
import { type StepKind, src } from './run-step.js';
import type { WalkConfig } from '../walk-config.js';
import type { WalkReal } from './walk-real.js';

/**
 * What a kind adds to its row: its name, the records that fit it, how a walk lists it (default: the operation and the
 * records' labels), and the request of a row that does not build it.
 */
type StepTemplate = Omit<StepKind, 'row' | 'roles' | 'roleNames' | 'content' | 'describe'> & {
  describe?: StepKind['describe'];
} & ({ step: SourceStepName } | { step: DataStepName; content: StepKind['content'] });

const active = (r: ModelRecord) => r.state === 'active';
const sameKind = (a: ModelRecord, b: ModelRecord) => a.kind === b.kind;

const pairs = (m: IdentityModel, ok: (a: ModelRecord, b: ModelRecord) => boolean) =>
  m.records.flatMap((a) => m.records.filter((b) => b !== a && ok(a, b)).map((b) => [a, b]));

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
  fit: () => [[]],
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

/** A step naming one record by source: its row builds the request. */
const one = (step: SourceStepName, fit: (r: ModelRecord) => boolean): StepTemplate => ({
  name: step,
  step,
  fit: (m) => m.records.filter(fit).map((r) => [r]),
});

const repost: StepTemplate = {
  name: 'update',
  step: 'update',
  fit: (m) => m.records.filter(active).map((r) => [r]),
  describe: ([r]) => `postIdentity again for ${r!.label} (update)`,
  content: (w, _m, [r]) => postContent(r!.identity, r!.source, w.t.profile.sourcePlacement),
};
const softDelete = one('soft delete', active);
const restore = one('restore', (r) => r.state === 'soft-deleted');
const hardDelete = one('hard delete', (r) => r.state !== 'deleted');
const deactivate = one('deactivate', active);
const reactivate = one('reactivate', (r) => r.state === 'deactivated');

const merge: StepTemplate = {
  name: 'merge',
  step: 'merge',
  fit: (m) => pairs(m, (a, b) => active(a) && active(b) && a.group !== b.group && sameKind(a, b)),
  describe: ([s, r]) => `mergeIdentities survivor ${s!.label}, retire ${r!.label}`,
  bond: ([, r]) => r,
};

const unmerge: StepTemplate = {
  name: 'unmerge',
  step: 'unmerge',
  fit: (m) => pairs(m, (from, r) => r.state === 'retired' && r.retiredInto === from.label),
  describe: ([from, r]) => `unmergeIdentities ${r!.label} from ${from!.label}`,
};

const link: StepTemplate = {
  name: 'link',
  step: 'link',
  fit: (m) => pairs(m, (to, r) => active(to) && active(r) && to.group !== r.group && sameKind(to, r)),
  describe: ([to, r]) => `linkIdentities ${r!.label} into ${to!.label}`,
};

const unlink: StepTemplate = {
  name: 'unlink',
  step: 'unlink',
  fit: (m) => pairs(m, (from, r) => active(from) && active(r) && from.group === r.group),
  describe: ([from, r]) => `unlinkIdentities ${r!.label} from ${from!.label}`,
};

/**
 * An exact copy of a deactivated record, posted from a new source of the run: it must not join the deactivated record's
 * link ID ("excluded from future matching"). The copy is hard-deleted at once, so the walk's records stay far apart (it
 * is never part of the model).
 */
const copyOfDeactivated: StepTemplate = {
  name: 'post copy of deactivated',
  step: 'post copy of deactivated',
  fit: (m) => m.records.filter((r) => r.state === 'deactivated').map((r) => [r]),
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

/** Merge and link attempts across identity kinds (provider: practitioner and facility); the seeds reject them. */
const crossKindPairs = (m: IdentityModel) => pairs(m, (a, b) => active(a) && active(b) && !sameKind(a, b));
const crossMerge: StepTemplate = { ...merge, name: 'cross-type merge', fit: crossKindPairs };
const crossLink: StepTemplate = { ...link, name: 'cross-type link', fit: crossKindPairs };

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
  const { step: _step, ...rest } = t;
  return [
    {
      ...rest,
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
export function stepKind(c: WalkConfig, name: string): StepKind {
  const k = stepKindsFor(c).find((x) => x.name === name);
  if (!k) throw new Error(`${c.service}: no step kind "${name}"`);
  return k;
}
