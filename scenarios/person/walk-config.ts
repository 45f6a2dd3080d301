/**
 * What the person walks need to know (scenarios/person/walks.test.ts registers the check): how to build identities far
 * apart and which requirement each step of the state table bears on.
 */
import { personIdentity } from '../../generators/person.js';
import { type WalkConfig, walkSpecOf } from '../shared/walk-config.js';

export const personWalks: WalkConfig = {
  service: 'person',
  generate: (f, source) => personIdentity(f, source),
  ...walkSpecOf('person'),
};

/** The walk checks' file (the replay command names it). */
export const WALKS_FILE = 'scenarios/person/walks.test.ts';
