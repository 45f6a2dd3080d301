import { fixtureChecks } from './barrier.js';

fixtureChecks('c');
