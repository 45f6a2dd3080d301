/** Fixture of the load-aware start: each check notes its file's letter when it starts, in ORDER_FILE. */
import { appendFileSync } from 'node:fs';
import { test } from 'vitest';

export function startsAndWaits(letter: string, ms: number): void {
  test(`file ${letter} starts`, async () => {
    appendFileSync(process.env.ORDER_FILE!, letter);
    await new Promise((r) => setTimeout(r, ms));
  });
}
