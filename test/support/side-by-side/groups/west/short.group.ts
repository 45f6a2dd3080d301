/** Fixture: a short check of the "west" service; west's isolated file must start only after it. */
import { test } from 'vitest';
import { runningIn } from '../state.js';

test('west runs a short check', () => runningIn('west', () => new Promise((r) => setTimeout(r, 50))));
