/**
 * Running one step of the state table against the deployment and judging it: the request outcome the seeds call for
 * from the records' states, the model moved as the row says, the whole observable state
 * (scenarios/shared/walk/oracle.ts) and the reply members. The walks' commands (commands.ts) and the scripted single
 * checks (scenarios/shared/script.ts) both run their steps through runStep.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import { describeReply } from '../../../harness/check.js';
import { type Reply, isRejection } from '../../../harness/reply.js';
import { ConformanceFailure } from '../../../harness/verdict.js';
import { type Cite, type Finding, finding } from '../../../specs/common/clause.js';
import { type Applied, applyStep, emptyApplied, replyContextBefore } from '../../../specs/state/state-engine.js';
import type { RequestOutcome, RowSpec } from '../../../specs/state/state-spec.js';
import type { StepName } from '../../../specs/state/step-names.js';
import { citeOf } from '../../../specs/services.js';
import { type IdentityModel, type ModelRecord, isLive } from '../../../specs/state/identity-model.js';
import { judgeState } from './oracle.js';
import { withRejects } from '../../../specs/clause-registry.js';
import {
  ALLOWED_STEP_REJECTED,
  EXCLUDED_RECORD_JOINED,
  FORBIDDEN_STEP_ACCEPTED,
  NEITHER_ACCEPTED_NOR_REJECTED,
} from '../../../specs/state/step-clauses.js';
import type { WalkReal } from './walk-real.js';

/** A record's source as requests name it. */
export const src = (r: ModelRecord) => ({ name: r.source.name, id: r.source.id });

/** One kind of step: the row it runs, the records it names (chosen by `pick`) and what it sends. */
export interface StepKind {
  /** The row's step name. */
  name: StepName;
  /** The state-table row it runs (specs/<service>/state-spec.ts): its operation, roles and outcomes. */
  row: RowSpec;
  /** How many records the step names. */
  roles: 0 | 1 | 2;
  describe(recs: ModelRecord[]): string;
  content(w: WalkReal, m: IdentityModel, recs: ModelRecord[]): Record<string, unknown>;
  /**
   * Adds to the model what an accepted step creates (a posted record); returns records whose identity follows the
   * deployment.
   */
  created?(m: IdentityModel, reply: Reply, w: WalkReal): string[];
  /**
   * Further requests right after an accepted step (before the state is observed); the problems count when the step was
   * allowed.
   */
  probe?(w: WalkReal, m: IdentityModel, recs: ModelRecord[]): Promise<string[]>;
}

/** A step failed: carries the requirement IDs and the step text. */
export class StepFailure extends ConformanceFailure {}

/** The model's records in words, for what a failure expected: "A active in identity 1, B retired into A". */
export const modelInWords = (m: IdentityModel) =>
  m.records
    .map((r) =>
      isLive(r)
        ? `${r.label} ${r.state} in identity ${r.group}`
        : r.retiredInto
          ? `${r.label} retired into ${r.retiredInto}`
          : `${r.label} ${r.state}`,
    )
    .join(', ');

/** The findings' observations, each once (two reads can find the same deviation). */
export const texts = (findings: Finding[]) => [...new Set(findings.map((f) => f.observed))];

/**
 * How a step was judged: everything (walks), or, for a scripted single check, its own requirements at its judged step.
 */
export interface StepJudgement {
  /** Judge only problems citing these requirements (a single check's own); absent: every problem. */
  only?: readonly string[];
}

/** A step under way: what the parts of runStep share. */
interface StepRun {
  readonly k: StepKind;
  readonly m: IdentityModel;
  readonly w: WalkReal;
  /** The records the step names, in the order of the row's roles. */
  readonly recs: ModelRecord[];
  /** The step in words, as a failing walk lists it. */
  readonly text: string;
  readonly row: RowSpec;
  /** What the state table says of the request from the named records' states before the step. */
  readonly request: RequestOutcome;
  /** What a wrong outcome of the request breaks: the outcome's own requirement, else the row's effect. */
  readonly requestCite: Cite;
  readonly judgement: StepJudgement;
}

/** What the step is judged against that the step itself changes, so it is read before the request. */
interface BeforeStep {
  /** When the request was about to be sent: the feed's notice of the change is not older. */
  started: number;
  /** The context of the row's reply clauses, given the link IDs observed after the step. */
  replyContext: ReturnType<typeof replyContextBefore>;
  /** Source IDs and link IDs the feed's notice of the change may name. */
  feedIds: string[];
}

