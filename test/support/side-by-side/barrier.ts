import { expect, inject, test } from 'vitest';

/** Shared by the fixture's files (one worker, isolate: false): who arrived, and how many checks of a file ran at once. */
const arrived = new Set<string>();
const running = new Map<string, number>();
const most = new Map<string, number>();

/** Waits until every file named in `all` has arrived, or `waitMs`; returns who had arrived. */
export async function arrive(file: string, all: string[], waitMs = 2000): Promise<string[]> {
  arrived.add(file);
  const until = Date.now() + waitMs;
  while (Date.now() < until && !all.every((f) => arrived.has(f))) await new Promise((r) => setTimeout(r, 20));
  return [...arrived].sort();
}

/** Checks of the fixture's side-by-side files running now (an isolated file's check must see none). */
export const runningChecks = () => [...running.values()].reduce((n, v) => n + v, 0) + waiting.size;
const waiting = new Set<string>();

/** Runs `body` counted as one of `file`'s checks at once; returns the most seen at once so far. */
export async function counted(file: string, body: () => Promise<unknown>): Promise<number> {
  running.set(file, (running.get(file) ?? 0) + 1);
  most.set(file, Math.max(most.get(file) ?? 0, running.get(file)!));
  try {
    await body();
  } finally {
    running.set(file, running.get(file)! - 1);
  }
  return most.get(file)!;
}

/** The checks of fixture file `file`: one meets the other files at the barrier, two count how many of the file's checks ran at once (at most the config's maxConcurrency). */
export function fixtureChecks(file: string): void {
  test(`file ${file} meets the other files`, async () => {
    waiting.add(file);
    try {
      expect(await arrive(file, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    } finally {
      waiting.delete(file);
    }
  });
  for (const n of [1, 2])
    test(`check ${n} of file ${file} keeps to its file's maxConcurrency`, async () => {
      expect(await counted(file, () => new Promise((r) => setTimeout(r, 50)))).toBeLessThanOrEqual(
        inject('checksPerFile'),
      );
    });
}
