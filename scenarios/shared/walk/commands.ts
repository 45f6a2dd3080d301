/**
 * The walk's steps: a step of a state-table row naming records of the walk's model (step-kinds.ts, one kind per
 * row), the tours, and the walk's start and end.
 *
 * A step kind only says what it sends. What the seeds say about it (allowed, rejected, open or inert from the records'
 * states), how the records move, what the reply must name and whether the feed must show it all come from the
 * service's executable state table (specs/<service>/state-spec.ts), through runStep (run-step.ts), which the scripted
 * single checks (scenarios/shared/script.ts) use too. After every step the whole observable state is judged
 * (scenarios/shared/walk/oracle.ts).
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import { postContent } from '../../../generators/common.js';
import { describeReply } from '../../../harness/check.js';
import { isRejection } from '../../../harness/reply.js';
import { type Cite, type Finding, finding } from '../../../specs/common/clause.js';
import type { SourceRef } from '../../../specs/common/wire.js';
import { type Applied, emptyApplied } from '../../../specs/state/state-engine.js';
import type { StepName } from '../../../specs/state/step-names.js';
import { citeOf } from '../../../specs/services.js';
import { type IdentityModel, type ModelRecord, labelFor } from '../../../specs/state/identity-model.js';
import { findingsFailure, modelInWords, observe, runStep, texts } from './run-step.js';
import { ALLOWED_STEP_REJECTED, NEITHER_ACCEPTED_NOR_REJECTED } from '../../../specs/state/step-clauses.js';
import type { StartRecord } from './planned.js';
import { newIdentity, stepKind, stepKindsFor } from './step-kinds.js';
import type { WalkConfig } from '../walk-config.js';
import type { WalkReal } from './walk-real.js';

/**
 * Runs one step of `step`'s row naming the model's records `labels` (in the order of the row's roles) and judges it
 * (runStep), listed with the records' states before it.
 * @throws StepFailure, CouldNotJudge, as runStep
 */
export async function runNamedStep(
  w: WalkReal,
  m: IdentityModel,
  step: StepName,
  labels: readonly string[],
): Promise<void> {
  const kind = stepKind(w.config, step);
  const recs = labels.map((l) => m.get(l)!);
  const states = recs.map((r) => `${r.label} ${r.kind ? `${r.kind} ` : ''}${r.state}`).join(', ');
  await runStep(kind, m, w, recs, `${kind.describe(recs)}${states ? ` (${states})` : ''}`);
}

/**
 * A tour: a fixed chain of state-table rows on the walk's starting records (A, B, C), run beside the planned walks on
 * every run whatever its seed, with the history they build (the plan's situations name the records as they stand, not
 * how they came to). The plan takes the situations the tours reach as covered (walk-plan.ts tourSituations). Each step
 * names its records in the order of its kind's roles: link
 * [into, moved], merge [survivor, retired], unlink [from, moved]. A tour runs only where the service has every kind it
 * names; `mixedKinds` starts from records of alternating identity kinds (provider: practitioner, facility,
 * practitioner), otherwise all start of one kind.
 * Source: organization-identity-api.md and person-provider-identity-api.md, "States and transitions".
 */
export interface Tour {
  name: string;
  steps: Array<[step: StepName, ...labels: string[]]>;
  mixedKinds?: boolean;
}

/** A tour from its steps as text: a step name, then the labels of its records (`'merge A B'`). */
const tour = (name: string, steps: Array<`${StepName} ${string}`>, o: { mixedKinds?: boolean } = {}): Tour => ({
  name,
  steps: steps.map((text) => {
    const words = text.split(' ');
    const labels = words.filter((w) => /^[A-Z]$/.test(w));
    return [words.slice(0, words.length - labels.length).join(' ') as StepName, ...labels];
  }),
  ...o,
});

