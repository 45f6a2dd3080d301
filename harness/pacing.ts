/**
 * Adaptive pacing of one service's requests, shared by every thread of a run (the test worker and the main process's
 * early removal and teardown): a pause that a "not now" reply puts on all of the service's requests, an in-flight bound
 * and a request rate that repeated throttling lowers and a quiet spell raises again, and the figures the reports show.
 *
 * - Pause: HTTP 429, or 429/503 with Retry-After (seconds or an HTTP date), stops every request of the service until
 *   the time asked has passed, at most MAX_PAUSE_MS; a 429 without Retry-After pauses THROTTLE_PAUSE_MS. The seeds
 *   leave rate limits open (organization-identity-api.md, Limits: "Rate limits: not shown."), so the suite learns them
 *   from the deployment's replies.
 * - Multiplicative decrease: a throttled reply to a request sent after the last decrease halves the in-flight bound
 *   (BOUND_DECREASE) and sets the rate to RATE_DECREASE of the current one (or of the replies accepted in about the
 *   last second, when no rate applied yet; none while nothing was accepted), at least MIN_RATE. Replies to requests
 *   sent before the decrease do not lower it again (they reflect the old pace).
 * - Increase: each RECOVERY_STEP_MS without a throttled reply adds 1 to the bound, and to the rate half its distance to
 *   the rate last throttled (at least 1/s) while below 95% of it, PROBE_STEP of it (at least 0.05/s) from there on: the
 *   rate comes back quickly and then probes the limit slowly, so a gateway's limit is met (and paused for) seldom.
 *   After QUIET_SPELL_MS without a throttled reply the run's settings apply again (CONFORMANCE_MAX_IN_FLIGHT as the
 *   bound, CONFORMANCE_RATE_LIMIT or no rate), which stay the ceiling throughout.
 * - Rate: requests are spaced 1/rate apart across threads (one shared "next free slot" per service).
 *
 * The state is a SharedArrayBuffer (sharedPacing), handed to the worker threads with the in-flight counters
 * (harness/shared-limit.ts); a transport without one keeps a buffer of its own. Own code: the resilience libraries
 * (cockatiel 3, p-limit, p-throttle) keep their state per thread and fixed (cockatiel's bulkhead capacity, p-throttle's
 * rate), and none learns a rate from 429 replies.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Longest pause one reply may ask for (ms): a larger Retry-After pauses this long, then the request is tried again. */
export const MAX_PAUSE_MS = 30_000;
/** Pause after HTTP 429 without Retry-After (ms). */
export const THROTTLE_PAUSE_MS = 1000;
/** Factor of the in-flight bound at each decrease. */
export const BOUND_DECREASE = 0.5;
/** Factor of the rate at each decrease. */
export const RATE_DECREASE = 0.75;
/** Lowest rate a decrease sets (requests per second). */
export const MIN_RATE = 0.5;
/** Time without a throttled reply after which the bound and rate rise one step (ms). */
export const RECOVERY_STEP_MS = 1000;
/**
 * Share of the rate added per step once it is back near where it was throttled: the gateway's limit is probed slowly.
 */
export const PROBE_STEP = 0.005;
/** Time without a throttled reply after which the run's settings apply again (ms). */
export const QUIET_SPELL_MS = 30_000;

enum Cell {
  PausedUntil,
  /** Lowered in-flight bound; 0: the ceiling. */
  Bound,
  /** Learned rate in requests per 1000 s; 0: none. */
  RateMilli,
  /** Epoch µs of the next free send slot under a rate. */
  NextSlotUs,
  LastThrottle,
  LastDecrease,
  LastRecovery,
  PausedMs,
  Attempts,
  Throttled,
  Transient,
  LowestBound,
  LowestRateMilli,
  WindowStart,
  WindowCount,
  PreviousCount,
  Ceiling,
  ConfiguredRateMilli,
  /** The rate (per 1000 s) when it was last lowered: where the limit was met. */
  ThrottledRateMilli,
}
const CELLS = Object.keys(Cell).length / 2;

