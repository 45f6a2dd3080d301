/**
 * What the provider walks need to know (scenarios/provider/walks.test.ts registers the check): how to build identities
 * far apart and which requirement each step of the state table bears on.
 */
import { providerIdentity } from '../../generators/provider.js';
import type { ProviderKind } from '../../specs/provider/identity.js';
import { type WalkConfig, walkSpecOf } from '../shared/walk-config.js';

export const providerWalks: WalkConfig = {
  service: 'provider',
  generate: (f, source, kind, profile) =>
    providerIdentity((kind ?? 'practitioner') as ProviderKind, f, source, profile.provider),
  ...walkSpecOf('provider'),
};

/** The walk checks' file (the replay command names it). */
export const WALKS_FILE = 'scenarios/provider/walks.test.ts';
