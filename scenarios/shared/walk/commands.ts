/**
 * The walk's commands: the step kinds (step-kinds.ts, one per state-table row) as fast-check asynchronous commands over
 * the identity model, the tours, and the walk's start and end.
 *
 * A step kind only says which records it names and what it sends. What the seeds say about it (allowed, rejected, open
 * or inert from the records' states), how the records move, what the reply must name and whether the feed must show it
 * all come from the service's executable state table (specs/<service>/state-spec.ts), through runStep (run-step.ts),
 * which the scripted single checks (scenarios/shared/script.ts) use too. After every step the whole observable state is
 * judged (scenarios/shared/walk/oracle.ts).
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import fc from 'fast-check';
import { postContent } from '../../../generators/common.js';
import { describeReply } from '../../../harness/check.js';
import { isRejection } from '../../../harness/reply.js';
import { type Cite, type Finding, finding } from '../../../specs/common/clause.js';
import { type Applied, emptyApplied } from '../../../specs/state/state-engine.js';
import { citeOf } from '../../../specs/services.js';
import { stepKeys } from '../state/coverage.js';
import {
  type IdentityModel,
  type ModelRecord,
  type RecordState,
  labelFor,
} from '../../../specs/state/identity-model.js';
import { type StepKind, StepFailure, modelInWords, observe, runStep, texts } from './run-step.js';
import { withRejects } from '../../../specs/clause-registry.js';
import type { KindName } from '../../../specs/state/step-names.js';
import { ALLOWED_STEP_REJECTED, NEITHER_ACCEPTED_NOR_REJECTED } from '../../../specs/state/step-clauses.js';
import { newIdentity, stepKind, stepKindsFor } from './step-kinds.js';
import { type Option, anythingNew, rankOptions } from './steer.js';
import type { WalkConfig } from '../walk-config.js';
import type { WalkReal } from './walk-real.js';

/** The record states of a service's state table (the model's `unknown` is none of them). */
export function recordStatesFor(c: WalkConfig): RecordState[] {
  return Object.keys(c.spec.stateNames) as RecordState[];
}

/**
 * One step of a walk: a kind plus the choices fast-check generated and shrinks. A walk's commands are a pool, longer
 * than the walk: a command runs only when its kind can exercise a coverage key no step of the check exercised yet
 * (scenarios/shared/walk/steer.ts), or when no kind could; fast-check skips the others, and shrinks only the commands
 * that ran.
 */
export class StepCommand implements fc.AsyncCommand<IdentityModel, WalkReal, false> {
  private text?: string;

  constructor(
    readonly kind: StepKind,
    /** Index into the ranked options (0: the one with most new keys, then the most recent records). */
    readonly pick: number,
    /** Choose among the records that make the step interesting (true) or among all records (false). */
    readonly fitting: boolean,
    /** The walk's step kinds (whether any of them could exercise something new decides whether this one runs). */
    readonly peers: readonly StepKind[] = [kind],
    /** Labels of the records to name (a tour's step), instead of a ranked choice. */
    readonly named?: readonly string[],
  ) {}

  /** The ranked options of this command's kind from the model's state (empty: it cannot run). */
  private options(m: IdentityModel): Option[] {
    if (this.named) {
      const recs = this.named.map((l) => m.records.find((r) => r.label === l)!);
      return [{ recs, keys: stepKeys(this.kind, recs, m.records), score: 0 }];
    }
    return rankOptions(m, this.kind, this.fitting);
  }

  /**
   * Runs when it can name its records (a fitting step: records that fit it) and either exercises a key not exercised
   * yet, or no step of any kind could (then it runs as an unsteered step would).
   */
  check(m: Readonly<IdentityModel>): boolean {
    if (m.stepsRun >= m.maxSteps || Date.now() >= m.stepsUntil) return false;
    const options = this.options(m as IdentityModel);
    return options.length > 0 && (options[0]!.score > 0 || !anythingNew(m as IdentityModel, this.peers));
  }

  async run(m: IdentityModel, w: WalkReal): Promise<void> {
    m.stepsRun++;
    const options = this.options(m);
    const { recs, keys } = options[this.pick % options.length]!;
    m.exercise(keys);
    const states = recs.map((r) => `${r.label} ${r.kind ? `${r.kind} ` : ''}${r.state}`).join(', ');
    this.text = `${this.kind.describe(recs)}${states ? ` (${states})` : ''}`;
    await runStep(this.kind, m, w, recs, this.text);
    m.touch(recs.map((r) => r.label).reverse()); // the record a step moves (its last role) first
  }

  toString(): string {
    return this.text ?? `${this.kind.name}(${this.pick}${this.fitting ? '' : ', any'})`;
  }
}

/** fast-check arbitraries of the walk's commands; `fitting` choices four times as likely as arbitrary ones. */
export function commandArbitraries(kinds: StepKind[]) {
  const arbitrary = fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
  // Index 0 of the ranked options is the one with new keys, on the records the latest steps touched: favour it (3 in
  // 4), so steps chain on the same records and reach new sequences.
  const pick = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(50) });
  return kinds.map((kind) =>
    fc
      .tuple(pick, arbitrary)
      .map(([i, any]) => new StepCommand(kind, i, !any, kinds) as fc.AsyncCommand<IdentityModel, WalkReal, false>),
  );
}

