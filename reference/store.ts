/**
 * In-memory state of one service of the reference deployment: source records, the identities they form (by link ID),
 * relationships and notifications.
 *
 * Source records move through the states of the seeds' state tables: active, soft-deleted, retired (merged),
 * deactivated (person), and deleted (removed).
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import { randomBytes } from 'node:crypto';
import type { ServiceName } from '../specs/common/model.js';

export type RecordState = 'active' | 'soft-deleted' | 'retired' | 'deactivated';

export interface SourceRecord {
  key: string;
  source: { name: string; id: string; date?: string };
  data: Record<string, unknown>;
  state: RecordState;
  linkId: string;
  /** The link ID the record had when it was first posted or last restored (person reactivate returns here). */
  originalLinkId: string;
  /** For a retired record: the key of the record it was retired into. */
  retiredInto?: string;
  updatedAt: number;
}

export interface Notification {
  id: string;
  ts: string;
  notificationType: string;
  service: ServiceName;
  customerId: string;
  notificationLowerCaseBody: Record<string, string | undefined>;
}

export interface StoredRelationship extends Record<string, unknown> {
  id: string;
}

export const keyOf = (source: { name?: string; id?: string }) => `${source.name}\u0000${source.id}`;

/**
 * The store's source records by key, and by link ID: handlers, faults and variants change a record's `linkId` in place,
 * so a record put in the map gets a `linkId` accessor that keeps the index current. Reads of an identity's members then
 * cost its size, not the store's (the match-quality benchmark holds tens of thousands of records). Members come in the
 * order their records entered the map, as a scan of the map gives them.
 */
class RecordMap extends Map<string, SourceRecord> {
  private readonly byLink = new Map<string, Set<SourceRecord>>();
  private readonly order = new WeakMap<SourceRecord, number>();
  private entered = 0;

  override set(key: string, record: SourceRecord): this {
    const old = this.get(key);
    if (old && old !== record) this.unindex(old);
    if (old !== record) {
      if (!this.order.has(record)) this.order.set(record, old ? this.order.get(old)! : this.entered++);
      this.track(record);
    }
    return super.set(key, record);
  }

  override delete(key: string): boolean {
    const r = this.get(key);
    if (r) this.unindex(r);
    return super.delete(key);
  }

  override clear(): void {
    this.byLink.clear();
    super.clear();
  }

  /** Every record whose link ID is `linkId` (any state), in map order. */
  withLinkId(linkId: string): SourceRecord[] {
    const set = this.byLink.get(linkId);
    if (!set) return [];
    return [...set].sort((a, b) => this.order.get(a)! - this.order.get(b)!);
  }

  /** Replaces the record's `linkId` data property by an accessor that moves it in the index. */
  private track(r: SourceRecord): void {
    let linkId = r.linkId;
    this.bucket(linkId).add(r);
    Object.defineProperty(r, 'linkId', {
      configurable: true,
      enumerable: true,
      get: () => linkId,
      set: (next: string) => {
        if (next === linkId) return;
        this.byLink.get(linkId)?.delete(r);
        linkId = next;
        if (super.get(r.key) === r) this.bucket(next).add(r);
      },
    });
  }

  private unindex(r: SourceRecord): void {
    this.byLink.get(r.linkId)?.delete(r);
  }

  private bucket(linkId: string): Set<SourceRecord> {
    let set = this.byLink.get(linkId);
    if (!set) this.byLink.set(linkId, (set = new Set()));
    return set;
  }
}

export class ServiceStore {
  readonly records = new RecordMap();
  readonly relationships = new Map<string, StoredRelationship>();
  readonly notifications: Notification[] = [];
  readonly dataSources = new Set<string>();
  private clock = 0;
  /** Link-ID format of a variant (reference/variants/link-ids.ts); default `<SVC>` + 12 hex digits. */
  linkIdFormat?: () => string;
  /** Offset of this store's clock from the host's, ms (clock-skew variant); 0 by default. */
  clockOffsetMs = 0;

  constructor(
    readonly service: ServiceName,
    readonly customerId = 'reference-customer',
  ) {}

  newLinkId(): string {
    return this.linkIdFormat?.() ?? `${this.service.slice(0, 3).toUpperCase()}${randomBytes(6).toString('hex')}`;
  }

  /** Monotonic timestamp (ms) on the store's clock, so events within one millisecond still order. */
  /** The service clock's time without advancing it (reads must not push later timestamps ahead). */
  current(): number {
    return Math.max(this.clock, Date.now() + this.clockOffsetMs);
  }

  now(): number {
    this.clock = Math.max(this.clock + 1, Date.now() + this.clockOffsetMs);
    return this.clock;
  }

  get(source: { name?: string; id?: string } | undefined): SourceRecord | undefined {
    return source ? this.records.get(keyOf(source)) : undefined;
  }

  /** Every record with the link ID, whatever its state (an identity's members and the records retired into it). */
  withLinkId(linkId: string): SourceRecord[] {
    return this.records.withLinkId(linkId);
  }

  /** Records that make up an identity and take part in matching. */
  activeMembers(linkId: string): SourceRecord[] {
    return this.withLinkId(linkId).filter((r) => r.state === 'active');
  }

  /** Records visible in an identity's replies (person: deactivated records stay visible). */
  visibleMembers(linkId: string): SourceRecord[] {
    return this.withLinkId(linkId).filter((r) => r.state === 'active' || r.state === 'deactivated');
  }

  /** Link IDs of identities with at least one active record. */
  activeLinkIds(): Set<string> {
    const out = new Set<string>();
    for (const r of this.records.values()) if (r.state === 'active') out.add(r.linkId);
    return out;
  }

  notify(type: string, body: Record<string, string | undefined>): void {
    this.notifications.push({
      id: randomBytes(8).toString('hex'),
      ts: new Date(this.now()).toISOString(),
      notificationType: type,
      service: this.service,
      customerId: this.customerId,
      notificationLowerCaseBody: body,
    });
  }
}

/**
 * State a fault or variant keeps per store, made by `make` on first use. Returns (store) => that store's value; a
 * reference's stores are its own, so two references never share it.
 */
export const perStore = <T>(make: () => T) => {
  const values = new WeakMap<ServiceStore, T>();
  return (s: ServiceStore): T => {
    let v = values.get(s);
    if (v === undefined) values.set(s, (v = make()));
    return v;
  };
};
