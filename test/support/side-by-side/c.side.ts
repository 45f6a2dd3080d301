import { expect, test } from 'vitest';
import { arrive, counted } from './barrier.js';

test('file c meets the other files', async () => {
  expect(await arrive('c', ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
});

test('check 1 of file c runs alone in its file (maxConcurrency 1)', async () => {
  expect(await counted('c', () => new Promise((r) => setTimeout(r, 50)))).toBe(1);
});

test('check 2 of file c runs alone in its file (maxConcurrency 1)', async () => {
  expect(await counted('c', () => new Promise((r) => setTimeout(r, 50)))).toBe(1);
});
