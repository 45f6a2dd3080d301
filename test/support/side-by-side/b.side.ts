import { fixtureChecks } from './barrier.js';

fixtureChecks('b');
