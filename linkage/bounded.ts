/**
 * Runs one asynchronous task per item with at most `limit` running at once, taking the items in their order. Unlike
 * mapping every item through p-limit first, it holds no pending promise per item: a phase over 100,000 records keeps
 * `limit` tasks alive, not 100,000 queued closures. With `limit` 1 the tasks run one after another in the items' order
 * (the posting order the match-quality benchmark relies on, linkage/benchmark.ts). A task that throws rejects the whole
 * call (the other runners finish the task they hold and stop).
 */
export async function forEachBounded<T>(
  items: Iterable<T>,
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const next = items[Symbol.iterator]();
  let failed = false;
  const runner = async () => {
    for (let n = next.next(); !n.done && !failed; n = next.next()) {
      try {
        await task(n.value);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(limit)) }, runner));
}
