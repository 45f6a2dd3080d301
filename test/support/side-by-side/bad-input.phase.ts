/** Fixture of an isolated area (bad input): it must start only once every other file has ended. */
import { expect, test } from 'vitest';
import { runningChecks } from './barrier.js';

test('the isolated file runs after every other file', () => {
  expect(runningChecks()).toBe(0);
});
