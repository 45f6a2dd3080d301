/** Fixture: a long check of the "east" service, still running when west's short file has long ended. */
import { test } from 'vitest';
import { runningIn } from '../state.js';

test('east runs a long check', () => runningIn('east', () => new Promise((r) => setTimeout(r, 1500))));