/** Pacing state of `slots` services, to share between threads (one slot per service, serviceNames() order). */
export function sharedPacing(slots: number): SharedArrayBuffer {
  return new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT * CELLS * Math.max(1, slots));
}

/** What the reports show of one service's pacing (summary.json `transport`). */
export interface PacingFigures {
  /** Requests sent, each attempt counted. */
  attempts: number;
  /** Attempts answered "not now": HTTP 429, or 503 with Retry-After. */
  throttled: number;
  /** Attempts that failed transiently, the throttled ones included (harness/reply.ts isTransient). */
  transientFailures: number;
  /** Time the service's requests were paused, ms (overlapping pauses counted once). */
  pausedMs: number;
  /** In-flight bound: the run's setting, the lowest it was lowered to and the last one. */
  bound: { ceiling: number; lowest: number; final: number };
  /** Requests per second: the run's setting, the lowest and last applied (absent: no limit). */
  rate: { configured?: number; lowest?: number; final?: number };
}

/** How one attempt ended, for the pacing. */
export type AttemptEnd = { kind: 'answered' } | { kind: 'throttled'; pauseMs?: number } | { kind: 'transient' };

export class ServicePacing {
  private readonly cells: BigInt64Array;
  private readonly base: number;

  /**
   * @param buffer made by sharedPacing (the same buffer in every thread)
   * @param slot this service's index in it
   * @param ceiling the run's in-flight bound for this service here (CONFORMANCE_MAX_IN_FLIGHT)
   * @param configuredRate the run's rate for this service here (CONFORMANCE_RATE_LIMIT), if any
   * @throws RangeError when `slot` lies outside `buffer`
   */
  constructor(
    buffer: SharedArrayBuffer,
    slot: number,
    readonly ceiling: number,
    readonly configuredRate?: number,
  ) {
    this.cells = new BigInt64Array(buffer);
    this.base = slot * CELLS;
    if (!Number.isInteger(slot) || slot < 0 || this.base + CELLS > this.cells.length)
      throw new RangeError(`slot ${slot} outside the pacing buffer of ${this.cells.length / CELLS} services`);
    this.raise(Cell.Ceiling, ceiling);
    if (configuredRate) this.raise(Cell.ConfiguredRateMilli, Math.round(configuredRate * 1000));
  }

  /** A pacing of its own (nothing shared). */
  static local(ceiling: number, configuredRate?: number): ServicePacing {
    return new ServicePacing(sharedPacing(1), 0, ceiling, configuredRate);
  }

  private get(c: Cell): number {
    return Number(Atomics.load(this.cells, this.base + c));
  }
  private set(c: Cell, v: number): void {
    Atomics.store(this.cells, this.base + c, BigInt(Math.round(v)));
  }
  private add(c: Cell, v: number): void {
    Atomics.add(this.cells, this.base + c, BigInt(Math.round(v)));
  }
  private swap(c: Cell, from: number, to: number): boolean {
    return Atomics.compareExchange(this.cells, this.base + c, BigInt(from), BigInt(Math.round(to))) === BigInt(from);
  }
  /** Sets the cell to `v` when it is 0 or above `v`. */
  private lower(c: Cell, v: number): void {
    for (let old = this.get(c); (old === 0 || old > v) && !this.swap(c, old, v); old = this.get(c));
  }
  /** Sets the cell to `v` when it is below `v`. */
  private raise(c: Cell, v: number): void {
    for (let old = this.get(c); old < v && !this.swap(c, old, v); old = this.get(c));
  }

  /** Requests in flight allowed now: the lowered bound, at most the ceiling. */
  bound(): number {
    const b = this.get(Cell.Bound);
    return b > 0 ? Math.min(b, this.ceiling) : this.ceiling;
  }

  /** Requests per second allowed now (undefined: no limit): the lower of the learned rate and the run's. */
  rate(): number | undefined {
    const learned = this.get(Cell.RateMilli) / 1000;
    const rates = [learned || undefined, this.configuredRate].filter((r): r is number => r !== undefined && r > 0);
    return rates.length ? Math.min(...rates) : undefined;
  }

  /** Until when (epoch ms) the service's requests are paused; 0 or past: not paused. */
  pausedUntil(): number {
    return this.get(Cell.PausedUntil);
  }

