import { fixtureChecks } from './barrier.js';

fixtureChecks('a');