export const TOURS: Tour[] = [
  tour('restore after the identity it left was merged away', ['link A B', 'soft delete A', 'merge C B', 'restore A']),
  tour('merge of an identity holding a linked source', ['link B C', 'merge A B']),
  tour('unlink from an identity that absorbed a merge', ['merge A B', 'link A C', 'unlink A C']),
  tour('hard delete of a merge survivor after it was linked elsewhere', ['merge B A', 'link C B', 'hard delete B']),
  tour('soft delete of one of two linked sources', ['link A B', 'soft delete B']),
  tour('update after an unlink', ['link A B', 'unlink A B', 'update B']),
  tour('deactivate and reactivate a linked record', ['link A B', 'deactivate B', 'reactivate B']),
  tour('merge into an identity of two, of a survivor of an earlier merge, then unmerge from it', [
    'link A B',
    'merge B C',
    'merge A B',
    'unmerge A B',
  ]),
  tour('link of a record that shares its identity', ['link A B', 'link C B']),
  tour('soft delete and restore of a merge survivor, then unmerge', [
    'merge A B',
    'link A C',
    'soft delete A',
    'restore A',
    'unmerge A B',
  ]),
  tour('unlink of one record from an identity of three', ['link A B', 'link A C', 'unlink A B']),
  tour('a deactivated record of a shared identity, and an exact copy of it', [
    'link A B',
    'deactivate B',
    'post copy of deactivated B',
  ]),
  tour('cross-type merge and link after a link', ['link A C', 'merge A B', 'link C B'], { mixedKinds: true }),
];

/** The tours a service's state table allows (every kind they name is one of its step kinds). */
export function toursFor(c: WalkConfig): Tour[] {
  const names = new Set(stepKindsFor(c).map((k) => k.name));
  return TOURS.filter((t) => (!t.mixedKinds || c.spec.kinds) && t.steps.every(([kind]) => names.has(kind)));
}

/**
 * The identities of a walk's start, in label order: `n` new ones on the target's sources in turn, or those `starts`
 * describes (a planned walk: each record's source, kind, and the earlier record whose native ID it shares).
 */
function plannedIdentities(w: WalkReal, m: IdentityModel, n: number, starts?: readonly StartRecord[]) {
  const byClass = new Map<number, SourceRef>();
  return Array.from({ length: starts?.length ?? n }, (_, i) => {
    const start = starts?.[i];
    const sameNativeIdAs = start ? byClass.get(start.nativeId) : undefined;
    const p = newIdentity(
      w,
      m,
      m.records.length + i,
      start && { ...start, ...(sameNativeIdAs ? { sameNativeIdAs } : {}) },
    );
    if (start && !byClass.has(start.nativeId)) byClass.set(start.nativeId, p.source);
    return p;
  });
}

/**
 * The walk's last observation: every record and every link ID it has seen, read once more and judged by the same
 * clauses, so a step that changed a record no row of it names (which its own observation, reading only what the step
 * can have changed, did not read) is found before the walk ends. A deviation cites the walk's last step, after which it
 * was seen.
 * @throws StepFailure citing the requirements broken; CouldNotJudge when the deployment could not answer
 */
export async function observeWalkEnd(m: IdentityModel, w: WalkReal): Promise<void> {
  if (!m.records.length) return;
  const text =
    'every record and link ID of the walk read once more (nativeIdQuery of each record, identityIdQuery of ' +
    'every link ID seen)';
  w.beginStep(text);
  const step: Cite = w.lastStep ?? { requirement: w.config.requirements.rejectedNoChange };
  const { findings, links, linkOf } = await observe(
    m,
    w,
    { applied: emptyApplied([]), step, joined: step, probes: [], before: new Map(m.lastLinks), full: true },
    (fs) => fs.filter((f) => !w.t.disabled.has(f.requirement)),
  );
  if (findings.length)
    throw findingsFailure(
      findings,
      `step ${w.steps.length - w.startSteps}, ${text}: the deployment differs from the model ` +
        `[${m.describe()}]:\n  - ${texts(findings).join('\n  - ')}`,
      {
        what: text,
        expected: `as the state table says: ${modelInWords(m)}`,
        got: texts(findings).join('\n'),
        operation: 'nativeIdQuery',
      },
    );
  m.remember(links, linkOf);
  w.steps.pop();
}