  /**
   * Resolves when a request may be sent: no pause holds, and its slot under the rate has come. A pause that begins
   * while a request waits for its slot makes it wait the pause out and take a new slot after it, so requests resume
   * spaced, not in a burst.
   * @returns the time the request may go (epoch ms), to pass to `ended`
   */
  async ready(): Promise<number> {
    for (;;) {
      const now = Date.now();
      this.recover(now);
      const until = this.get(Cell.PausedUntil);
      if (now < until) {
        await sleep(until - now);
        continue;
      }
      const rate = this.rate();
      if (!rate) break;
      const nowUs = now * 1000;
      const next = this.get(Cell.NextSlotUs);
      const slot = Math.max(nowUs, next);
      if (!this.swap(Cell.NextSlotUs, next, slot + 1e6 / rate)) continue;
      if (slot > nowUs) await sleep((slot - nowUs) / 1000);
      if (Date.now() >= this.get(Cell.PausedUntil)) break;
    }
    this.add(Cell.Attempts, 1);
    return Date.now();
  }

  /** Takes note of how an attempt sent at `sentAt` (from `ready`) ended. */
  ended(sentAt: number, end: AttemptEnd): void {
    const now = Date.now();
    if (end.kind === 'answered') {
      this.countAccepted(now);
      return;
    }
    this.add(Cell.Transient, 1);
    if (end.kind === 'transient') return;
    this.add(Cell.Throttled, 1);
    this.raise(Cell.LastThrottle, now);
    this.pause(now, Math.min(MAX_PAUSE_MS, end.pauseMs ?? THROTTLE_PAUSE_MS));
    const last = this.get(Cell.LastDecrease);
    if (sentAt > last && this.swap(Cell.LastDecrease, last, now)) this.decrease(now);
  }

  /** Extends the pause to `now + ms`, counting only the time it adds. */
  private pause(now: number, ms: number): void {
    const until = now + ms;
    for (let old = this.get(Cell.PausedUntil); old < until; old = this.get(Cell.PausedUntil))
      if (this.swap(Cell.PausedUntil, old, until)) {
        this.add(Cell.PausedMs, until - Math.max(old, now));
        break;
      }
    this.raise(Cell.NextSlotUs, until * 1000);
  }

  private decrease(now: number): void {
    this.set(Cell.LastRecovery, now);
    const bound = Math.max(1, Math.floor(this.bound() * BOUND_DECREASE));
    this.set(Cell.Bound, bound);
    this.lower(Cell.LowestBound, bound);
    const accepted = Math.max(this.get(Cell.PreviousCount), this.get(Cell.WindowCount));
    const from = this.rate() ?? accepted;
    // Nothing accepted lately and no rate yet: nothing to learn a rate from; the pause and bound act alone.
    if (!from) return;
    this.set(Cell.ThrottledRateMilli, from * 1000);
    const rate = Math.max(MIN_RATE, from * RATE_DECREASE);
    this.set(Cell.RateMilli, rate * 1000);
    this.lower(Cell.LowestRateMilli, rate * 1000);
  }

  /** Additive increase once a step passes without throttling; the run's settings after a quiet spell. */
  private recover(now: number): void {
    const throttled = this.get(Cell.LastThrottle);
    if (!throttled || now - throttled < RECOVERY_STEP_MS) return;
    if (now - throttled >= QUIET_SPELL_MS) {
      if (this.get(Cell.Bound)) this.set(Cell.Bound, 0);
      if (this.get(Cell.RateMilli)) this.set(Cell.RateMilli, 0);
      return;
    }
    const last = this.get(Cell.LastRecovery);
    const since = Math.max(last, throttled);
    const steps = Math.floor((now - since) / RECOVERY_STEP_MS);
    if (steps < 1 || !this.swap(Cell.LastRecovery, last, since + steps * RECOVERY_STEP_MS)) return;
    const bound = this.get(Cell.Bound);
    if (bound) this.set(Cell.Bound, bound + steps >= this.ceiling ? 0 : bound + steps);
    let rate = this.get(Cell.RateMilli) / 1000;
    if (rate) {
      const limit = this.get(Cell.ThrottledRateMilli) / 1000;
      for (let i = 0; i < steps; i++)
        rate += rate < 0.95 * limit ? Math.max(1, (limit - rate) / 2) : Math.max(0.05, rate * PROBE_STEP);
      this.set(Cell.RateMilli, rate * 1000);
    }
  }

