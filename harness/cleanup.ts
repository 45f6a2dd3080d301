/**
 * Teardown from the ledger: deletes every relationship and hard-deletes every source record the run created, in reverse
 * order of creation, even when checks failed. Used by the global teardown and by `npm run cleanup -- --run <id>`.
 *
 * A removal counts as done when the deployment accepts it, or rejects it and a lookup then finds no such record
 * ("already gone"). A removal whose connection failed is re-sent at once (removing the run's own record twice is
 * harmless); a reply that stays transient is retried in further passes (with more retries each); whatever still exists
 * afterwards is listed in `failures` by source name and native ID (or relationship ID), so the caller can report it and
 * exit non-zero. What was removed while the run went on (a `removed` ledger entry, run/vitest/early-removal.ts) counts with
 * its outcome and is not asked for again.
 * Source: docs/safety.md.
 */
import type { ServiceName } from '../specs/common/model.js';
import { type ClientOptions, ServiceClient } from './client.js';
import type { ServiceTarget } from './config.js';
import type { Profile } from './profile.js';
import { type Reply, describeReply, isAbsent, isAuthFailure, isRejection, isTransient } from './reply.js';
import type { LedgerEntry, RunContext } from './run.js';

/**
 * One kind of record the run created: how many it had to remove, how many are deleted and already gone, and of those
 * how many the ledger already said were removed (`earlier`: by the run while it went on, its teardown, or an earlier
 * cleanup), which no request was sent for this time.
 */
export interface RemovalCounts {
  attempted: number;
  deleted: number;
  alreadyGone: number;
  earlier?: { deleted: number; alreadyGone: number };
}

export interface CleanupResult {
  sources: RemovalCounts;
  relationships: RemovalCounts;
  /** What could not be removed, with why. */
  failures: Array<{ service: ServiceName; what: string; reason: string }>;
}

/**
 * What a cleanup did, in words, counted from the ledger: what it removed now (deleted, already gone), what the ledger
 * said was removed before (never asked for again), of how many; e.g. "sources 3 deleted now, 1 already gone, 160
 * removed before (ledger), of 164; relationships 14 removed before (ledger), of 14", or "nothing to remove: ...".
 */
export function removalText(r: Pick<CleanupResult, 'sources' | 'relationships'>): string {
  const kinds = [
    ['sources', r.sources],
    ['relationships', r.relationships],
  ] as const;
  const before = (c: RemovalCounts) => (c.earlier?.deleted ?? 0) + (c.earlier?.alreadyGone ?? 0);
  const now = kinds.reduce((n, [, c]) => n + c.attempted - before(c), 0);
  if (!now && kinds.some(([, c]) => c.attempted))
    return `nothing to remove: the ledger shows every record the run created removed already (${kinds
      .map(([k, c]) => `${c.attempted} ${k}`)
      .join(', ')}); no request sent`;
  return kinds
    .map(([kind, c]) => {
      const parts = [
        `${c.deleted - (c.earlier?.deleted ?? 0)} deleted now`,
        `${c.alreadyGone - (c.earlier?.alreadyGone ?? 0)} already gone`,
        ...(before(c) ? [`${before(c)} removed before (ledger)`] : []),
      ];
      return `${kind} ${parts.join(', ')}, of ${c.attempted}`;
    })
    .join('; ');
}

/** Two cleanups' counts and failures together (the shards of a merged run). */
export function addCleanup(a: CleanupResult | undefined, b: CleanupResult | undefined): CleanupResult | undefined {
  if (!a || !b) return a ?? b;
  const add = (x: RemovalCounts, y: RemovalCounts): RemovalCounts => {
    const earlier =
      x.earlier || y.earlier
        ? {
            deleted: (x.earlier?.deleted ?? 0) + (y.earlier?.deleted ?? 0),
            alreadyGone: (x.earlier?.alreadyGone ?? 0) + (y.earlier?.alreadyGone ?? 0),
          }
        : undefined;
    return {
      attempted: x.attempted + y.attempted,
      deleted: x.deleted + y.deleted,
      alreadyGone: x.alreadyGone + y.alreadyGone,
      ...(earlier ? { earlier } : {}),
    };
  };
  return {
    sources: add(a.sources, b.sources),
    relationships: add(a.relationships, b.relationships),
    failures: [...a.failures, ...b.failures],
  };
}

/** Passes over what is left after transient replies; each pass retries more. */
export const CLEANUP_PASSES = 3;

type Outcome = 'deleted' | 'alreadyGone' | { reason: string; transient: boolean };

/**
 * Bounds of a removal that must end soon (an interrupted run's: the command gives it seconds, run/cli/conformance.mjs).
 * Without them a cleanup takes as long as the deployment needs.
 */
