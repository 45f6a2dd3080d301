/**
 * Generated bad input: fast-check builds structurally invalid request content per operation, derived from the
 * operations table's zod request schemas, sends it, and checks that it is rejected (HTTP 4xx or success=false), never
 * answered success=true and never HTTP 5xx, and that it changed nothing: the lane's own records it names (two posted at
 * the lane's start) resolve to the same link IDs with the same identity content afterwards, and a postIdentity's new
 * source was not stored.
 *
 * What is generated, per member the schema describes: scenarios/shared/bad-input-sites.ts.
 *
 * Budget: CONFORMANCE_BAD_INPUTS requests per check; by default 60 against the embedded reference and 15 against a
 * configured deployment, split among lanes that run side by side (one per BAD_INPUTS_PER_LANE requests, at most
 * BAD_INPUT_LANES), each on its own two records. Seeded from the check's Faker (run seed + check ID); a failing request
 * is shrunk by fast-check and printed with its reply and a replay command.
 *
 * Source: organization-identity-api.md, Resources ("Field data types"), Endpoints rule 1, Errors;
 * person-provider-identity-api.md, Resources, Limits, Errors.
 */
import fc from 'fast-check';
import type { Check } from '../../harness/check.js';
import { describeReply } from '../../harness/check.js';
import { type Reply, answerOf, isAbsent } from '../../harness/reply.js';
import {
  BAD_INPUT_ACCEPTED,
  BAD_INPUT_RETRYABLE,
  BAD_INPUT_UNANSWERED,
  REJECTED_CHANGED,
  SERVER_ERROR,
  badInputRetryable,
  badInputUnanswered,
  invalidAccepted,
  rejectedChanged,
  serverError,
} from '../../specs/clauses/bad-input.js';
import { runInfo, verboseLine } from '../../harness/targets.js';
import { ConformanceFailure, CouldNotJudge } from '../../harness/verdict.js';
import type { SourceRef } from '../../specs/common/wire.js';
import { src } from './requests.js';
import type { OperationName } from '../../specs/common/operation-names.js';
import { SERVICES, requirementFor } from '../../specs/services.js';
import { postContent } from '../../generators/common.js';
import {
  type BadInputConfig,
  type BadInputContext,
  type Site,
  baseContents,
  roleId,
  setAt,
  sitesOf,
} from './bad-input-sites.js';

/**
 * Judges the reply to a request sent wrong on purpose (`what`): not accepted, answered as a rejection (HTTP 4xx or
 * success=false), not marked retryable; `ids` name the service's requirements for the first two and the third.
 * @throws ConformanceFailure as Check.judge
 */
export function judgeRejected(t: Check, r: Reply, what: string, ids: { rejected: string; notRetryable: string }): void {
  t.judge(BAD_INPUT_ACCEPTED, ids.rejected, invalidAccepted(what, answerOf(r)), r);
  t.judge(BAD_INPUT_UNANSWERED, ids.rejected, badInputUnanswered(what, answerOf(r)), r);
  t.judge(BAD_INPUT_RETRYABLE, ids.notRetryable, badInputRetryable(what, r.body?.retryableError), r);
}

/** Bad-input requests per check for this run (resolved once by the run's setup: harness/config.ts resolveBudgets). */
export function badInputBudget(): number {
  return runInfo().budgets.badInputs;
}

interface Snapshot {
  linkId?: string;
  identity: string;
}

/**
 * A lane record as a nativeIdQuery reply shows it: the link ID it resolves to and its identity's content, or why none.
 */
const snapshotOf = (r: Reply): Snapshot =>
  isAbsent(r)
    ? { identity: describeReply(r) }
    : { linkId: String(r.content?.linkId), identity: JSON.stringify(r.content?.identity ?? null) };

const clip = (text: string, n = 1200) =>
  text.length > n ? `${text.slice(0, n)}... [${text.length - n} more characters]` : text;

/** Requirement IDs a bad-input check of this configuration may cite. */
export const badInputRequirementIds = (config: BadInputConfig) => [
  ...(
    [
      'badInput.generated',
      'badInput.noServerError',
      'badInput.rejectedNoChange',
      'search.maxPositive',
      'badInput.dataSourceLimit',
    ] as const
  ).flatMap((role) => requirementFor(config.service, role) ?? []),
];

/**
 * Lanes of a bad-input check: its budget is split among lanes that run side by side, each with its own two records,
 * fast-check seed and share of the requests. A lane's requests name only its own records and it compares only those, so
 * what a lane finds is its own request's doing, and against a distant deployment the check ends in well under half the
 * time it took as one chain (6.3 -> 2.5 s at 150 ms, docs/performance.md).
 */
