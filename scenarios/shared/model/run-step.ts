/**
 * Running one step of the state table against the deployment and judging it: the request outcome
 * the seeds call for from the records' states, the model moved as the row says, the whole
 * observable state (scenarios/shared/model/oracle.ts) and the reply members. The walks' commands
 * (commands.ts) and the scripted single checks (scenarios/shared/script.ts) both run their steps
 * through runStep.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md,
 * "States and transitions".
 */
import { describeReply } from '../../../harness/check.js';
import { type Reply, isRejection } from '../../../harness/reply.js';
import { type ClauseFinding, ConformanceFailure } from '../../../harness/verdict.js';
import { type Cite, type Clause, type Finding, finding } from '../../../specs/common/clause.js';
import { type Applied, applyStep, emptyApplied, replyContextBefore } from '../../../specs/common/state-engine.js';
import { type RequestOutcome, type RowSpec, rowOf } from '../../../specs/common/state-spec.js';
import { citeOf } from '../../../specs/services.js';
import { addHistory, historyTags } from './coverage.js';
import { type IdentityModel, type ModelRecord, isLive } from './identity-model.js';
import { judgeState } from './oracle.js';
import { ORACLE_CLAUSE_IDS } from './oracle-clauses.js';
import { ALLOWED_STEP_REJECTED, EXCLUDED_RECORD_JOINED, FORBIDDEN_STEP_ACCEPTED, NEITHER_ACCEPTED_NOR_REJECTED } from './step-clauses.js';
import type { WalkReal } from './walk-real.js';

/** A record's source as requests name it. */
export const src = (r: ModelRecord) => ({ name: r.source.name, id: r.source.id });

