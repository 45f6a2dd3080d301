/**
 * The walk's step kinds: one per state-table row of the service. A kind holds its row
 * (specs/<service>/state-spec.ts); the row gives the operation, the roles of the records it names, what the seeds say
 * of the step from the records' states and, for a row that names records by source (SourceRowSpec), the request. What
 * a kind adds is how a walk lists it and, for a row whose request carries identity data (DataStepName: a posted
 * identity), that request.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import { postContent } from '../../../generators/common.js';
import type { SourceRef } from '../../../specs/common/wire.js';
import { type RowSpec, type StateSpec, rowOf } from '../../../specs/state/state-spec.js';
import type { DataStepName, SourceStepName, StepName } from '../../../specs/state/step-names.js';
import type { IdentityModel } from '../../../specs/state/identity-model.js';
import { type StepKind, src } from './run-step.js';
import type { WalkConfig } from '../walk-config.js';
import type { WalkReal } from './walk-real.js';

/**
 * What a kind adds to its row: how a walk lists it (default: the operation and the records' labels), and the request of
 * a row that does not build it.
 */
type StepTemplate = Omit<StepKind, 'row' | 'roles' | 'content' | 'describe' | 'name'> & {
  describe?: StepKind['describe'];
} & ({ step: SourceStepName } | { step: DataStepName; content: StepKind['content'] });

/**
 * The identity the walk's record number `index` gets: its source, its data, and its kind where the service has kinds.
 * `start` (a planned walk's starting record) names its source (index into the target's), its kind, and the source
 * reference whose native ID it shares, if any.
 */
export function newIdentity(
  w: WalkReal,
  m: IdentityModel,
  index: number,
  start?: { source: number; kind?: string; sameNativeIdAs?: SourceRef },
): NonNullable<WalkReal['pending']> {
  const kinds = m.kindsFor ?? w.config.spec.kinds;
  const kind = start ? start.kind : kinds ? kinds[m.singleKind ? 0 : index % kinds.length] : undefined;
  const fresh = w.t.source(start ? start.source : index);
  const source = start?.sameNativeIdAs ? { name: fresh.name, id: start.sameNativeIdAs.id } : fresh;
  return { source, identity: w.config.generate(w.faker, source, kind, w.t.profile), kind };
}

const postNew: StepTemplate = {
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

/** A step naming one record by source: its row builds the request. */
const one = (step: SourceStepName): StepTemplate => ({ step });

const repost: StepTemplate = {
  step: 'update',
  describe: ([r]) => `postIdentity again for ${r!.label} (update)`,
  content: (w, _m, [r]) => postContent(r!.identity, r!.source, w.t.profile.sourcePlacement),
};
const softDelete = one('soft delete');
const restore = one('restore');
const hardDelete = one('hard delete');
const deactivate = one('deactivate');
const reactivate = one('reactivate');

const merge: StepTemplate = {
  step: 'merge',
  describe: ([s, r]) => `mergeIdentities survivor ${s!.label}, retire ${r!.label}`,
};

const unmerge: StepTemplate = {
  step: 'unmerge',
  describe: ([from, r]) => `unmergeIdentities ${r!.label} from ${from!.label}`,
};

const link: StepTemplate = {
  step: 'link',
  describe: ([to, r]) => `linkIdentities ${r!.label} into ${to!.label}`,
};

const unlink: StepTemplate = {
  step: 'unlink',
  describe: ([from, r]) => `unlinkIdentities ${r!.label} from ${from!.label}`,
};

/**
 * An exact copy of a deactivated record, posted from a new source of the run: it must not join the deactivated record's
 * link ID ("excluded from future matching"). The copy is hard-deleted at once, so the walk's records stay far apart (it
 * is never part of the model).
 */
const copyOfDeactivated: StepTemplate = {
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
  const { step, ...rest } = t;
  return [
    {
      ...rest,
      name: step,
      row,
      roles: row.roles.length as StepKind['roles'],
      describe: t.describe ?? ((recs) => [row.operation, ...recs.map((r) => r.label)].join(' ')),
      content: contentOf(row, t),
    },
  ];
}

/** A template per step name, so a state-table row without a walk step does not compile. */
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

/** The step kinds of a service: a kind for each row of its state table. */
export function stepKindsFor(c: WalkConfig): StepKind[] {
  return Object.values(TEMPLATES).flatMap((t) => kindOf(c.spec, t));
}

/** The step kind of a row. @throws Error for a step the service's state table does not have (person: no soft delete) */
export function stepKind(c: WalkConfig, step: StepName): StepKind {
  const k = stepKindsFor(c).find((x) => x.name === step);
  if (!k) throw new Error(`${c.service}: no state-table row "${step}"`);
  return k;
}