export const BAD_INPUT_LANES = 3;

/**
 * Generated requests per lane, at least: a lane costs its two records (two posts, two lookups and their two removals at
 * the end of the run). The bad-input files run last of their service (they are isolated), so a lane's chain is the
 * run's tail on that service: against a distant deployment each generated request and its lookup take two round trips
 * one after another. The default budget against a configured deployment (15) runs in 3 lanes of 5 (a chain of about 10
 * round trips instead of 30: 1.5 -> 0.6 s at 50 ms, docs/performance.md item 40), the one against the embedded
 * reference (60) in 3 lanes of 20.
 */
export const BAD_INPUTS_PER_LANE = 5;

/** Lanes of a check of `budget` generated requests: one per BAD_INPUTS_PER_LANE, 1 to BAD_INPUT_LANES. */
export const lanesFor = (budget: number) =>
  Math.max(1, Math.min(BAD_INPUT_LANES, Math.ceil(budget / BAD_INPUTS_PER_LANE)));

/** What one lane draws from the check's Faker before anything is sent. */
interface LanePlan {
  seed: number;
  runs: number;
  a: { source: SourceRef; identity: Record<string, unknown> };
  b: { source: SourceRef; identity: Record<string, unknown> };
  fresh: SourceRef;
  freshIdentity: Record<string, unknown>;
}

/**
 * Per site (operation, member, kind): whether its requests may be sent; shared by a check's lanes, sampled with the
 * first lane's seed.
 */
interface Sendable {
  seed: number;
  verdicts: Map<string, boolean>;
}

interface LaneResult {
  details: { failed: boolean; numShrinks: number; errorInstance: unknown };
  last?: { op: string; kind: string; content: unknown; reply?: Reply; error: unknown };
  tally: Map<string, number>;
  sites: number;
}

/**
 * Runs the generated bad-input requests of one service inside a check, in BAD_INPUT_LANES lanes.
 * @throws ConformanceFailure with the shrunk request, its reply and a replay command (the first failing lane's, in lane
 *   order).
 */
export async function runBadInputs(
  t: Check,
  config: BadInputConfig,
  options: { file: string; title: string },
): Promise<void> {
  const budget = badInputBudget();
  const info = runInfo();
  const lanes = lanesFor(budget);
  // Every lane's data is drawn before anything is sent, so a replay draws the same whatever order the replies arrive
  // in.
  const plans: LanePlan[] = Array.from({ length: lanes }, (_, i) => {
    const seed = t.faker.number.int({ min: 0, max: 2 ** 31 - 1 });
    const [a, b, fresh] = [t.source(), t.source(), t.invalidSource()];
    return {
      seed,
      runs: Math.floor(budget / lanes) + (i < budget % lanes ? 1 : 0),
      a: { source: a, identity: config.generate(t, a) },
      b: { source: b, identity: config.generate(t, b) },
      fresh,
      freshIdentity: config.generate(t, fresh),
    };
  });
  const sendable: Sendable = { seed: plans[0]!.seed, verdicts: new Map() };
  const started = Date.now();
  const results = await Promise.all(plans.map((plan) => runLane(t, config, plan, sendable)));
  const replay = `CONFORMANCE_SEED=${info.seed} npm run conformance -- ${options.file} -t '${options.title}'`;
  const tally = new Map<string, number>();
  for (const r of results) for (const [k, n] of r.tally) tally.set(k, (tally.get(k) ?? 0) + n);
  verboseLine(
    `[bad-input] ${t.service}: ${budget} generated requests over ${results[0]!.sites} sites in ${lanes} lanes, ` +
      `seeds ${plans.map((p) => p.seed).join('/')} (run seed ${info.seed}), ${Date.now() - started} ms; ` +
      `${[...tally].map(([k, n]) => `${k} ${n}`).join(', ')}`,
  );
  const failed = results.findIndex((r) => r.details.failed);
  if (failed < 0) return;
  const { details, last } = results[failed]!;
  const error = last?.error ?? details.errorInstance;
  if (!(error instanceof ConformanceFailure)) throw error instanceof Error ? error : new Error(String(error));
  if (last?.reply) t.exchanges.push(last.reply.exchange);
  throw new ConformanceFailure(
    error.requirements,
    `generated bad input was not handled as bad input; fast-check shrank it (${details.numShrinks} shrinks) to:\n` +
      `  ${last?.op} ${clip(JSON.stringify(last?.content))}\n` +
      `failure: ${error.message.replace(/^\[[^\]]*\] /, '')}\n` +
      `lane ${failed + 1} of ${lanes}, seed ${plans[failed]!.seed}, run seed ${info.seed}; replay: ${replay}`,
    error.detail.findings ? { findings: error.detail.findings } : {},
  );
}

