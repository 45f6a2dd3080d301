/**
 * A limit on requests in flight that all test workers of a run share: one counter per service in a SharedArrayBuffer
 * that the global setup hands to every worker thread (vitest's provide passes it by structured clone, which shares the
 * memory between threads). CONFORMANCE_MAX_IN_FLIGHT is a bound per service for the whole run, so a file running alone
 * on its service may use all of it, instead of a fixed share per worker that leaves most of it idle while the other
 * workers run files of other services.
 *
 * Own code because no maintained package offers a cross-thread counting semaphore whose acquire does not block the
 * thread (Atomics.wait would stall every other check of the worker); this one waits with Atomics.waitAsync.
 */

import type { Queued, SharedBound } from './transport.js';

/**
 * Shared counters for `slots` slots (one per service): the requests in flight of each slot, then the requests of each
 * slot waiting for a place (queued in a transport; see SharedLimit.queue).
 */
export function sharedCounters(slots: number): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 2 * Math.max(1, slots));
}

/**
 * Requests of each slot waiting for a place now, across every thread. The run's side-by-side runner (plain JavaScript:
 * run/vitest/side-by-side-runner.mjs `saturated`) reads the same cells itself, so this function is where the layout is
 * stated and tested.
 */
export function waitingCounts(buffer: SharedArrayBuffer): number[] {
  const cells = new Int32Array(buffer);
  const slots = cells.length / 2;
  return Array.from({ length: slots }, (_, i) => Atomics.load(cells, slots + i));
}

/** Longest wait before the counter is read again (guards against a missed wake-up; ms). */
const RECHECK_MS = 250;

export class SharedLimit implements SharedBound {
  private readonly cells: Int32Array;
  /** The cell counting this slot's requests waiting for a place. */
  private readonly waitingCell: number;

  /**
   * @param buffer counters made by sharedCounters (the same buffer in every worker)
   * @param slot this limit's cell (its service's index)
   * @param max most holders at once across every thread sharing `buffer`
   * @throws RangeError when `slot` lies outside `buffer` or `max` is below 1
   */
  constructor(
    buffer: SharedArrayBuffer,
    private readonly slot: number,
    readonly max: number,
  ) {
    this.cells = new Int32Array(buffer);
    this.waitingCell = this.cells.length / 2 + slot;
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.cells.length / 2)
      throw new RangeError(`slot ${slot} outside the ${this.cells.length / 2} shared counters`);
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`max ${max}: expected a whole number of at least 1`);
  }

  /** Holders now, across every thread. */
  get inFlight(): number {
    return Atomics.load(this.cells, this.slot);
  }

  /** Requests of this slot waiting for a place now, across every thread. */
  get waiting(): number {
    return Atomics.load(this.cells, this.waitingCell);
  }

  /**
   * Counts one request as waiting for a place from now until `run` takes it (the `queued` it returns, handed to `run`),
   * whatever queue of its own the caller keeps it in before that.
   */
  queue(): Queued {
    Atomics.add(this.cells, this.waitingCell, 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      Atomics.sub(this.cells, this.waitingCell, 1);
    };
  }

  /**
   * Runs `fn` once fewer than `max` holders hold the limit (fewer than `lower`, when given and lower: the bound as the
   * service's pacing lowered it, harness/pacing.ts), and releases it when `fn` settles. `queued` (from queue()) stops
   * counting the request as waiting once it holds a place.
   */
  async run<T>(fn: () => Promise<T>, lower?: number, queued?: Queued): Promise<T> {
    try {
      await this.acquire(Math.max(1, Math.min(this.max, lower ?? this.max)));
    } finally {
      queued?.();
    }
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private async acquire(max: number): Promise<void> {
    for (;;) {
      const held = Atomics.load(this.cells, this.slot);
      if (held < max) {
        if (Atomics.compareExchange(this.cells, this.slot, held, held + 1) === held) return;
        continue; // another holder came in between: read again
      }
      // Sleeps until a release changes the cell (or it changed already: "not-equal", read again). A pending waitAsync
      // does not keep a thread's event loop alive, so a timer does.
      const waiting = Atomics.waitAsync(this.cells, this.slot, held, RECHECK_MS);
      if (!waiting.async) continue;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([waiting.value, new Promise((r) => (timer = setTimeout(r, RECHECK_MS)))]);
      clearTimeout(timer);
    }
  }

  private release(): void {
    Atomics.sub(this.cells, this.slot, 1);
    Atomics.notify(this.cells, this.slot, 1);
  }
}