/** What the deployment answered to the step's request. */
interface Sent {
  reply: Reply;
  accepted: boolean;
  rejected: boolean;
}

/** What the observation after the step found: each model identity's and each record's link ID. */
interface Seen {
  links: Map<number, string>;
  linkOf: Map<string, string | undefined>;
  /** The records searched with (ObservePlan.probes): the step's, or the one it posted. */
  probes: ModelRecord[];
}

/** True when the step judges problems citing `requirement` (a scripted single check judges only its own). */
const judges = (s: StepRun, requirement: string) => !s.judgement.only || s.judgement.only.includes(requirement);

/** The findings the step judges: not switched off for the check (Check.disabled), and within its judgement. */
const keptFindings = (s: StepRun, findings: Finding[]) =>
  findings.filter((f) => !s.w.t.disabled.has(f.requirement) && judges(s, f.requirement));

/**
 * A walk's failure from its findings: titled `title`, citing the requirements of `findings`; `what` the walk did,
 * what it `got` and what was `expected`, at `operation`.
 * @returns a StepFailure for the caller to throw
 */
export function findingsFailure(
  findings: Finding[],
  title: string,
  o: { what: string; expected?: string; got: string; operation: string },
): StepFailure {
  return new StepFailure([...new Set(findings.map((f) => f.requirement))], title, {
    what: o.what,
    ...(o.expected ? { expected: o.expected } : {}),
    got: o.got,
    operation: o.operation,
    findings: withRejects(findings),
  });
}

/** The failure of the step, numbered as the walk lists it: `what` it got, and what was `expected`. */
const stepFailure = (s: StepRun, findings: Finding[], what: string, expected?: string) =>
  findingsFailure(findings, `step ${s.w.steps.length - s.w.startSteps}, ${s.text}: ${what}`, {
    what: s.text,
    expected,
    got: what,
    operation: s.row.operation,
  });

/** Reads from the model, before the step moves it, what the reply and the feed are judged against. */
function readBefore(s: StepRun): BeforeStep {
  const { m, row, recs } = s;
  const started = Date.now();
  // An identity a source of unknown state last resolved to may still hold it (ReplyContext heldUndecided).
  const undecided = new Set(
    m.records
      .filter((r) => r.state === 'unknown')
      .map((r) => m.lastLinkOf.get(r.label))
      .filter((l): l is string => Boolean(l)),
  );
  return {
    started,
    replyContext: replyContextBefore(m, row, recs, m.lastLinks, (r) => src(r as ModelRecord), undecided),
    feedIds: [
      ...recs.flatMap((r) => [
        r.source.id,
        ...(isLive(r) && m.lastLinks.get(r.group) ? [m.lastLinks.get(r.group)!] : []),
      ]),
    ],
  };
}

/**
 * Sends the step's request and counts its outcome in the walk's tally (kind:verdict:outcome).
 * @returns the reply, and whether it was a success, a rejection or neither
 * @throws what WalkReal.call throws (CouldNotJudge) and, for a server error, ConformanceFailure
 *   (WalkReal.assertNoServerError)
 */
async function sendStep(s: StepRun): Promise<Sent> {
  const { k, m, w, recs, row } = s;
  const reply = await w.call(row.operation, k.content(w, m, recs));
  w.assertNoServerError(reply, row.operation);
  const accepted = reply.success === true && (reply.status ?? 0) < 300;
  w.count(`${k.name}:${s.request.verdict}:${accepted ? 'ok' : 'rejected'}`);
  return { reply, accepted, rejected: isRejection(reply) };
}

/**
 * Judges the request's outcome against the row: a success or a rejection at all, and the one the seeds call for from
 * the named records' states (an open outcome may go either way).
 * @throws StepFailure for a reply that is neither, an allowed step rejected or a forbidden one accepted
 */
