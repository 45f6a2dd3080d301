import { expect, test } from 'vitest';
import { arrive, counted } from './barrier.js';

test('file a meets the other files', async () => {
  expect(await arrive('a', ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
});

test('check 1 of file a runs alone in its file (maxConcurrency 1)', async () => {
  expect(await counted('a', () => new Promise((r) => setTimeout(r, 50)))).toBe(1);
});

test('check 2 of file a runs alone in its file (maxConcurrency 1)', async () => {
  expect(await counted('a', () => new Promise((r) => setTimeout(r, 50)))).toBe(1);
});
