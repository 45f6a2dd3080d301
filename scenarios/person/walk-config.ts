/**
 * What the person walks need to know (scenarios/person/walks.test.ts registers the check): how to
 * build identities far apart and which requirement each step of the state table bears on.
 */
import { personIdentity } from '../../generators/person.js';
import { type WalkConfig, walkSpecOf } from '../shared/model/walk-real.js';

export const personWalks: WalkConfig = {
  service: 'person',
  generate: (f, source) => personIdentity(f, source),
  ...walkSpecOf('person'),
};

/** The walk check's title and file (the replay command names them). */
export const WALKS_TITLE = 'model-based walks over the state table keep replies and identities consistent with the model';
export const WALKS_FILE = 'scenarios/person/walks.test.ts';