/** One kind of step: the row it runs, the records it names (chosen by `pick`) and what it sends. */
export interface StepKind {
  name: string;
  /** The state-table row (specs/<service>/state-spec.ts, by step name). */
  row: string;
  /** How many records the step names. */
  roles: 0 | 1 | 2;
  /** The role of each named record, for coverage keys (one-record steps: none). */
  roleNames: readonly string[];
  /** Candidate records (or pairs) that make the step interesting from the current state. */
  fit(m: IdentityModel): ModelRecord[][];
  describe(recs: ModelRecord[]): string;
  content(w: WalkReal, m: IdentityModel, recs: ModelRecord[]): Record<string, unknown>;
  /** Adds to the model what an accepted step creates (a posted record); returns records whose identity follows the deployment. */
  created?(m: IdentityModel, reply: Reply, w: WalkReal): string[];
  /** Further requests right after an accepted step (before the state is observed); the problems count when the step was allowed. */
  probe?(w: WalkReal, m: IdentityModel, recs: ModelRecord[]): Promise<string[]>;
  /** The record whose state carries the step's effect (a merge: the retired record); the history it leaves lasts while that holds. */
  bond?(recs: ModelRecord[]): ModelRecord | undefined;
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

/**
 * The categories a step exercises (specs/common/categories.ts), as the model stood before it: per
 * named record, by its role in the row, how many live records its identity held (1, 2, 3+) and
 * whether sources were merged into it.
 */
export function stepCategories(m: IdentityModel, row: RowSpec, recs: ModelRecord[]): string[] {
  return recs.flatMap((r, i) => {
    const role = row.roles[i] ?? 'source';
    const n = isLive(r) ? m.members(r.group).length : 0;
    return [
      ...(n ? [`identity-of-${role}:${n >= 3 ? '3+' : n}`] : []),
      ...(m.retiredInto(r).length ? [`merged-into-${role}`] : []),
      // A soft-deleted record keeps the identity it left: does it still have live records?
      ...(row.step === 'restore' && r.state === 'soft-deleted' ? [`restore:former-${m.members(r.group).length ? 'alive' : 'gone'}`] : []),
    ];
  });
}

/** The findings' observations, each once (two reads can find the same deviation). */
export const texts = (findings: Finding[]) => [...new Set(findings.map((f) => f.observed))];

/** Every clause a step's finding may name, by ID: the oracle's, the step's own and the state table's reply clauses. */
const CLAUSES_BY_ID = new Map<string, Clause>([
  ...ORACLE_CLAUSE_IDS,
  ...[ALLOWED_STEP_REJECTED, FORBIDDEN_STEP_ACCEPTED, NEITHER_ACCEPTED_NOR_REJECTED, EXCLUDED_RECORD_JOINED].map((c) => [c.id, c] as const),
]);

/** Findings as a failure carries them: each with what its clause rejects (a reply clause's own words, or the clause table's). */
export function withRejects(findings: Finding[]): ClauseFinding[] {
  return findings.map((f) => ({
    ...f,
    rejects: (f as Finding & { rejects?: string }).rejects ?? CLAUSES_BY_ID.get(f.clause)?.rejects ?? f.clause,
  }));
}

/** How a step was judged: everything (walks), or, for a scripted single check, its own requirements at its judged step. */
export interface StepJudgement {
  /** Judge only problems citing these requirements (a single check's own); absent: every problem. */
  only?: readonly string[];
}

/**
 * Runs one step and judges it against the specification: the request outcome (allowed steps must
 * succeed, rejected ones fail), the model moved as the row says, the whole observable state
 * (oracle), and the reply members. Records the step's change for the feed judgement when its row
 * has one. Returns the reply.
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
  const c = w.config;
  const row = rowOf(c.spec, k.row);
  w.beginStep(text);
  const request: RequestOutcome = row.request(m, recs);
  const fail = (findings: Finding[], what: string, expected?: string): never => {
    throw new StepFailure([...new Set(findings.map((f) => f.requirement))], `step ${w.steps.length - w.startSteps}, ${text}: ${what}`, {
      what: `${text}`,
      ...(expected ? { expected } : {}),
      got: what,
      operation: row.operation,
      findings: withRejects(findings),
    });
  };
  const judged = (f: Finding) => !judgement.only || judgement.only.includes(f.requirement);
  const kept = (fs: Finding[]) => fs.filter((f) => !w.t.disabled.has(f.requirement) && judged(f));
  const started = Date.now();
  const undecided = new Set(
    m.records
      .filter((r) => r.state === 'unknown')
      .map((r) => m.lastLinkOf.get(r.label))
      .filter((l): l is string => Boolean(l)),
  );
  const replyContext = replyContextBefore(m, row, recs, m.lastLinks, (r) => src(r as ModelRecord), undecided);
  const categories = stepCategories(m, row, recs);
  const feedIds = [...recs.flatMap((r) => [r.source.id, ...(isLive(r) && m.lastLinks.get(r.group) ? [m.lastLinks.get(r.group)!] : [])])];
  const reply = await w.call(row.operation, k.content(w, m, recs));
  w.assertNoServerError(reply, row.operation);
  const accepted = reply.success === true && (reply.status ?? 0) < 300;
  const rejected = isRejection(reply);
  w.count(`${k.name}:${request.verdict}:${accepted ? 'ok' : 'rejected'}`);
  const requestCite: Cite = { requirement: request.requirement ?? row.effectRequirement, forbids: request.seed };
  if (!accepted && !rejected) {
    const observed = `neither a success nor a rejection: ${describeReply(reply)}`;
    fail(
      [finding(NEITHER_ACCEPTED_NOR_REJECTED, citeOf(c.requirements.noServerError), observed)],
      observed,
      'a success, or a rejection carried in the envelope',
    );
  }
  if (request.verdict === 'allow' && rejected) {
    const observed = `the state table allows ${row.operation} from these states, but it was rejected: ${describeReply(reply)}`;
    fail(
      [finding(ALLOWED_STEP_REJECTED, requestCite, observed)],
      observed,
      `${row.operation} succeeds: the seeds allow it from that state`,
    );
  }
  if (request.verdict === 'reject' && accepted) {
    const observed = `the seeds do not allow ${row.operation} here, but it succeeded`;
    fail(
      [finding(FORBIDDEN_STEP_ACCEPTED, requestCite, observed)],
      observed,
      `a rejection: the seeds do not allow ${row.operation} from that state`,
    );
  }
  if (accepted && k.probe) {
    const found = await k.probe(w, m, recs);
    if (request.verdict === 'allow' && found.length)
      fail(
        found.map((observed) => finding(EXCLUDED_RECORD_JOINED, { requirement: row.effectRequirement, forbids: row.seed }, observed)),
        found.join('; '),
      );
  }
  const tags = historyTags(k, recs, m.records);
  const holds = request.verdict === 'allow' || (request.verdict === 'open' && row.openApplies === true);
  let applied: Applied = emptyApplied(recs.map((r) => r.label));
  if (accepted && k.created) applied.follow = k.created(m, reply, w).map((label) => ({ label, mustBeLive: true }));
  else if (accepted) applied = applyStep(m, row, recs, request.verdict === 'reject' ? 'inert' : request.verdict, holds);
  if (k.created && accepted) applied.touched.add(m.records.at(-1)!.label);
  if (accepted) addHistory(tags, k.bond?.(recs));
  // What a deviation of a record the step did not move breaks: the step's effect, its inertness, or, after a rejection, nothing changing.
  const step: Cite = !accepted
    ? request.verdict === 'reject'
      ? requestCite
      : { requirement: c.requirements.rejectedNoChange }
    : request.verdict === 'inert'
      ? requestCite
      : { requirement: row.effectRequirement, forbids: row.seed };
  const probes = k.created && accepted ? [m.records.at(-1)!] : recs;
  const before = new Map(m.lastLinks);
  w.lastStep = step;
  // Two identities no step separated that come to share a link ID: after a post, matching joined what was generated far apart (EXPECT).
  const joined: Cite = k.created ? { requirement: c.requirements.apart } : step;
  const { findings, links, linkOf } = await observe(m, w, { applied, step, joined, probes, before, posted: Boolean(k.created) }, kept);
  if (findings.length)
    fail(
      findings,
      `${accepted ? 'after it succeeded' : `after it was rejected (${describeReply(reply)})`} the deployment differs from the model [${m.describe()}]:\n  - ${texts(findings).join('\n  - ')}`,
      `after the step, as the state table says: ${modelInWords(m)}`,
    );
  if (accepted && request.verdict === 'allow') {
    const ctx = replyContext(links);
    const wrong = row.reply.flatMap((clause) =>
      clause.judge(reply.content ?? {}, ctx).map((observed) => ({
        ...finding(clause, { requirement: clause.requirement, forbids: clause.seed }, observed),
        rejects: clause.rejects,
        what: clause.what,
      })),
    );
    const left = kept(wrong);
    if (left.length) fail(left, texts(left).join('; '), [...new Set(wrong.filter((f) => left.includes(f)).map((f) => f.what))].join('; '));
    // The step was allowed and judged in full: its categories count for the row's requirements.
    for (const requirement of new Set([row.effectRequirement, row.replyRequirement, ...row.effects.map((e) => e.requirement)]))
      if (requirement) for (const category of categories) w.t.exercised(requirement, category);
    for (const clause of row.reply)
      if (clause.category && reply.content?.[clause.category.member] != null) w.t.exercised(clause.requirement, clause.category.id);
    if (row.feed && !w.t.disabled.has(row.feed.requirement) && judged({ clause: '', requirement: row.feed.requirement, observed: '' }))
      w.feedEvents.push({
        step: text,
        requirement: row.feed.requirement,
        forbids: row.feed.seed,
        ids: [
          ...new Set([
            ...feedIds,
            ...probes.flatMap((r) => [r.source.id, ...(isLive(r) && links.get(r.group) ? [links.get(r.group)!] : [])]),
          ]),
        ],
        at: started,
      });
  }
  m.remember(links, linkOf);
  return reply;
}

/**
 * Observes the deployment until it agrees with the model or the consistency budget is spent
 * (reads may lag writes), judging the problems `kept` keeps. Returns those left and each model
 * identity's link ID.
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
