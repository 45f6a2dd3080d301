/**
 * Failures ordered by cause, as report.html, summary.md and the console list them, so the first failure a reviewer
 * reads is a root cause and not one of its symptoms:
 *
 * - each failing check belongs to the requirement it failed that comes first in its service's state table
 *   (specs/<service>/state-spec.ts: row by row, each row's effect, reply and other requirements; then the feed and
 *   query rules; then the rest of the catalogue in its order);
 * - failures of one requirement at one operation are one cause: its most specific check (the one citing that
 *   requirement, with the fewest others) is the root, the others fail "the same way";
 * - a cause whose checks failed at another operation after sending the operation of an earlier state-table row's broken
 *   effect (an unmerge refused after a merge that did not merge) is "downstream" of that cause and is listed right
 *   after it;
 * - gating failures come before EXPECT-only, pending and known (listed) ones, as before.
 *
 * The failing operation is where the failure happened: the failing step's (walks and scripted checks), else the
 * operation of the exchange it came from.
 */
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES } from '../specs/services.js';
import type { Gate } from './known-failures.js';
import type { CheckResult } from './results.js';

/**
 * How the gate treats a failing check: it gates; it could not judge (the deployment did not
 * answer: the run is INCOMPLETE, whatever the level of the requirements it verifies); it failed
 * EXPECT requirements only; it is pending or a known failure of the known-failures list.
 */
export type GateClass = 'gating' | 'could-not-judge' | 'expect-only' | 'pending' | 'known';
const GATE_ORDER: GateClass[] = ['gating', 'could-not-judge', 'expect-only', 'pending', 'known'];

/** A failing check's place among the run's failures. */
export interface CausePlace {
  /** The requirement it is grouped under. */
  requirement: string;
  /** The operation it failed at, when known. */
  operation?: string;
  /**
   * `root`: the first failure of its cause; `same-cause`: the same requirement failing at the same operation as
   * `cause`; `downstream`: failed at another operation after sending `cause`'s.
   */
  role: 'root' | 'same-cause' | 'downstream';
  /** The root failure this one follows (same-cause, downstream). */
  cause?: { checkId: string; requirement: string; operation?: string };
  /** Failures listed after a root as the same cause or downstream of it. */
  followers: number;
}

const ranks = new Map<string, Map<string, number>>();

/**
 * The state-table order of a service's requirements: every row in order (its effect requirement, its reply requirement,
 * then any other requirement it names), then the feed and the query rules, then the rest of the catalogue in its own
 * order.
 */
export function requirementRank(service: string): Map<string, number> {
  const cached = ranks.get(service);
  if (cached) return cached;
  const spec = SERVICES[service as ServiceName];
  const order: string[] = [];
  if (spec) {
    const ids = new Set(spec.requirements.map((r) => r.id));
    const add = (id: unknown) => {
      if (typeof id === 'string' && ids.has(id) && !order.includes(id)) order.push(id);
    };
    // Any requirement ID a value names, depth first in member order (functions and seed quotes name none).
    const collect = (value: unknown, skip: Set<string> = new Set()) => {
      if (typeof value === 'string') return add(value);
      if (!value || typeof value !== 'object') return;
      for (const [k, v] of Object.entries(value)) if (!skip.has(k)) collect(v, new Set());
    };
    for (const row of spec.stateSpec.rows) {
      add(row.effectRequirement);
      add(row.replyRequirement);
      collect(row, new Set(['feed', 'seed']));
    }
    for (const row of spec.stateSpec.rows) add(row.feed?.requirement);
    collect(spec.stateSpec.queries);
    collect(spec.stateSpec.feed);
    for (const r of spec.requirements) add(r.id);
  }
  const rank = new Map(order.map((id, i) => [id, i]));
  ranks.set(service, rank);
  return rank;
}

/** The requirements a failing check broke: its failed requirements, else (an error) all it verifies. */
const brokenBy = (c: CheckResult) => (c.failedRequirements.length ? c.failedRequirements : c.verifies);

