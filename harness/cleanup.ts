/**
 * Teardown from the ledger: deletes every relationship and hard-deletes every source record the run created, in reverse
 * order of creation, even when checks failed. Used by the global teardown and by `npm run cleanup -- --run <id>`.
 *
 * A removal counts as done when the deployment accepts it, or rejects it and a lookup then finds no such record
 * ("already gone"). A removal whose connection failed is re-sent at once (removing the run's own record twice is
 * harmless); a reply that stays transient is retried in further passes (with more retries each); whatever still exists
 * afterwards is listed in `failures` by source name and native ID (or relationship ID), so the caller can report it and
 * exit non-zero. What was removed while the run went on (a `removed` ledger entry, run/early-removal.ts) counts with
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

export async function cleanupRun(
  run: RunContext,
  targets: Partial<Record<ServiceName, ServiceTarget | null>>,
  profile: Profile,
  options: Pick<ClientOptions, 'timeoutMs' | 'maxInFlight'> & Partial<ClientOptions>,
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
    private readonly options: Pick<ClientOptions, 'timeoutMs' | 'maxInFlight'> & Partial<ClientOptions>,
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
    if (!c)
      this.clients.set(
        service,
        (c = new ServiceClient(target, this.profile, this.run, { ...this.options, ...this.forService(service) })),
      );
    return c;
  }

  /**
   * Removes `items` (from `removable`) in `passes` passes: what stays transient is tried again with more retries.
   * Counts go into `result`; what could not be removed goes into `result.failures`, unless `result` is omitted (the
   * removal is then only an attempt: the teardown tries again).
   * @param entries the whole ledger so far: records on data sources the run created are the run's to delete
   */
  async remove(entries: LedgerEntry[], items: Removable[], passes: number, result?: CleanupResult): Promise<void> {
    for (const e of entries) if (e.kind === 'dataSource') this.clientOf(e.service)?.guard.adoptSourceName(e.name);
    const relationships = items.filter(
      (e): e is Extract<Removable, { kind: 'relationship' }> => e.kind === 'relationship',
    );
    await this.sweep(relationships, passes, result, result?.relationships, async (c, e, retries) => {
      c.guard.adoptRelationship(e.id);
      // No lookup by relationship ID exists: a rejected delete is taken as "already gone".
      return judge(
        await c.call('deleteRelationshipService', { id: e.id }, { retries, resendable: true, removal: true }),
        async () => undefined,
      );
    });
    const sources = items.filter((e): e is Extract<Removable, { kind: 'source' }> => e.kind === 'source');
    await this.sweep(sources, passes, result, result?.sources, async (c, e, retries) => {
      const source = { name: e.source.name, id: e.source.id };
      return judge(await c.call('deleteSourceIdentity', { source }, { retries, resendable: true, removal: true }), () =>
        c.call('nativeIdQuery', { source }, { retries }),
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
    const describe = (e: Removable) => ({
      service: e.service,
      what: e.kind === 'relationship' ? `relationship ${e.id}` : `source ${e.source.name}/${e.source.id}`,
    });
    let left = items.filter((i) => {
      if (this.clientOf(i.service)) return true;
      result?.failures.push({ ...describe(i), reason: 'service not configured in this run' });
      return false;
    });
    if (bucket) bucket.attempted += left.length;
    for (let pass = 0; pass < passes && left.length; pass++) {
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
        else result?.failures.push({ ...describe(item), reason: o.reason });
      });
      left = next;
    }
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