export interface CleanupBounds {
  /**
   * Before removing anything, each service is probed with one read of a record of the run's (no retry): a service that
   * gives no reply within this time (ms) is taken as gone, and its records are listed, none asked for.
   */
  probeMs?: number;
  /**
   * Latest time (ms since the epoch) a removal may be under way: requests still waiting for their reply end then, and
   * what is left is listed.
   */
  deadline?: number;
}

/**
 * How long a probe of a service waits for its reply after an interrupt, ms: a deployment that answers does so in far
 * less.
 */
export const PROBE_MS = 3000;

type RemovalOptions = Pick<ClientOptions, 'timeoutMs' | 'maxInFlight'> & Partial<ClientOptions> & CleanupBounds;

export async function cleanupRun(
  run: RunContext,
  targets: Partial<Record<ServiceName, ServiceTarget | null>>,
  profile: Profile,
  options: RemovalOptions,
  /**
   * Runs one removal (its request and lookup) of a service: a bound on removals under way (default: none but the
   * client's).
   */
  gate?: (service: ServiceName) => <T>(fn: () => Promise<T>) => Promise<T>,
  /** Remove only what the run created in these services (default: every service the ledger names). */
  only?: ServiceName[],
): Promise<CleanupResult> {
  const result: CleanupResult = {
    sources: { attempted: 0, deleted: 0, alreadyGone: 0 },
    relationships: { attempted: 0, deleted: 0, alreadyGone: 0 },
    failures: [],
  };
  // Each removal is marked in the ledger as it is done: a teardown stopped half way (an interrupted run the command had
  // to end) leaves the rest to the command's ledger cleanup, not all of it.
  const remover = new LedgerRemover(run, targets, profile, { retries: 2, ...options }, true, undefined, gate);
  const entries = run.entries();
  const removed = removedOutcomes(entries);
  const left = removable(entries).filter((e) => {
    if (only && !only.includes(e.service)) return false;
    const outcome = removed.get(removalKey(e));
    if (!outcome) return true;
    const bucket = e.kind === 'relationship' ? result.relationships : result.sources;
    bucket.attempted++;
    bucket[outcome]++;
    bucket.earlier ??= { deleted: 0, alreadyGone: 0 };
    bucket.earlier[outcome]++;
    return false;
  });
  try {
    await remover.remove(entries, left, CLEANUP_PASSES, result);
  } finally {
    await remover.close();
  }
  return result;
}

type Removable = Extract<LedgerEntry, { kind: 'source' } | { kind: 'relationship' }>;

/** The record or relationship an entry names, as one key (the same for its `removed` entry). */
export function removalKey(e: Removable | Extract<LedgerEntry, { kind: 'removed' }>): string {
  const source = 'source' in e ? e.source : undefined;
  return source
    ? `${e.service}|source|${source.name}|${source.id}`
    : `${e.service}|relationship|${'id' in e ? e.id : ''}`;
}

/**
 * What the ledger says was removed while the run went on, by removal key. A `removed` entry counts only when no entry
 * creating the same record comes after it (a post that landed after its removal, or a second post of the same source,
 * makes the record the run's to remove again).
 */
export function removedOutcomes(entries: LedgerEntry[]): Map<string, 'deleted' | 'alreadyGone'> {
  const removed = new Map<string, 'deleted' | 'alreadyGone'>();
  for (const e of entries) {
    if (e.kind === 'removed') removed.set(removalKey(e), e.outcome);
    else if (e.kind === 'source' || e.kind === 'relationship') removed.delete(removalKey(e));
  }
  return removed;
}

/**
 * The sources and relationships among `entries`, each once, in the order they are removed: relationships first, then
 * sources newest first.
 */
export function removable(entries: LedgerEntry[]): Removable[] {
  const seen = new Set<string>();
  const once = (e: Removable) => !seen.has(removalKey(e)) && Boolean(seen.add(removalKey(e)));
  const relationships = entries
    .filter((e): e is Extract<LedgerEntry, { kind: 'relationship' }> => e.kind === 'relationship')
    .filter(once);
  const sources = entries
    .filter((e): e is Extract<LedgerEntry, { kind: 'source' }> => e.kind === 'source')
    .reverse()
    .filter(once);
  return [...relationships, ...sources];
}

/**
 * Removes ledger entries through one client per service: relationships first, then sources. A removal counts as done
 * when the deployment accepts it, or rejects it and a lookup then finds no such record; each one done is written to the
 * ledger as `removed` when `mark` is set.
 */
export class LedgerRemover {
  private readonly clients = new Map<ServiceName, ServiceClient>();