function judgeOutcome(s: StepRun, { reply, accepted, rejected }: Sent): void {
  const { row, request, requestCite } = s;
  if (!accepted && !rejected) {
    const observed = `neither a success nor a rejection: ${describeReply(reply)}`;
    throw stepFailure(
      s,
      [finding(NEITHER_ACCEPTED_NOR_REJECTED, citeOf(s.w.config.requirements.noServerError), observed)],
      observed,
      'a success, or a rejection carried in the envelope',
    );
  }
  if (request.verdict === 'allow' && rejected) {
    const observed = `the state table allows ${row.operation} from these states, but it was rejected: ${describeReply(reply)}`;
    throw stepFailure(
      s,
      [finding(ALLOWED_STEP_REJECTED, requestCite, observed)],
      observed,
      `${row.operation} succeeds: the seeds allow it from that state`,
    );
  }
  if (request.verdict === 'reject' && accepted) {
    const observed = `the seeds do not allow ${row.operation} here, but it succeeded`;
    throw stepFailure(
      s,
      [finding(FORBIDDEN_STEP_ACCEPTED, requestCite, observed)],
      observed,
      `a rejection: the seeds do not allow ${row.operation} from that state`,
    );
  }
}

/**
 * Sends the kind's further requests after an accepted step (StepKind.probe: the exact copy of a deactivated record) and
 * judges what they found when the step was allowed.
 * @throws StepFailure citing the row's effect requirement when the probe found a problem
 */
async function probeStep(s: StepRun, { accepted }: Sent): Promise<void> {
  const { k, w, m, recs, row } = s;
  if (!accepted || !k.probe) return;
  const found = await k.probe(w, m, recs);
  if (s.request.verdict === 'allow' && found.length)
    throw stepFailure(
      s,
      found.map((observed) =>
        finding(EXCLUDED_RECORD_JOINED, { requirement: row.effectRequirement, forbids: row.seed }, observed),
      ),
      found.join('; '),
    );
}

/**
 * Moves the model as the row says an accepted step does (a rejected one moves nothing; an open outcome moves it only
 * where the row says it then applies).
 * @returns what the step moved, for the observation: the records touched and those to follow
 */
function applyToModel(s: StepRun, { reply, accepted }: Sent): Applied {
  const { k, m, w, recs, row, request } = s;
  const holds = request.verdict === 'allow' || (request.verdict === 'open' && row.openApplies === true);
  let applied: Applied = emptyApplied(recs.map((r) => r.label));
  if (accepted && k.created) applied.follow = k.created(m, reply, w).map((label) => ({ label, mustBeLive: true }));
  else if (accepted) applied = applyStep(m, row, recs, request.verdict === 'reject' ? 'inert' : request.verdict, holds);
  if (k.created && accepted) applied.touched.add(m.records.at(-1)!.label);
  return applied;
}

/**
 * What a deviation of a record the step did not move breaks: the step's effect, its inertness, or, after a rejection,
 * nothing changing.
 */
function deviationCite(s: StepRun, accepted: boolean): Cite {
  const { row, request, requestCite } = s;
  if (!accepted)
    return request.verdict === 'reject' ? requestCite : { requirement: s.w.config.requirements.rejectedNoChange };
  return request.verdict === 'inert' ? requestCite : { requirement: row.effectRequirement, forbids: row.seed };
}

/**
 * Observes the deployment after the step until it agrees with the moved model or the consistency budget is spent, and
 * judges the whole observable state (oracle.ts).
 * @returns what the observation found (Seen)
 * @throws StepFailure when the deployment still differs from the model; CouldNotJudge when it could not answer
 */
async function observeStep(s: StepRun, { reply, accepted }: Sent, applied: Applied): Promise<Seen> {
  const { k, m, w, recs } = s;
  const step = deviationCite(s, accepted);
  const probes = k.created && accepted ? [m.records.at(-1)!] : recs;
  const before = new Map(m.lastLinks);
  w.lastStep = step;
  // Two identities no step separated that come to share a link ID: after a post, matching joined what was generated far
  // apart (EXPECT).
  const joined: Cite = k.created ? { requirement: w.config.requirements.apart } : step;
  const { findings, links, linkOf } = await observe(
    m,
    w,
    { applied, step, joined, probes, before, posted: Boolean(k.created) },
    (fs) => keptFindings(s, fs),
  );
  if (findings.length)
    throw stepFailure(
      s,
      findings,
      `${accepted ? 'after it succeeded' : `after it was rejected (${describeReply(reply)})`} the deployment ` +
        `differs from the model [${m.describe()}]:\n  - ${texts(findings).join('\n  - ')}`,
      `after the step, as the state table says: ${modelInWords(m)}`,
    );
  return { links, linkOf, probes };
}