/**
 * Posts a lane's two records and looks them up: both are posted before either is looked up (the second may join the
 * first's identity); the lookups give their link IDs and are the first snapshots the lane compares with.
 * @throws CouldNotJudge when a record just posted is not found
 */
async function laneRecords(t: Check, plan: LanePlan, generated: string) {
  await Promise.all(
    [plan.a, plan.b].map(({ source, identity }) =>
      t.ok('postIdentity', postContent(identity, source, t.profile.sourcePlacement), { cites: [generated] }),
    ),
  );
  return Promise.all(
    [plan.a, plan.b].map(async ({ source }) => {
      const found = await t.call('nativeIdQuery', { source: src(source) });
      if (isAbsent(found))
        throw new CouldNotJudge(`nativeIdQuery finds no identity for a source just posted: ${describeReply(found)}`);
      return { source, linkId: String(found.content?.linkId), snapshot: snapshotOf(found) };
    }),
  );
}

/**
 * Whether a generated request may be sent: the guard allows it (it names nothing the run does not own). A postIdentity
 * that names no run-owned source (identity.sources of the wrong type) could store a record the ledger does not know:
 * only one without any identity, or naming a run-owned source, is sent.
 */
function mayBeSentAs(t: Check, op: OperationName, content: Record<string, unknown>): boolean {
  const spec = SERVICES[t.service].operations.find((o) => o.name === op)!;
  if (spec.sourcesCreated && content.identity !== undefined && !t.ownsAnySourceCreatedBy(op, content)) return false;
  return t.guardAllows(op, content);
}

/** How the lane's records changed from `was` to `now`, one sentence each (none: nothing changed). */
const changesOf = (now: Snapshot[], was: Snapshot[]): string[] =>
  now
    .map((s, i) => {
      const before = was[i]!;
      const name = `the lane's record ${i ? 'B' : 'A'}`;
      if (s.linkId !== before.linkId)
        return `${name} resolved to ${before.linkId ?? 'nothing'}, now to ${s.linkId ?? 'nothing'}`;
      return s.identity !== before.identity
        ? `${name}'s identity ${s.linkId} was ${clip(before.identity, 300)}, is now ${clip(s.identity, 300)}`
        : '';
    })
    .filter(Boolean);

/**
 * One lane: posts its two records, then sends its share of generated requests one after another, each followed by a
 * look at those of its records it names.
 */
async function runLane(t: Check, config: BadInputConfig, plan: LanePlan, sendable: Sendable): Promise<LaneResult> {
  const [generated, noServerError, noChange] = (
    ['badInput.generated', 'badInput.noServerError', 'badInput.rejectedNoChange'] as const
  ).map((role) => roleId(config.service, role));
  const ids = { generated: generated!, noChange: noChange! };
  const lane = await laneRecords(t, plan, ids.generated);
  const [a, b] = lane;
  const ctx: BadInputContext = {
    t,
    a: a.source,
    b: b.source,
    linkA: a.linkId,
    linkB: b.linkId,
    fresh: plan.fresh,
    identity: plan.freshIdentity,
  };
  const bases = baseContents(ctx);
  const contentFor = (site: Site, value: unknown) =>
    site.content ? site.content(value) : setAt(bases[site.op]!, site.path, value);
  // Sites whose requests may not be sent (they name something the run does not own) are dropped.
  const sites = sitesOf(ctx, config).filter((site) => siteMayBeSent(t, sendable, site, contentFor));
  if (!sites.length) t.skip('no operation has a member whose invalid value the run may send');

  let current = lane.map((r) => r.snapshot);
  let fresh = 0;
  let last: LaneResult['last'];
  const tally = new Map<string, number>();
  const property = fc.asyncProperty(siteAndValue(sites), async ({ site, value }) => {
    let content = contentFor(site, value);
    // postIdentity bases name a source nobody posted; give each request its own.
    let newSource: SourceRef | undefined;
    if (site.op === 'postIdentity' && !site.content) {
      newSource = { name: ctx.fresh.name, id: `${ctx.fresh.id}-${++fresh}` };
      content = JSON.parse(
        JSON.stringify(content).replaceAll(JSON.stringify(ctx.fresh.id), JSON.stringify(newSource.id)),
      );
    }
    fc.pre(mayBeSentAs(t, site.op, content));
    let reply: Reply | undefined;
    try {
      reply = await t.invalid(site.op, content);
      tally.set(site.kind, (tally.get(site.kind) ?? 0) + 1);
      const what = `${site.op} with ${site.kind} at ${site.path.join('.') || '(content)'}`;
      t.judge(SERVER_ERROR, noServerError!, serverError(what, answerOf(reply)), reply);
      // The lane's records the request names and the new source (if any) are looked at together.
      const [after, stored] = await Promise.all([
        lookAt(t, lane, content, current),
        newSource ? t.call('nativeIdQuery', { source: src(newSource) }) : undefined,
      ]);
      const changed = changesOf(after, current);
      current = after;
      if (newSource && stored && !isAbsent(stored))
        changed.push(
          `the new source ${newSource.id} was stored (nativeIdQuery finds identity ${stored.content?.linkId})`,
        );
      judgeHandled(t, ids, site, what, reply, changed);
    } catch (e) {
      last = { op: site.op, kind: site.kind, content, reply, error: e };
      throw e;
    }
  });
  const details = await fc.check(property, {
    seed: plan.seed,
    numRuns: plan.runs,
    endOnFailure: false,
    maxSkipsPerRun: 10,
  });
  return { details, last, tally, sites: sites.length };
}

