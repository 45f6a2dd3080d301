/**
 * Requests in flight at the reference, per service and per second: how many of a service's
 * requests it held (from arrival to the reply's connection closed, the injected latency included)
 * on average over each second since its first request, how many arrived in each second, and, for
 * a serializing deployment, the share of each second its lock was held. For benchmarks that show
 * where a run left places of a service's in-flight bound idle (`npm run bench:latency`,
 * docs/performance.md).
 */

/** Per service, one figure per second since the first request (the last second may be partial). */
export interface PerSecond {
  /** When the first request arrived, ms since the epoch. */
  originEpochMs: number;
  /** Requests in flight on average over each second. */
  inFlight: Record<string, number[]>;
  /** Requests that arrived in each second. */
  arrivals: Record<string, number[]>;
  /**
   * Share of each second a serializing deployment's lock was held (reference/variants/serialized.ts); empty without
   * one.
   */
  lockBusy: number[];
}

/** Adds `level` × the time from `from` to `to` (ms) to the bins of the seconds since `origin` it spans. */
function spread(bins: number[], origin: number, from: number, to: number, level: number): void {
  // The second is counted on, not computed again from `from`: at a boundary the division may
  // round below it and name the second just ended again.
  for (let second = Math.floor((from - origin) / 1000); from < to; second++) {
    const end = Math.min(to, origin + (second + 1) * 1000);
    if (end <= from) continue;
    bins[second] = (bins[second] ?? 0) + level * (end - from);
    from = end;
  }
}

export class Occupancy {
  private origin: number | undefined;
  /** Per service: requests in flight now, and when that last changed. */
  private readonly level = new Map<string, number>();
  private readonly changed = new Map<string, number>();
  /** Per service and second: requests × ms in flight within that second. */
  private readonly inFlight = new Map<string, number[]>();
  private readonly arrived = new Map<string, number[]>();
  /** Per second: ms the lock was held. */
  private readonly lock: number[] = [];
  private lockUsed = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A request of `service` arrived. */
  enter(service: string): void {
    const t = this.now();
    this.origin ??= t;
    const second = Math.floor((t - this.origin) / 1000);
    const counts = this.arrived.get(service) ?? [];
    counts[second] = (counts[second] ?? 0) + 1;
    this.arrived.set(service, counts);
    this.move(service, t, 1);
  }

  /** A request of `service` ended (its reply was written, or its connection closed without one). */
  leave(service: string): void {
    this.move(service, this.now(), -1);
  }

  /** The lock was held from `from` to `to` (ms on this clock; turns never overlap). */
  lockHeld(from: number, to: number): void {
    this.origin ??= from;
    this.lockUsed = true;
    spread(this.lock, this.origin, Math.max(from, this.origin), to, 1);
  }

  private move(service: string, t: number, by: number): void {
    this.accrue(service, t);
    this.level.set(service, (this.level.get(service) ?? 0) + by);
  }

  /** Adds the time in flight at the service's current level up to `t`. */
  private accrue(service: string, t: number): void {
    const level = this.level.get(service) ?? 0;
    const from = this.changed.get(service) ?? t;
    this.changed.set(service, t);
    if (!level || this.origin === undefined) return;
    const bins = this.inFlight.get(service) ?? [];
    this.inFlight.set(service, bins);
    spread(bins, this.origin, from, t, level);
  }

  /** The figures so far, every row as long as the time since the first request. */
  perSecond(): PerSecond {
    const t = this.now();
    for (const service of this.level.keys()) this.accrue(service, t);
    const seconds = this.origin === undefined ? 0 : Math.ceil((t - this.origin) / 1000);
    const fill = (bins: number[] | undefined, scale: number) =>
      Array.from({ length: seconds }, (_, i) => (bins?.[i] ?? 0) / scale);
    const services = [...this.level.keys()];
    return {
      originEpochMs: Date.now() - (this.origin === undefined ? 0 : t - this.origin),
      inFlight: Object.fromEntries(services.map((s) => [s, fill(this.inFlight.get(s), 1000)])),
      arrivals: Object.fromEntries(services.map((s) => [s, fill(this.arrived.get(s), 1)])),
      lockBusy: this.lockUsed ? fill(this.lock, 1000) : [],
    };
  }
}
