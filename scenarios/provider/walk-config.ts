/**
 * What the provider walks need to know (scenarios/provider/walks.test.ts registers the check): how to
 * build identities far apart and which requirement each step of the state table bears on.
 */
import { providerIdentity } from '../../generators/provider.js';
import type { ProviderKind } from '../../specs/provider/identity.js';
import type { WalkConfig } from '../shared/model/walk-real.js';

export const providerWalks: WalkConfig = {
  service: 'provider',
  generate: (f, source, kind, profile) => providerIdentity((kind ?? 'practitioner') as ProviderKind, f, source, profile.provider),
  kinds: ['practitioner', 'healthFacility'],
  requirements: {
    post: 'PROV-POST-ADDS',
    update: 'PROV-POST-SAME-SOURCE-UPDATES',
    apart: 'PROV-WALK-APART',
    rejectedNoChange: 'PROV-REJECTED-NO-CHANGE',
    noServerError: 'PROV-NO-SERVER-ERROR',
    softDelete: { effect: 'PROV-SOFTDELETE-EFFECT' },
    restore: { reply: 'PROV-RESTORE-REPLY', effect: 'PROV-RESTORE-EFFECT' },
    hardDelete: { effect: 'PROV-HARDDELETE-EFFECT' },
    merge: { reply: 'PROV-MERGE-REPLY', effect: 'PROV-MERGE-EFFECT' },
    unmerge: { reply: 'PROV-UNMERGE-REPLY', effect: 'PROV-UNMERGE-EFFECT' },
    link: { reply: 'PROV-LINK-REPLY', effect: 'PROV-LINK-EFFECT' },
    unlink: { reply: 'PROV-UNLINK-REPLY', effect: 'PROV-UNLINK-EFFECT' },
    sameKind: { merge: 'PROV-MERGE-SAME-TYPE', link: 'PROV-LINK-SAME-TYPE' },
  },
};

/** The walk check's title and file (the replay command names them). */
export const WALKS_TITLE = 'model-based walks over the state table keep replies and identities consistent with the model';
export const WALKS_FILE = 'scenarios/provider/walks.test.ts';
