/**
 * Generated bad input: fast-check builds structurally invalid request content per operation, derived from the
 * operations table's zod request schemas, sends it, and checks that it is rejected (HTTP 4xx or success=false), never
 * answered success=true and never HTTP 5xx, and that it changed nothing: the lane's own records it names (two posted at
 * the lane's start) resolve to the same link IDs with the same identity content afterwards, and a postIdentity's new
 * source was not stored.
 *
 * What is generated, per member the schema describes (`Site`):
 * - wrong JSON types that no lenient parser bridges (an object or array where a scalar is expected, a non-numeric
 *   string where a number is, a scalar where an object or array is);
 * - a missing required member (required in the schema);
 * - malformed DATE (yyyy-MM-dd), TIME (HH:mm), DATE-TIME and e-mail values;
 * - out-of-range numbers where the seeds bound them (maxSearchResults <= 0), and per-service extras (person:
 *   createDataSource with more than 10 names).
 * Oversized strings are not generated: the seeds give no size limit ("Limits: not shown"). Members the schema does not
 * describe are left alone (of the profile-named restore / deactivate / reactivate source member only its absence is
 * generated), and a request the client guard would refuse (a source, link ID or name the run does not own) is never
 * sent.
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
import type { z } from 'zod';
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
import { NONPOSITIVE_MAX_ACCEPTED } from '../../specs/clauses/search.js';
import type { Clause } from '../../specs/common/clause.js';
import { runInfo, verboseLine } from '../../harness/targets.js';
import { ConformanceFailure, CouldNotJudge } from '../../harness/verdict.js';
import { TimeString } from '../../specs/common/wire.js';
import type { SourceRef } from '../../specs/common/wire.js';
import type { OperationName } from '../../specs/common/operation-names.js';
import { SERVICES, requirementFor } from '../../specs/services.js';
import type { ServiceName } from '../../specs/common/model.js';

/** The requirement a role names in a service. @throws Error when the catalogue has none (a suite bug). */
const roleId = (service: ServiceName, role: string) => {
  const id = requirementFor(service, role);
  if (!id) throw new Error(`the ${service} catalogue has no requirement for role ${role}`);
  return id;
};
import { postContent } from '../../generators/common.js';
import { type RequestContext, validRequests } from './requests.js';

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

type Path = Array<string | number>;

/** One place in one operation's request where invalid content is generated. */
export interface Site {
  op: OperationName;
  path: Path;
  kind: string;
  /** Invalid values for the member; `undefined` as the only value means "remove the member". */
  values: fc.Arbitrary<unknown>;
  /**
   * Requirements besides the generated-bad-input one a success at this site bears on, and the clause that judges them.
   */
  cites?: string[];
  clause?: Clause;
  /** Replaces the whole content (for cases that are not one member's value, e.g. too many names). */
  content?: (value: unknown) => Record<string, unknown>;
}

/** What the base contents are built from: the lane's two records and a source nobody posted. */
export type BadInputContext = RequestContext;

export interface BadInputConfig {
  /** The service (its catalogue gives the requirements by role: badInput.*, search.maxPositive). */
  service: ServiceName;
  /** A new identity on `source`. */
  generate: (t: Check, source: SourceRef) => Record<string, unknown>;
  /** Sites beyond the schema-derived ones (service rules such as the createDataSource limit). */
  extraSites?: (ctx: BadInputContext) => Site[];
}

const src = (s: SourceRef) => ({ name: s.name, id: s.id });

/** A valid request per operation, naming only the check's own records (scenarios/shared/requests.ts). */
const baseContents = (ctx: BadInputContext) => validRequests(ctx);

/**
 * The member that names the source of restore / deactivate / reactivate: the table's schema does not describe it (its
 * name is a profile setting), so only its absence is generated.
 */
function profileMember(t: Check, op: string): string | undefined {
  const m = t.profile.members;
  return (
    {
      restoreSource: m.restoreSource,
      deactivateSourceWs: m.deactivateSource,
      reactivateSourceWs: m.reactivateSource,
    } as Record<string, string>
  )[op];
}

