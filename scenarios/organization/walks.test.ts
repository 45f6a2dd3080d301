/**
 * Model-based walks over the organization state table: generated sequences of post, update,
 * soft delete, restore, hard delete, merge, unmerge, link and unlink, checked after every step
 * against the identity model (reply, rejection, partition up to renaming of link IDs).
 * Source: organization-identity-api.md, "States and transitions".
 */
import { organizationIdentity } from '../../generators/organization.js';
import { runWalks } from '../shared/model/walk.js';
import { type WalkConfig, walkRequirementIds } from '../shared/model/walk-real.js';
import { area } from './org.js';

const { check } = area('walks');

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

const title = 'model-based walks over the state table keep replies and identities consistent with the model';
check(title, walkRequirementIds(organizationWalks), (t) => runWalks(t, organizationWalks, { file: 'scenarios/organization/walks.test.ts', title }));
