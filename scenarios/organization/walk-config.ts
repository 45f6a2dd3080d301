/**
 * What the organization walks need to know (scenarios/organization/walks.test.ts registers the check): how to build
 * identities far apart and which requirement each step of the state table bears on.
 */
import { organizationIdentity } from '../../generators/organization.js';
import { type WalkConfig, walkSpecOf } from '../shared/walk-config.js';

export const organizationWalks: WalkConfig = {
  service: 'organization',
  generate: (f, source) => organizationIdentity(f, source),
  ...walkSpecOf('organization'),
};

/** The walk checks' file (the replay command names it). */
export const WALKS_FILE = 'scenarios/organization/walks.test.ts';