  constructor(
    private readonly run: RunContext,
    private readonly targets: Partial<Record<ServiceName, ServiceTarget | null>>,
    private readonly profile: Profile,
    private readonly options: RemovalOptions,
    private readonly mark = false,
    /** Client options of one service on top of `options` (the run's in-flight bound it shares). */
    private readonly forService: (service: ServiceName) => Partial<ClientOptions> = () => ({}),
    /** Runs one removal (its request and lookup) of a service: a bound on removals under way at once. */
    private readonly gate: (service: ServiceName) => <T>(fn: () => Promise<T>) => Promise<T> = () => (fn) => fn(),
  ) {}

  private clientOf(service: ServiceName): ServiceClient | undefined {
    const target = this.targets[service];
    if (!target) return undefined;
    let c = this.clients.get(service);
    if (!c) {
      const { probeMs: _probe, deadline, ...client } = this.options;
      // With a deadline, no attempt waits for its reply beyond it (at least a second, so a removal can still be sent).
      const timeoutMs =
        deadline === undefined ? client.timeoutMs : Math.min(client.timeoutMs, Math.max(1000, deadline - Date.now()));
      c = new ServiceClient(target, this.profile, this.run, { ...client, timeoutMs, ...this.forService(service) });
      this.clients.set(service, c);
    }
    return c;
  }

  /**
   * Removes `items` (from `removable`) in `passes` passes: what stays transient is tried again with more retries.
   * Counts go into `result`; what could not be removed goes into `result.failures`, unless `result` is omitted (the
   * removal is then only an attempt: the teardown tries again). With CleanupBounds in the options, a service that does
   * not answer its probe is not asked for anything, and nothing is under way after the deadline.
   * @param entries the whole ledger so far: records on data sources the run created are the run's to delete
   */
  async remove(entries: LedgerEntry[], all: Removable[], passes: number, result?: CleanupResult): Promise<void> {
    for (const e of entries) if (e.kind === 'dataSource') this.clientOf(e.service)?.guard.adoptSourceName(e.name);
    const gone = await this.probe(entries, all);
    const items = all.filter((i) => {
      const why = gone.get(i.service);
      if (why === undefined) return true;
      const bucket = i.kind === 'relationship' ? result?.relationships : result?.sources;
      if (bucket) bucket.attempted++;
      result?.failures.push({ ...describeItem(i), reason: why });
      return false;
    });
    const relationships = items.filter(
      (e): e is Extract<Removable, { kind: 'relationship' }> => e.kind === 'relationship',
    );
    await this.sweep(relationships, passes, result, result?.relationships, async (c, e, retries) => {
      c.guard.adoptRelationship(e.id);
      // No lookup by relationship ID exists: a rejected delete is taken as "already gone".
      return judge(
        await c.call(
          'deleteRelationshipService',
          { id: e.id },
          { retries, resendable: true, removal: true, ...this.bounded() },
        ),
        async () => undefined,
      );
    });
    const sources = items.filter((e): e is Extract<Removable, { kind: 'source' }> => e.kind === 'source');
    await this.sweep(sources, passes, result, result?.sources, async (c, e, retries) => {
      const source = { name: e.source.name, id: e.source.id };
      return judge(
        await c.call(
          'deleteSourceIdentity',
          { source },
          { retries, resendable: true, removal: true, ...this.bounded() },
        ),
        () => c.call('nativeIdQuery', { source }, { retries, ...this.bounded() }),
      );
    });
  }

  /** Removes each item; what stays transient is tried again in the next pass with more retries. */
  private async sweep<T extends Removable>(
    items: T[],
    passes: number,
    result: CleanupResult | undefined,
    bucket: RemovalCounts | undefined,
    remove: (c: ServiceClient, i: T, retries: number) => Promise<Outcome>,
  ): Promise<void> {
    const describe = describeItem;
    let left = items.filter((i) => {
      if (this.clientOf(i.service)) return true;
      result?.failures.push({ ...describe(i), reason: 'service not configured in this run' });
      return false;
    });
    if (bucket) bucket.attempted += left.length;
    for (let pass = 0; pass < passes && left.length; pass++) {
      if (this.overdue()) {
        for (const i of left) result?.failures.push({ ...describe(i), reason: OUT_OF_TIME });
        return;
      }
      // A removal that throws is that item's failure, not the sweep's: the others still finish. Each one done is marked
      // at once, so a process stopped half way leaves a ledger that says so.
      const attempt = (i: T) =>
        remove(this.clientOf(i.service)!, i, 2 + 2 * pass)
          .catch((e: unknown): Outcome => ({ reason: e instanceof Error ? e.message : String(e), transient: false }))
          .then((o) => {
            if (this.mark && (o === 'deleted' || o === 'alreadyGone')) this.markRemoved(i, o);
            return o;
          });
      const outcomes = await Promise.all(left.map((i) => this.gate(i.service)(() => attempt(i))));
      const next: T[] = [];
      outcomes.forEach((o, k) => {
        const item = left[k]!;
        if (o === 'deleted' || o === 'alreadyGone') {
          if (bucket) bucket[o]++;
        } else if (o.transient && pass < passes - 1) next.push(item);
        else result?.failures.push({ ...describe(item), reason: this.overdue() ? OUT_OF_TIME : o.reason });
      });
      left = next;
    }
  }