const def = (s: z.ZodType) =>
  (s as any).def as { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType>; element?: z.ZodType };
function unwrap(s: z.ZodType): z.ZodType {
  let x = s;
  for (let i = 0; i < 10; i++) {
    const d = def(x);
    if (!['optional', 'nullable', 'default', 'readonly', 'nonoptional'].includes(d.type) || !d.innerType) return x;
    x = d.innerType;
  }
  return x;
}

const MALFORMED: Record<string, string[]> = {
  date: ['2021-02-30', '2020/01/31', '31-01-2020', '20200131', '2021-13-01', '2021-1-5', 'yesterday', '2021-02-29'],
  time: ['25:61', '9am', '9:5', '24:00', '12:60', 'noon', '12:00:00 PM'],
  datetime: [
    '2024-01-01 10:00:00',
    '2024-13-01T00:00:00Z',
    '2024-01-01T25:00:00Z',
    'last tuesday',
    '01/02/2024 10:00',
    '2024-02-30T00:00:00Z',
  ],
  email: ['no-at-sign.example', 'a@', '@example.org', 'two@@example.org', 'spaces in@example.org'],
};
const NON_NUMERIC = ['abc', 'ten', 'NaN?', '1,5x', ''];
const object = fc.constant({ unexpected: 'object' });
/** Wrong JSON types per expected type, chosen so that no lenient (coercing) parser accepts them. */
const WRONG: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(object, fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 3 })),
  number: fc.oneof(fc.constantFrom(...NON_NUMERIC), object, fc.constant([1, 2])),
  boolean: fc.oneof(fc.constantFrom('maybe', 'yes please', '2'), object, fc.constant([true, false])),
  array: fc.oneof(fc.integer(), fc.string({ minLength: 1, maxLength: 8 }), object),
  object: fc.oneof(fc.integer(), fc.string({ minLength: 1, maxLength: 8 }), fc.constant([1, 'x'])),
};

/**
 * Every site of one schema node (and below it) in `value`; descends into present objects and the first array element.
 */
function walk(op: OperationName, schema: z.ZodType, value: unknown, path: Path, out: Site[]): void {
  const s = unwrap(schema);
  const d = def(s);
  const required = !schema.safeParse(undefined).success;
  if (path.length && required && value !== undefined)
    out.push({ op, path, kind: 'missing required member', values: fc.constant(undefined) });
  const wrong = WRONG[d.type];
  if (path.length && wrong) out.push({ op, path, kind: `wrong type (expected ${d.type})`, values: wrong });
  if (d.type === 'string') {
    const format = (s as any).format as string | undefined;
    const kind = s === TimeString ? 'time' : format && MALFORMED[format] ? format : undefined;
    if (kind)
      out.push({ op, path, kind: `malformed ${kind.toUpperCase()}`, values: fc.constantFrom(...MALFORMED[kind]!) });
  }
  // Absent members get only their own invalid value (nothing below them is built).
  if (d.type === 'object' && d.shape && value && typeof value === 'object' && !Array.isArray(value))
    for (const [k, member] of Object.entries(d.shape))
      walk(op, member, (value as Record<string, unknown>)[k], [...path, k], out);
  if (d.type === 'array' && d.element && Array.isArray(value) && value.length)
    walk(op, d.element, value[0], [...path, 0], out);
}

/** A copy of `content` with the member at `path` set to `value` (removed when undefined). */
export function setAt(content: Record<string, unknown>, path: Path, value: unknown): Record<string, unknown> {
  // Only the objects on the path are copied; the rest is shared with `content`, which no caller changes (a whole copy
  // of every base for every sampled value held the worker's thread for - 200 ms at a time while replies of other checks
  // waited).
  const copy = (node: unknown): any => (Array.isArray(node) ? [...node] : { ...(node as Record<string, unknown>) });
  const out = copy(content);
  let node: any = out;
  for (const key of path.slice(0, -1)) node = node[key] = copy(node[key]);
  const last = path.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return out;
}