/**
 * A tour: a fixed chain of state-table rows on the walk's starting records (A, B, C), run before the generated walks so
 * that the chains a defect may hide behind are exercised on every run whatever the seed (a generated walk meets a given
 * three- or four-step chain only now and then). Each step names its records in the order of its kind's roles: link
 * [into, moved], merge [survivor, retired], unlink [from, moved]. A tour runs only where the service has every kind it
 * names; `mixedKinds` starts from records of alternating identity kinds (provider: practitioner, facility,
 * practitioner), otherwise all start of one kind.
 * Source: organization-identity-api.md and person-provider-identity-api.md, "States and transitions".
 */
export interface Tour {
  name: string;
  steps: Array<[kind: KindName, ...labels: string[]]>;
  mixedKinds?: boolean;
}

export const TOURS: Tour[] = [
  {
    name: 'restore after the identity it left was merged away',
    steps: [
      ['link', 'A', 'B'],
      ['soft delete', 'A'],
      ['merge', 'C', 'B'],
      ['restore', 'A'],
    ],
  },
  {
    name: 'merge of an identity holding a linked source',
    steps: [
      ['link', 'B', 'C'],
      ['merge', 'A', 'B'],
    ],
  },
  {
    name: 'unlink from an identity that absorbed a merge',
    steps: [
      ['merge', 'A', 'B'],
      ['link', 'A', 'C'],
      ['unlink', 'A', 'C'],
    ],
  },
  {
    name: 'hard delete of a merge survivor after it was linked elsewhere',
    steps: [
      ['merge', 'B', 'A'],
      ['link', 'C', 'B'],
      ['hard delete', 'B'],
    ],
  },
  {
    name: 'soft delete of one of two linked sources',
    steps: [
      ['link', 'A', 'B'],
      ['soft delete', 'B'],
    ],
  },
  {
    name: 'update after an unlink',
    steps: [
      ['link', 'A', 'B'],
      ['unlink', 'A', 'B'],
      ['update', 'B'],
    ],
  },
  {
    name: 'deactivate and reactivate a linked record',
    steps: [
      ['link', 'A', 'B'],
      ['deactivate', 'B'],
      ['reactivate', 'B'],
    ],
  },
  {
    name: 'merge into an identity of two, of a survivor of an earlier merge, then unmerge from it',
    steps: [
      ['link', 'A', 'B'],
      ['merge', 'B', 'C'],
      ['merge', 'A', 'B'],
      ['unmerge', 'A', 'B'],
    ],
  },
  {
    name: 'link of a record that shares its identity',
    steps: [
      ['link', 'A', 'B'],
      ['link', 'C', 'B'],
    ],
  },
  {
    name: 'soft delete and restore of a merge survivor, then unmerge',
    steps: [
      ['merge', 'A', 'B'],
      ['link', 'A', 'C'],
      ['soft delete', 'A'],
      ['restore', 'A'],
      ['unmerge', 'A', 'B'],
    ],
  },
  {
    name: 'unlink of one record from an identity of three',
    steps: [
      ['link', 'A', 'B'],
      ['link', 'A', 'C'],
      ['unlink', 'A', 'B'],
    ],
  },
  {
    name: 'a deactivated record of a shared identity, and an exact copy of it',
    steps: [
      ['link', 'A', 'B'],
      ['deactivate', 'B'],
      ['post copy of deactivated', 'B'],
    ],
  },
  {
    name: 'cross-type merge and link after a link',
    steps: [
      ['link', 'A', 'C'],
      ['cross-type merge', 'A', 'B'],
      ['cross-type link', 'C', 'B'],
    ],
    mixedKinds: true,
  },
];

/** The tours a service's state table allows (every kind they name is one of its step kinds). */
export function toursFor(c: WalkConfig): Tour[] {
  const names = new Set(stepKindsFor(c).map((k) => k.name));
  return TOURS.filter((t) => (!t.mixedKinds || c.spec.kinds) && t.steps.every(([kind]) => names.has(kind)));
}

/** The commands of a tour's steps. */
export function tourCommands(c: WalkConfig, tour: Tour): StepCommand[] {
  const kinds = stepKindsFor(c);
  return tour.steps.map(
    ([name, ...labels]) => new StepCommand(kinds.find((k) => k.name === name)!, 0, true, kinds, labels),
  );
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
    throw new StepFailure(
      [...new Set(findings.map((f) => f.requirement))],
      `step ${w.steps.length - w.startSteps}, ${text}: the deployment differs from the model ` +
        `[${m.describe()}]:\n  - ${texts(findings).join('\n  - ')}`,
      {
        what: text,
        expected: `as the state table says: ${modelInWords(m)}`,
        got: texts(findings).join('\n'),
        operation: 'nativeIdQuery',
        findings: withRejects(findings),
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
export async function postStart(m: IdentityModel, w: WalkReal, n: number): Promise<ModelRecord[]> {
  const c = w.config;
  const postNew = stepKind(c, 'post new identity');
  const row = postNew.row;
  const planned = Array.from({ length: n }, (_, i) => newIdentity(w, m, m.records.length + i));
  const labels = planned.map((_, i) => labelFor(m.records.length + i));
  const text = `postIdentity of ${n} new, distinct identities together (${labels.join(', ')})`;
  w.beginStep(text);
  const fail = (findings: Finding[], what: string, expected?: string): never => {
    throw new StepFailure([...new Set(findings.map((f) => f.requirement))], `start, ${text}: ${what}`, {
      what: text,
      ...(expected ? { expected } : {}),
      got: what,
      operation: row.operation,
      findings: withRejects(findings),
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
    m.exercise(stepKeys(postNew, [], m.records));
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
