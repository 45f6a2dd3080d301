/**
 * linkage/bounded.ts: the phases of the match-quality benchmark run at most `limit` tasks at
 * once, take the items in order (one at a time in posting order with limit 1), and start a task
 * only when a runner is free (nothing queued per item).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { forEachBounded } from '../linkage/bounded.js';

it('never runs more than the limit at once, and reaches it', async () => {
  let running = 0;
  let most = 0;
  const done: number[] = [];
  await forEachBounded(
    Array.from({ length: 40 }, (_, i) => i),
    8,
    async (i) => {
      running++;
      most = Math.max(most, running);
      await sleep(i % 3);
      running--;
      done.push(i);
    },
  );
  expect(most).toBe(8);
  expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
});

it('with limit 1 runs the tasks one after another in the items’ order', async () => {
  const events: string[] = [];
  await forEachBounded(['a', 'b', 'c'], 1, async (x) => {
    events.push(`start ${x}`);
    await sleep(x === 'a' ? 5 : 0);
    events.push(`end ${x}`);
  });
  expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
});

it('takes an item from the iterable only when a runner is free', async () => {
  let taken = 0;
  let mostAhead = 0;
  let finished = 0;
  function* items() {
    for (let i = 0; i < 50; i++) {
      taken++;
      mostAhead = Math.max(mostAhead, taken - finished);
      yield i;
    }
  }
  await forEachBounded(items(), 4, async () => {
    await sleep(1);
    finished++;
  });
  expect(taken).toBe(50);
  expect(mostAhead).toBeLessThanOrEqual(4);
});

it('a failing task rejects the call and no new task starts after it', async () => {
  const started: number[] = [];
  await expect(
    forEachBounded([1, 2, 3, 4, 5, 6], 2, async (i) => {
      started.push(i);
      await sleep(1);
      if (i === 2) throw new Error('boom');
    }),
  ).rejects.toThrow('boom');
  await sleep(20);
  expect(started.length).toBeLessThan(6);
});