/**
 * Judges the reply members of an allowed step that succeeded by the row's reply clauses, in the context the model stood
 * in before the step and the link IDs observed after it.
 * @throws StepFailure citing the reply clauses broken
 */
function judgeReplyMembers(s: StepRun, reply: Reply, before: BeforeStep, seen: Seen): void {
  const ctx = before.replyContext(seen.links);
  const wrong = s.row.reply.flatMap((clause) =>
    clause.judge(reply.content ?? {}, ctx).map((observed) => ({
      ...finding(clause, { requirement: clause.requirement, forbids: clause.seed }, observed),
      rejects: clause.rejects,
      what: clause.what,
    })),
  );
  const left = keptFindings(s, wrong);
  if (left.length)
    throw stepFailure(
      s,
      left,
      texts(left).join('; '),
      [...new Set(wrong.filter((f) => left.includes(f)).map((f) => f.what))].join('; '),
    );
}

/** Counts the reply members an allowed step judged in full compared with the request (a reply clause's category). */
function countCategories(s: StepRun, reply: Reply): void {
  const { row, w } = s;
  for (const clause of row.reply)
    if (clause.category && reply.content?.[clause.category.member] != null)
      w.t.exercised(clause.requirement, clause.category.id);
}

/**
 * Records the change of an allowed step that the feed must show (when its row has a feed requirement the step judges),
 * judged when the walk ends.
 */
function expectInFeed(s: StepRun, before: BeforeStep, seen: Seen): void {
  const { row, w } = s;
  if (!row.feed || w.t.disabled.has(row.feed.requirement) || !judges(s, row.feed.requirement)) return;
  w.feedEvents.push({
    step: s.text,
    requirement: row.feed.requirement,
    forbids: row.feed.seed,
    ids: [
      ...new Set([
        ...before.feedIds,
        ...seen.probes.flatMap((r) => [
          r.source.id,
          ...(isLive(r) && seen.links.get(r.group) ? [seen.links.get(r.group)!] : []),
        ]),
      ]),
    ],
    at: before.started,
  });
}

/**
 * Runs one step and judges it against the specification: the request outcome (allowed steps must succeed, rejected ones
 * fail), the model moved as the row says, the whole observable state (oracle), and the reply members. Records the
 * step's change for the feed judgement when its row has one. Returns the reply.
 * @throws StepFailure citing the requirements broken; CouldNotJudge when the deployment could not answer
 */
export async function runStep(
  k: StepKind,
  m: IdentityModel,
  w: WalkReal,
  recs: ModelRecord[],
  text: string,
  judgement: StepJudgement = {},
): Promise<Reply> {
  const row = k.row;
  w.beginStep(text);
  const request = row.request(m, recs);
  const requestCite: Cite = { requirement: request.requirement ?? row.effectRequirement, forbids: request.seed };
  const s: StepRun = { k, m, w, recs, text, row, request, requestCite, judgement };
  const before = readBefore(s);
  const sent = await sendStep(s);
  judgeOutcome(s, sent);
  await probeStep(s, sent);
  const applied = applyToModel(s, sent);
  const seen = await observeStep(s, sent, applied);
  if (sent.accepted && request.verdict === 'allow') {
    judgeReplyMembers(s, sent.reply, before, seen);
    // The step was allowed and judged in full: the reply members it compared count for their clauses.
    countCategories(s, sent.reply);
    expectInFeed(s, before, seen);
  }
  m.remember(seen.links, seen.linkOf);
  return sent.reply;
}

/**
 * Observes the deployment until it agrees with the model or the consistency budget is spent (reads may lag writes),
 * judging the problems `kept` keeps. Returns those left and each model identity's link ID.
 */
export async function observe(
  m: IdentityModel,
  w: WalkReal,
  plan: Parameters<typeof judgeState>[3],
  kept: (fs: Finding[]) => Finding[],
): Promise<{ findings: Finding[]; links: Map<number, string>; linkOf: Map<string, string | undefined> }> {
  const start = m.snapshot();
  return w.t.settle(
    'the deployment agrees with the model',
    async () => {
      m.restore(start);
      const judged = await judgeState(m, w, w.config.spec, plan);
      return { findings: kept(judged.findings), links: judged.links, linkOf: judged.linkOf };
    },
    (o) => o.findings.length === 0,
  );
}
