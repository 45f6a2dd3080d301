/**
 * What the organization walks need to know (scenarios/organization/walks.test.ts registers the check): how to
 * build identities far apart and which requirement each step of the state table bears on.
 */
import { organizationIdentity } from '../../generators/organization.js';
import type { WalkConfig } from '../shared/model/walk-real.js';

export const organizationWalks: WalkConfig = {
  service: 'organization',
  generate: (f, source) => organizationIdentity(f, source),
  requirements: {
    post: 'ORG-POST-ADDS',
    update: 'ORG-POST-SAME-SOURCE-UPDATES',
    apart: 'ORG-WALK-APART',
    rejectedNoChange: 'ORG-REJECTED-NO-CHANGE',
    noServerError: 'ORG-NO-SERVER-ERROR',
    softDelete: { reply: 'ORG-SOFTDELETE-REPLY', effect: 'ORG-SOFTDELETE-EFFECT' },
    restore: { reply: 'ORG-RESTORE-REPLY', effect: 'ORG-RESTORE-EFFECT' },
    hardDelete: { reply: 'ORG-HARDDELETE-REPLY', effect: 'ORG-HARDDELETE-EFFECT' },
    merge: { reply: 'ORG-MERGE-REPLY', effect: 'ORG-MERGE-EFFECT' },
    unmerge: { reply: 'ORG-UNMERGE-REPLY', effect: 'ORG-UNMERGE-EFFECT' },
    link: { reply: 'ORG-LINK-REPLY', effect: 'ORG-LINK-EFFECT' },
    unlink: { reply: 'ORG-UNLINK-REPLY', effect: 'ORG-UNLINK-EFFECT' },
  },
};

/** The walk check's title and file (the replay command names them). */
export const WALKS_TITLE = 'model-based walks over the state table keep replies and identities consistent with the model';
export const WALKS_FILE = 'scenarios/organization/walks.test.ts';
