/**
 * Fixture: west's isolated file (area bad-input). It starts once west's other files have ended;
 * whether east's long check still runs then says whether it waited for east too (east and west
 * in one isolation group: SAME_GROUP=1) or not.
 */
import { expect, test } from 'vitest';
import { runningNow } from '../state.js';

test('west bad input starts after west and as its group requires', () => {
  expect(runningNow('west')).toBe(0);
  expect(runningNow('east') > 0 ? 'beside east' : 'after east').toBe(
    process.env.SAME_GROUP ? 'after east' : 'beside east',
  );
});