/**
 * A failing check's title as reports show it: a check that failed while setting up (before the step it is about, which
 * it never sent) is shown as such, so its verdict never reads as one on that step.
 */
export const shownTitle = (c: Pick<CheckResult, 'title' | 'failure'>): string =>
  c.failure?.setUp ? `set-up of "${c.title}" failed (${c.failure.setUp})` : c.title;

/**
 * The operation a failure happened at: the failing step's, the failing exchange's, or the operation its finding starts
 * with.
 */
export function failingOperation(c: CheckResult): string | undefined {
  const f = c.failure;
  const named = f?.operation ?? f?.exchange?.operation;
  if (named) return named;
  const first = /^(\w+)/.exec(f?.what ?? '')?.[1];
  const ops: string[] = SERVICES[c.service as ServiceName]?.operations.map((o) => o.name) ?? [];
  return first && ops.includes(first) ? first : undefined;
}

/**
 * A gate class in words, as reports print it: "could not judge", "EXPECT only, not gating", "known", "pending" ("" when
 * it gates).
 */
export const gateWords = (cls: GateClass): string =>
  cls === 'gating'
    ? ''
    : cls === 'expect-only'
      ? 'EXPECT only, not gating'
      : cls === 'could-not-judge'
        ? 'could not judge'
        : cls;

/**
 * How a report marks a failure by its gate class: nothing when it gates, else " [could not judge]", " [known]",
 * " [pending]", " [EXPECT only, not gating]".
 */
export const gateMark = (cls: GateClass): string => (cls === 'gating' ? '' : ` [${gateWords(cls)}]`);

/** How the gate treats a failing check (see GateClass); a check that could not judge is never "EXPECT only". */
export function gateClass(checkId: string, g: Gate): GateClass {
  if (g.gating.includes(checkId)) return 'gating';
  if ((g.incomplete ?? []).includes(checkId)) return 'could-not-judge';
  if (g.expected.some((x) => x.checkId === checkId)) return 'known';
  if (g.pending.some((x) => x.checkId === checkId)) return 'pending';
  return 'expect-only';
}

interface Cluster {
  tier: number;
  service: string;
  serviceIndex: number;
  requirement: string;
  rank: number;
  operation?: string;
  members: CheckResult[];
  upstream?: Cluster;
}

/** A failing check in the run's order of failures: how the gate treats it, and its place among them. */
type Ordered = { check: CheckResult; gate: GateClass; place: CausePlace };

/**
 * Orders the failing checks (fail and error) of a run by cause.
 * @param services the run's services in report order
 * @returns the failing checks in order, each with its place
 */
export function orderByCause(checks: CheckResult[], gate: Gate, services: string[]): Ordered[] {
  const failing = checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error');
  const clusters = causesOf(failing, gate, services);
  for (const cl of clusters) cl.members = rootFirst(cl);
  const sorted = clusters.sort(
    (a, b) =>
      compare([a.tier, a.serviceIndex, a.rank], [b.tier, b.serviceIndex, b.rank]) ||
      a.service.localeCompare(b.service) ||
      (a.operation ?? '').localeCompare(b.operation ?? '') ||
      a.members[0]!.checkId.localeCompare(b.members[0]!.checkId),
  );
  // A cause is downstream of an earlier one whose operation broke its state-table row's effect, when its checks failed
  // at another operation after sending that one.
  for (const cl of sorted) {
    const sent = new Set(cl.members[0]!.operations);
    cl.upstream = sorted.find(
      (up) =>
        up !== cl &&
        !up.upstream &&
        up.tier === cl.tier &&
        up.service === cl.service &&
        up.operation !== undefined &&
        up.operation !== cl.operation &&
        isRowEffect(up.service, up.requirement, up.operation) &&
        sent.has(up.operation) &&
        compare([up.rank], [cl.rank]) <= 0,
    );
  }
  const out: Ordered[] = [];
  const emit = (cl: Cluster) => {
    const followers =
      cl.members.length - 1 + sorted.filter((d) => d.upstream === cl).reduce((n, d) => n + d.members.length, 0);
    cl.members.forEach((check, i) => {
      out.push({ check, gate: GATE_ORDER[cl.tier]!, place: placeIn(cl, i, followers) });
    });
    for (const d of sorted) if (d.upstream === cl) emit(d);
  };
  for (const cl of sorted) if (!cl.upstream) emit(cl);
  return out;
}

