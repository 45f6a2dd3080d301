/**
 * Consistency variants: reads that lag writes, and a clock offset from the caller's.
 *
 * - search-lag: demographicsSearch and demographicsQuery read a search index that receives each change `lagMs` after it
 *   was made (a copy of every changed source record, queued at write time and applied when due); until then the old
 *   state stays visible there. Link IDs are the primary's. nativeIdQuery, identityIdQuery and postIdentity's matching
 *   read the primary store.
 * - notification-lag: a notification is listed by searchNotifications only `lagMs` after its event.
 * - clock-skew: the service's clock (notification timestamps, household dates, and so the searchNotifications date
 *   filter) runs `offsetMs` ahead of (positive) or behind the caller's.
 *
 * The seeds promise no read-after-write consistency and give no clock: they are silent on when a change becomes visible
 * (organization-identity-api.md, "States and transitions": "Preconditions on the prior state of each operation, and any
 * further states: not shown"; Events: the feed is "for a date range", nothing on delivery delay).
 */
import { SERVICES } from '../../specs/services.js';
import type { Handler, HandlerContext } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';
import { indexRecord } from '../matching/blocking.js';
import { ServiceStore, type SourceRecord } from '../store.js';

const READS = ['demographicsSearch', 'demographicsQuery'];

/** A lagging copy of one store's source records. */
export class LaggingIndex {
  readonly index: ServiceStore;
  private readonly queue: Array<{ due: number; key: string; record: SourceRecord | undefined }> = [];

  constructor(
    private readonly primary: ServiceStore,
    readonly lagMs: number,
  ) {
    this.index = new ServiceStore(primary.service, primary.customerId);
    this.index.linkIdFormat = () => primary.newLinkId();
    for (const r of primary.records.values()) this.put(r.key, structuredClone(r));
  }

  private put(key: string, record: SourceRecord | undefined): void {
    if (record) {
      this.index.records.set(key, record);
      indexRecord(this.index, record);
    } else this.index.records.delete(key);
  }

  /** Queues copies of the records a write changed (by key; removed records as deletions). */
  changed(keys: Iterable<string>): void {
    const due = Date.now() + this.lagMs;
    for (const key of keys) {
      const r = this.primary.records.get(key);
      this.queue.push({ due, key, record: r ? structuredClone(r) : undefined });
    }
  }

  /** The index as of now: every change that is due applied, in write order. */
  view(): ServiceStore {
    const now = Date.now();
    let n = 0;
    while (n < this.queue.length && this.queue[n]!.due <= now) {
      const { key, record } = this.queue[n]!;
      this.put(key, record);
      n++;
    }
    this.queue.splice(0, n);
    return this.index;
  }
}

const indexes = new WeakMap<ServiceStore, LaggingIndex>();

/** The store's lagging index (made on first use, from the store's records at that moment). */
export function laggingIndexOf(store: ServiceStore, lagMs: number): LaggingIndex {
  let ix = indexes.get(store);
  if (!ix) indexes.set(store, (ix = new LaggingIndex(store, lagMs)));
  return ix;
}

/**
 * Queues records changed outside a handler (other users' writes, variants/busy.ts) into the store's lagging index, if
 * it has one.
 */
export function noteIndexChanges(store: ServiceStore, keys: Iterable<string>): void {
  indexes.get(store)?.changed(keys);
}

const mutates = (service: string, operation: string) =>
  SERVICES[service as keyof typeof SERVICES].operations.find((o) => o.name === operation)?.mutates === true;

export function searchLag(lagMs: number): ReferenceHook[] {
  const handler = (next: Handler, ctx: HandlerContext, operation: string) => {
    const ix = laggingIndexOf(ctx.store, lagMs);
    if (READS.includes(operation)) return next({ ...ctx, store: ix.view() });
    if (!mutates(ctx.store.service, operation)) return next(ctx);
    // Which records a write changed: added, removed, or touched (every handler stamps updatedAt).
    const before = new Map([...ctx.store.records].map(([k, r]) => [k, r.updatedAt]));
    const stamp = ctx.store.now();
    try {
      return next(ctx);
    } finally {
      const keys = new Set<string>();
      for (const [k, r] of ctx.store.records) if (before.get(k) !== r.updatedAt || r.updatedAt >= stamp) keys.add(k);
      for (const k of before.keys()) if (!ctx.store.records.has(k)) keys.add(k);
      ix.changed(keys);
    }
  };
  return [{ handler, setupStore: (store) => void laggingIndexOf(store, lagMs) }];
}

export function notificationLag(lagMs: number): ReferenceHook[] {
  const handler = (next: Handler, ctx: HandlerContext) => {
    // current(), not now(): a read must not advance the clock later notifications are stamped with.
    const cutoff = ctx.store.current() - lagMs;
    const visible = ctx.store.notifications.filter((n) => Date.parse(n.ts) <= cutoff);
    return next({ ...ctx, store: Object.create(ctx.store, { notifications: { value: visible } }) as ServiceStore });
  };
  return [{ operations: ['searchNotifications'], handler }];
}

export const clockSkew = (offsetMs: number): ReferenceHook[] => [
  { setupStore: (store) => void (store.clockOffsetMs = offsetMs) },
];