  /** Counts an accepted reply in the current one-second window (the rate estimate of a first decrease). */
  private countAccepted(now: number): void {
    const start = this.get(Cell.WindowStart);
    if (now - start >= 1000 && this.swap(Cell.WindowStart, start, now)) {
      this.set(Cell.PreviousCount, now - start < 2000 ? this.get(Cell.WindowCount) : 0);
      this.set(Cell.WindowCount, 0);
    }
    this.add(Cell.WindowCount, 1);
  }

  /** The figures so far. */
  figures(): PacingFigures {
    const ceiling = this.get(Cell.Ceiling);
    const lowestBound = this.get(Cell.LowestBound);
    const bound = this.get(Cell.Bound);
    const configured = this.get(Cell.ConfiguredRateMilli) / 1000 || undefined;
    const lowest = this.get(Cell.LowestRateMilli) / 1000 || undefined;
    const learned = this.get(Cell.RateMilli) / 1000 || undefined;
    const final = learned && configured ? Math.min(learned, configured) : (learned ?? configured);
    const round = (r: number | undefined) => (r === undefined ? undefined : Math.round(r * 100) / 100);
    return {
      attempts: this.get(Cell.Attempts),
      throttled: this.get(Cell.Throttled),
      transientFailures: this.get(Cell.Transient),
      pausedMs: this.get(Cell.PausedMs),
      bound: {
        ceiling,
        lowest: lowestBound ? Math.min(lowestBound, ceiling) : ceiling,
        final: bound ? Math.min(bound, ceiling) : ceiling,
      },
      rate: {
        ...(configured ? { configured: round(configured) } : {}),
        ...(lowest || configured
          ? { lowest: round(lowest && configured ? Math.min(lowest, configured) : (lowest ?? configured)) }
          : {}),
        ...(final ? { final: round(final) } : {}),
      },
    };
  }
}

/**
 * The figures of every service of a shared buffer, by name (`names` in slot order); services with no attempt are left
 * out.
 */
export function pacingFigures(buffer: SharedArrayBuffer, names: readonly string[]): Record<string, PacingFigures> {
  const out: Record<string, PacingFigures> = {};
  names.forEach((name, slot) => {
    const f = new ServicePacing(buffer, slot, 1).figures();
    if (f.attempts) out[name] = f;
  });
  return out;
}

/**
 * The figures of several runs of one service taken together (the shards of a merged run, each paced on its own): counts
 * and pauses added, the lowest bound and rate the lowest of any, the final ones the lowest of the shards' finals.
 */
export function combineFigures(all: PacingFigures[]): PacingFigures | undefined {
  if (!all.length) return undefined;
  const least = (xs: Array<number | undefined>) => {
    const known = xs.filter((x): x is number => x !== undefined);
    return known.length ? Math.min(...known) : undefined;
  };
  const sum = (k: 'attempts' | 'throttled' | 'transientFailures' | 'pausedMs') => all.reduce((n, f) => n + f[k], 0);
  const configured = least(all.map((f) => f.rate.configured));
  const lowest = least(all.map((f) => f.rate.lowest));
  const final = least(all.map((f) => f.rate.final));
  return {
    attempts: sum('attempts'),
    throttled: sum('throttled'),
    transientFailures: sum('transientFailures'),
    pausedMs: sum('pausedMs'),
    bound: {
      ceiling: Math.max(...all.map((f) => f.bound.ceiling)),
      lowest: Math.min(...all.map((f) => f.bound.lowest)),
      final: Math.min(...all.map((f) => f.bound.final)),
    },
    rate: {
      ...(configured !== undefined ? { configured } : {}),
      ...(lowest !== undefined ? { lowest } : {}),
      ...(final !== undefined ? { final } : {}),
    },
  };
}