/**
 * The starting state of a walk or tour: `n` new, distinct identities posted together (they do not depend on one
 * another) and observed once, as one step that exercises the post-new row once per identity. Their data is drawn in
 * label order before anything is sent, so a replay posts the same identities whatever order the replies arrive in.
 * @throws StepFailure when a post is rejected (citing the post requirement) or answers neither success nor rejection,
 *   or when the identities then differ from the model
 */
export async function postStart(
  m: IdentityModel,
  w: WalkReal,
  n: number,
  starts?: readonly StartRecord[],
): Promise<ModelRecord[]> {
  const c = w.config;
  const postNew = stepKind(c, 'post new identity');
  const row = postNew.row;
  const planned = plannedIdentities(w, m, n, starts);
  const labels = planned.map((_, i) => labelFor(m.records.length + i));
  const shared = planned.flatMap((p, i) => {
    const j = planned.findIndex((q) => q.source.id === p.source.id);
    return j < i ? [`${labels[i]} with ${labels[j]}'s native ID in ${p.source.name}`] : [];
  });
  const text =
    `postIdentity of ${planned.length} new, distinct identities together (${labels.join(', ')}` +
    `${shared.length ? `; ${shared.join(', ')}` : ''})`;
  w.beginStep(text);
  const fail = (findings: Finding[], what: string, expected?: string): never => {
    throw findingsFailure(findings, `start, ${text}: ${what}`, {
      what: text,
      expected,
      got: what,
      operation: row.operation,
    });
  };
  const replies = await Promise.all(
    planned.map((p) => w.call(row.operation, postContent(p.identity, p.source, w.t.profile.sourcePlacement))),
  );
  const follow: Applied['follow'] = [];
  replies.forEach((reply, i) => {
    w.assertNoServerError(reply, row.operation);
    const accepted = reply.success === true && (reply.status ?? 0) < 300;
    w.count(`${postNew.name}:allow:${accepted ? 'ok' : 'rejected'}`);
    if (!accepted) {
      const observed =
        `${labels[i]} was ${isRejection(reply) ? 'rejected' : 'neither accepted nor rejected'}: ` +
        `${describeReply(reply)}`;
      fail(
        [
          isRejection(reply)
            ? finding(ALLOWED_STEP_REJECTED, { requirement: row.effectRequirement, forbids: row.seed }, observed)
            : finding(NEITHER_ACCEPTED_NOR_REJECTED, citeOf(c.requirements.noServerError), observed),
        ],
        observed,
        'each post succeeds',
      );
    }
    w.pending = planned[i];
    follow.push(...postNew.created!(m, reply, w).map((label) => ({ label, mustBeLive: true })));
  });
  const added = m.records.slice(-n);
  const applied: Applied = { ...emptyApplied(added.map((r) => r.label)), follow };
  const apart: Cite = { requirement: c.requirements.apart };
  const { findings, links, linkOf } = await observe(
    m,
    w,
    {
      applied,
      step: { requirement: row.effectRequirement, forbids: row.seed },
      joined: apart,
      probes: [],
      before: new Map(),
      posted: true,
    },
    (fs) => fs.filter((f) => !w.t.disabled.has(f.requirement)),
  );
  if (findings.length)
    fail(
      findings,
      `after they succeeded the deployment differs from the model [${m.describe()}]:\n  - ` +
        `${texts(findings).join('\n  - ')}`,
      `after the posts, as the state table says: ${modelInWords(m)}`,
    );
  m.remember(links, linkOf);
  w.startSteps = w.steps.length;
  return added;
}