  /**
   * The call options that hold a request to the deadline: no attempt starts after it (an attempt under way ends by its
   * timeout, no longer than the time left when the client was made: clientOf). No abort signal: in the vitest main
   * process an abort listener's error crashes vite's stack-trace mapping of modules from its module cache.
   */
  private bounded(): { until?: number } {
    const { deadline } = this.options;
    return deadline === undefined ? {} : { until: deadline };
  }

  private overdue(): boolean {
    return this.options.deadline !== undefined && Date.now() >= this.options.deadline;
  }

  /**
   * With CleanupBounds.probeMs: one read per service that has something to remove (nativeIdQuery of a source of the
   * run's, no retry), all at once; a service without any reply within probeMs is gone.
   * @returns each gone service with the reason its records are listed
   */
  private async probe(entries: LedgerEntry[], items: Removable[]): Promise<Map<ServiceName, string>> {
    const gone = new Map<ServiceName, string>();
    const { probeMs } = this.options;
    if (!probeMs) return gone;
    const services = [...new Set(items.map((i) => i.service))].filter((s) => this.clientOf(s));
    await Promise.all(
      services.map(async (service) => {
        const source = entries.find(
          (e): e is Extract<LedgerEntry, { kind: 'source' }> => e.kind === 'source' && e.service === service,
        );
        if (!source) return;
        // A client of its own, whose one attempt waits probeMs at most.
        const { probeMs: _p, deadline: _d, ...options } = this.options;
        const probe = new ServiceClient(this.targets[service]!, this.profile, this.run, {
          ...options,
          timeoutMs: probeMs,
          retryBudgetMs: 0,
        });
        try {
          const reply = await probe.call(
            'nativeIdQuery',
            { source: { name: source.source.name, id: source.source.id } },
            { retries: 0 },
          );
          const error = reply.exchange.error;
          if (reply.status === undefined)
            gone.set(
              service,
              `not removed: the ${service} service gave no reply to a probe within ${probeMs / 1000} s` +
                `${error && !error.startsWith('no reply within') ? ` (${error})` : ''}: it is not answering`,
            );
        } finally {
          await probe.close();
        }
      }),
    );
    return gone;
  }

  /** Writes to the ledger that an entry is removed: a later teardown or cleanup counts it and does not ask again. */
  private markRemoved(item: Removable, outcome: 'deleted' | 'alreadyGone'): void {
    this.run.record({
      kind: 'removed',
      service: item.service,
      ...(item.kind === 'relationship' ? { id: item.id } : { source: item.source }),
      outcome,
      at: new Date().toISOString(),
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
  }
}

/** Why a record was not removed when the time for removals ran out (CleanupBounds.deadline). */
const OUT_OF_TIME =
  'not removed: the time for removals after the interrupt ran out (the deployment answered too slowly or not at all)';

/** A ledger entry as a failure names it: its service and `source <name>/<native ID>` or `relationship <id>`. */
const describeItem = (e: Removable) => ({
  service: e.service,
  what: e.kind === 'relationship' ? `relationship ${e.id}` : `source ${e.source.name}/${e.source.id}`,
});

async function judge(reply: Reply, stillThere: () => Promise<Reply | undefined>): Promise<Outcome> {
  if (reply.success === true && !isTransient(reply)) return 'deleted';
  if (isTransient(reply)) return { reason: describeReply(reply), transient: true };
  if (isAuthFailure(reply)) return { reason: `credentials refused: ${describeReply(reply)}`, transient: false };
  if (!isRejection(reply)) return { reason: describeReply(reply), transient: false };
  const lookup = await stillThere();
  if (!lookup) return 'alreadyGone';
  if (isTransient(lookup))
    return {
      reason: `removal rejected (${describeReply(reply)}) and the lookup could not tell whether it is gone`,
      transient: true,
    };
  return isAbsent(lookup)
    ? 'alreadyGone'
    : { reason: `removal rejected and the record is still there: ${describeReply(reply)}`, transient: false };
}