/**
 * Judges a generated request that was answered without a server error (`what` says what was wrong with it): not
 * accepted, answered, and, rejected, it changed nothing (`changed`: what it changed of the lane's records).
 */
function judgeHandled(
  t: Check,
  ids: { generated: string; noChange: string },
  site: Site,
  what: string,
  reply: Reply,
  changed: string[],
): void {
  const answer = answerOf(reply);
  const accepted = invalidAccepted(what, answer);
  if (accepted.length) {
    const observed = accepted.map((x) => (changed.length ? `${x}; and it changed: ${changed.join('; ')}` : x));
    t.judgeAll(
      [
        { clause: BAD_INPUT_ACCEPTED, requirements: ids.generated, rejected: observed },
        ...(site.clause && site.cites ? [{ clause: site.clause, requirements: site.cites, rejected: observed }] : []),
      ],
      reply,
    );
  }
  t.judge(BAD_INPUT_UNANSWERED, ids.generated, badInputUnanswered(what, answer), reply);
  t.judge(
    REJECTED_CHANGED,
    ids.noChange,
    rejectedChanged(`${what}, rejected (${describeReply(reply)}),`, changed),
    reply,
  );
}

/**
 * The generated site and value of a request: each operation is equally likely, and within it each kind of invalidity,
 * whatever the number of members it applies to.
 */
function siteAndValue(sites: Site[]): fc.Arbitrary<{ site: Site; value: unknown }> {
  const ops = [...new Set(sites.map((x) => x.op))];
  return fc
    .constantFrom(...ops)
    .chain((op) =>
      fc
        .constantFrom(...new Set(sites.filter((x) => x.op === op).map((x) => x.kind)))
        .map((kind) => sites.filter((x) => x.op === op && x.kind === kind)),
    )
    .chain((some) => fc.constantFrom(...some))
    .chain((site) => site.values.map((value) => ({ site, value })));
}

/**
 * Whether a site's requests may be sent: three sampled values each make a request that may (mayBeSentAs). It does not
 * depend on the lane (each names only its own records): judged once per check, in `sendable`.
 */
function siteMayBeSent(
  t: Check,
  sendable: Sendable,
  site: Site,
  contentFor: (site: Site, value: unknown) => Record<string, unknown>,
): boolean {
  const key = `${site.op}|${site.path.join('.')}|${site.kind}`;
  let ok = sendable.verdicts.get(key);
  if (ok === undefined) {
    ok = fc
      .sample(site.values, { seed: sendable.seed, numRuns: 3 })
      .every((v) => mayBeSentAs(t, site.op, contentFor(site, v)));
    sendable.verdicts.set(key, ok);
  }
  return ok;
}

/**
 * What a request can have changed of the lane's records: those it names (by native ID or link ID) are looked up again;
 * the others keep what they showed last (`was`). A request that names neither is followed by no lookup of them.
 */
function lookAt(
  t: Check,
  lane: Array<{ source: SourceRef; linkId: string }>,
  content: unknown,
  was: Snapshot[],
): Promise<Snapshot[]> {
  const text = JSON.stringify(content ?? null);
  return Promise.all(
    lane.map(async (r, i) =>
      text.includes(r.source.id) || text.includes(r.linkId)
        ? snapshotOf(await t.call('nativeIdQuery', { source: src(r.source) }))
        : was[i]!,
    ),
  );
}