/** Sites of every operation of the service the base contents cover, plus the range rules and the service's extras. */
export function sitesOf(ctx: BadInputContext, config: BadInputConfig): Site[] {
  const { t } = ctx;
  const bases = baseContents(ctx);
  const out: Site[] = [];
  for (const op of SERVICES[t.service].operations) {
    const base = bases[op.name];
    if (!base) continue;
    const member = profileMember(t, op.name);
    if (member)
      out.push({ op: op.name, path: [member], kind: 'missing required member', values: fc.constant(undefined) });
    else walk(op.name, op.request, base, [], out);
  }
  if (bases.demographicsSearch)
    out.push({
      op: 'demographicsSearch',
      path: ['maxSearchResults'],
      kind: 'maxSearchResults not greater than 0',
      values: fc.integer({ min: -1000, max: 0 }),
      cites: [roleId(config.service, 'search.maxPositive')],
      clause: NONPOSITIVE_MAX_ACCEPTED,
    });
  out.push(...(config.extraSites?.(ctx) ?? []));
  return out;
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
 * One lane: posts its two records, then sends its share of generated requests one after another, each followed by a
 * look at those of its records it names.
 */
async function runLane(t: Check, config: BadInputConfig, plan: LanePlan, sendable: Sendable): Promise<LaneResult> {
  const [GENERATED, NO_SERVER_ERROR, NO_CHANGE] = (
    ['badInput.generated', 'badInput.noServerError', 'badInput.rejectedNoChange'] as const
  ).map((role) => roleId(config.service, role));
  const { seed } = plan;
  // Both records are posted before either is looked up (the second may join the first's identity): the lookups give
  // their link IDs and are the first snapshots the lane compares with.
  await Promise.all(
    [plan.a, plan.b].map(({ source, identity }) =>
      t.ok('postIdentity', postContent(identity, source, t.profile.sourcePlacement), { cites: [GENERATED] }),
    ),
  );
  const [a, b] = await Promise.all(
    [plan.a, plan.b].map(async ({ source }) => {
      const found = await t.call('nativeIdQuery', { source: src(source) });
      if (isAbsent(found))
        throw new CouldNotJudge(`nativeIdQuery finds no identity for a source just posted: ${describeReply(found)}`);
      return { source, linkId: String(found.content?.linkId), snapshot: snapshotOf(found) };
    }),
  );
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

  const lookUp = async (s: SourceRef): Promise<Snapshot> =>
    snapshotOf(await t.call('nativeIdQuery', { source: src(s) }));
  const lane = [a, b];
  /**
   * What a request can have changed of the lane's records: those it names (by native ID or link ID) are looked up
   * again; the others keep what they showed last. A request that names neither is followed by no lookup of them.
   */
  const lookAt = (content: unknown, was: Snapshot[]): Promise<Snapshot[]> => {
    const text = JSON.stringify(content ?? null);
    return Promise.all(
      lane.map((r, i) =>
        text.includes(r.source.id) || text.includes(r.linkId) ? lookUp(r.source) : Promise.resolve(was[i]!),
      ),
    );
  };

  // Sites whose requests the guard refuses (they name something the run does not own) are dropped. A postIdentity that
  // names no run-owned source (identity.sources of the wrong type) could store a record the ledger does not know: only
  // one without any identity, or naming a run-owned source, is sent.
  const guarded = (op: OperationName, content: Record<string, unknown>) => {
    const spec = SERVICES[t.service].operations.find((o) => o.name === op)!;
    if (spec.sourcesCreated && content.identity !== undefined && !t.ownsAnySourceCreatedBy(op, content)) return false;
    return t.guardAllows(op, content);
  };
  const contentFor = (site: Site, value: unknown) =>
    site.content ? site.content(value) : setAt(bases[site.op]!, site.path, value);
  // Whether a site's requests may be sent does not depend on the lane (each names only its own records): judged once
  // per check.
  const mayBeSent = (site: Site) => {
    const key = `${site.op}|${site.path.join('.')}|${site.kind}`;
    let ok = sendable.verdicts.get(key);
    if (ok === undefined)
      sendable.verdicts.set(
        key,
        (ok = fc
          .sample(site.values, { seed: sendable.seed, numRuns: 3 })
          .every((v) => guarded(site.op, contentFor(site, v)))),
      );
    return ok;
  };
  const sites = sitesOf(ctx, config).filter(mayBeSent);
  if (!sites.length) t.skip('no operation has a member whose invalid value the run may send');

  // Each operation is equally likely, and within it each kind of invalidity, whatever the number of members it applies
  // to.
  const ops = [...new Set(sites.map((x) => x.op))];
  let current = lane.map((r) => r.snapshot);
  let fresh = 0;
  let last: { op: string; kind: string; content: unknown; reply?: Reply; error: unknown } | undefined;
  const tally = new Map<string, number>();
  const property = fc.asyncProperty(
    fc
      .constantFrom(...ops)
      .chain((op) =>
        fc
          .constantFrom(...new Set(sites.filter((x) => x.op === op).map((x) => x.kind)))
          .map((kind) => sites.filter((x) => x.op === op && x.kind === kind)),
      )
      .chain((some) => fc.constantFrom(...some))
      .chain((site) => site.values.map((value) => ({ site, value }))),
    async ({ site, value }) => {
      let content = contentFor(site, value);
      // postIdentity bases name a source nobody posted; give each request its own.
      let newSource: SourceRef | undefined;
      if (site.op === 'postIdentity' && !site.content) {
        newSource = { name: ctx.fresh.name, id: `${ctx.fresh.id}-${++fresh}` };
        content = JSON.parse(
          JSON.stringify(content).replaceAll(JSON.stringify(ctx.fresh.id), JSON.stringify(newSource.id)),
        );
      }
      fc.pre(guarded(site.op, content));
      let reply: Reply | undefined;
      try {
        reply = await t.invalid(site.op, content);
        tally.set(site.kind, (tally.get(site.kind) ?? 0) + 1);
        const what = `${site.op} with ${site.kind} at ${site.path.join('.') || '(content)'}`;
        const answer = answerOf(reply);
        t.judge(SERVER_ERROR, NO_SERVER_ERROR, serverError(what, answer), reply);
        const accepted = invalidAccepted(what, answer);
        // The lane's records the request names and the new source (if any) are looked at together.
        const [after, stored] = await Promise.all([
          lookAt(content, current),
          newSource ? t.call('nativeIdQuery', { source: src(newSource) }) : undefined,
        ]);
        const changed = after
          .map((s, i) => {
            const was = current[i]!;
            const name = `the lane's record ${i ? 'B' : 'A'}`;
            if (s.linkId !== was.linkId)
              return `${name} resolved to ${was.linkId ?? 'nothing'}, now to ${s.linkId ?? 'nothing'}`;
            return s.identity !== was.identity
              ? `${name}'s identity ${s.linkId} was ${clip(was.identity, 300)}, is now ${clip(s.identity, 300)}`
              : '';
          })
          .filter(Boolean);
        current = after;
        if (newSource && stored && !isAbsent(stored))
          changed.push(
            `the new source ${newSource.id} was stored (nativeIdQuery finds identity ${stored.content?.linkId})`,
          );
        if (accepted.length) {
          const observed = accepted.map((x) => (changed.length ? `${x}; and it changed: ${changed.join('; ')}` : x));
          t.judgeAll(
            [
              { clause: BAD_INPUT_ACCEPTED, requirements: GENERATED, rejected: observed },
              ...(site.clause && site.cites
                ? [{ clause: site.clause, requirements: site.cites, rejected: observed }]
                : []),
            ],
            reply,
          );
        }
        t.judge(BAD_INPUT_UNANSWERED, GENERATED, badInputUnanswered(what, answer), reply);
        t.judge(
          REJECTED_CHANGED,
          NO_CHANGE,
          rejectedChanged(`${what}, rejected (${describeReply(reply)}),`, changed),
          reply,
        );
      } catch (e) {
        last = { op: site.op, kind: site.kind, content, reply, error: e };
        throw e;
      }
    },
  );
  const details = await fc.check(property, { seed, numRuns: plan.runs, endOnFailure: false, maxSkipsPerRun: 10 });
  return { details, last, tally, sites: sites.length };
}
