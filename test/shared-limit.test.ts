/**
 * The in-flight bound every worker of a run shares (harness/shared-limit.ts): never more holders
 * than the bound across threads, the bound reached when there is work for it, every task done.
 * Source: README, settings (CONFORMANCE_MAX_IN_FLIGHT: requests in flight per service, for the
 * whole run).
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SharedLimit, sharedCounters, waitingCounts } from '../harness/shared-limit.js';

const ENTRY = new URL('./support/tsx-worker.mjs', import.meta.url);
const MODULE = new URL('./support/shared-limit-worker.ts', import.meta.url).href;

function runWorker(data: {
  buffer: SharedArrayBuffer;
  max: number;
  tasks: number;
  holdMs: number;
}): Promise<{ most: number; done: number }> {
  return new Promise((resolve, reject) => {
    const w = new Worker(ENTRY, { workerData: { ...data, module: MODULE } });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => code !== 0 && reject(new Error(`worker exited with ${code}`)));
  });
}

describe('SharedLimit', () => {
  it('bounds holders across worker threads and lets every task through', async () => {
    const buffer = sharedCounters(1);
    // A watcher in this thread samples the shared counter while three threads compete for it.
    const watch = new SharedLimit(buffer, 0, 4);
    let most = 0;
    const timer = setInterval(() => (most = Math.max(most, watch.inFlight)), 2);
    const results = await Promise.all([0, 1, 2].map(() => runWorker({ buffer, max: 4, tasks: 12, holdMs: 20 })));
    clearInterval(timer);
    expect(results.map((r) => r.done)).toEqual([12, 12, 12]);
    expect(Math.max(most, ...results.map((r) => r.most))).toBeLessThanOrEqual(4);
    expect(Math.max(most, ...results.map((r) => r.most))).toBe(4);
    expect(watch.inFlight).toBe(0);
  });

  it('two limits on one buffer count together, and a release wakes a waiter', async () => {
    const buffer = sharedCounters(3);
    const [a, b] = [new SharedLimit(buffer, 2, 1), new SharedLimit(buffer, 2, 1)];
    const order: string[] = [];
    let release!: () => void;
    const first = a.run(
      () =>
        new Promise<void>(
          (r) =>
            (release = () => {
              order.push('a done');
              r();
            }),
        ),
    );
    const second = b.run(async () => void order.push(`b ran with ${b.inFlight} in flight`));
    await new Promise((r) => setTimeout(r, 30));
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a done', 'b ran with 1 in flight']);
    expect(new SharedLimit(buffer, 0, 1).inFlight).toBe(0);
  });

  it('refuses a slot outside the buffer and a bound below 1', () => {
    expect(() => new SharedLimit(sharedCounters(2), 2, 4)).toThrow(/slot 2 outside the 2 shared counters/);
    expect(() => new SharedLimit(sharedCounters(1), 0, 0)).toThrow(/max 0/);
  });

  it('a failing task releases its hold', async () => {
    const limit = new SharedLimit(sharedCounters(1), 0, 1);
    await expect(limit.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limit.inFlight).toBe(0);
    await expect(limit.run(async () => 'next')).resolves.toBe('next');
  });

  it('counts requests waiting for a place, per slot, from queue() until run() gives them one', async () => {
    const buffer = sharedCounters(2);
    const limit = new SharedLimit(buffer, 1, 1);
    let release!: () => void;
    const held = limit.run(() => new Promise<void>((r) => (release = r)), undefined, limit.queue());
    await new Promise((r) => setTimeout(r, 10));
    // The holder no longer counts as waiting; two more wait (one not yet handed to run, as in a transport's own queue).
    const queuedAside = limit.queue();
    const second = limit.run(async () => 'second', undefined, limit.queue());
    expect([limit.waiting, ...waitingCounts(buffer)]).toEqual([2, 0, 2]);
    release();
    await Promise.all([held, second]);
    expect(waitingCounts(buffer)).toEqual([0, 1]);
    queuedAside();
    queuedAside(); // a second call changes nothing
    expect(waitingCounts(buffer)).toEqual([0, 0]);
  });
});