/**
 * The causes of the failing checks: one per gate class, service, requirement (the first the check broke in its
 * service's state-table order) and failing operation, its members in the order of the checks.
 */
function causesOf(failing: CheckResult[], gate: Gate, services: string[]): Cluster[] {
  const clusters = new Map<string, Cluster>();
  for (const c of failing) {
    const rank = requirementRank(c.service);
    const broken = brokenBy(c);
    const requirement = [...broken].sort((a, b) => (rank.get(a) ?? 1e9) - (rank.get(b) ?? 1e9))[0] ?? '(none)';
    const operation = failingOperation(c);
    const tier = GATE_ORDER.indexOf(gateClass(c.checkId, gate));
    const key = `${tier}\u0000${c.service}\u0000${requirement}\u0000${operation ?? ''}`;
    let cl = clusters.get(key);
    if (!cl) {
      const serviceIndex = services.indexOf(c.service);
      cl = {
        tier,
        service: c.service,
        serviceIndex: serviceIndex < 0 ? services.length : serviceIndex,
        requirement,
        rank: rank.get(requirement) ?? 1e9,
        ...(operation ? { operation } : {}),
        members: [],
      };
      clusters.set(key, cl);
    }
    cl.members.push(c);
  }
  return [...clusters.values()];
}

/**
 * A cause's members, its root first: the check whose own subject the requirement is, a scripted check before a walk,
 * with the fewest other requirements; after it the other scripted checks, then the walks.
 */
function rootFirst(cl: Cluster): CheckResult[] {
  const walk = (c: CheckResult) => (c.failure?.steps?.length ? 1 : 0);
  const own = (c: CheckResult) => (c.verifies.includes(cl.requirement) ? 0 : 1);
  const byId = (a: CheckResult, b: CheckResult) => a.checkId.localeCompare(b.checkId);
  const rootKey = (c: CheckResult) => [own(c), walk(c), c.verifies.length];
  const restKey = (c: CheckResult) => [walk(c), own(c), c.verifies.length];
  const [root] = [...cl.members].sort((a, b) => compare(rootKey(a), rootKey(b)) || byId(a, b));
  const rest = cl.members.filter((c) => c !== root).sort((a, b) => compare(restKey(a), restKey(b)) || byId(a, b));
  return [root!, ...rest];
}

/** The place of a cause's `i`th member: the root (with its followers), the same cause, or downstream of another. */
function placeIn(cl: Cluster, i: number, followers: number): CausePlace {
  const head = cl.upstream ? cl.upstream.members[0]! : cl.members[0]!;
  const operation = cl.upstream?.operation ?? cl.operation;
  return {
    requirement: cl.requirement,
    ...(cl.operation ? { operation: cl.operation } : {}),
    role: cl.upstream ? 'downstream' : i === 0 ? 'root' : 'same-cause',
    ...(cl.upstream || i > 0
      ? {
          cause: {
            checkId: head.checkId,
            requirement: cl.upstream ? cl.upstream.requirement : cl.requirement,
            ...(operation ? { operation } : {}),
          },
        }
      : {}),
    followers: i === 0 && !cl.upstream ? followers : 0,
  };
}

/** True when `requirement` is the effect requirement of a state-table row of `operation`. */
function isRowEffect(service: string, requirement: string, operation: string): boolean {
  return Boolean(
    SERVICES[service as ServiceName]?.stateSpec.rows.some(
      (r) => r.operation === operation && r.effectRequirement === requirement,
    ),
  );
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d) return d;
  }
  return 0;
}
