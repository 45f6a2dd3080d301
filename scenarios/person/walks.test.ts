/**
 * Model-based walks over the person state table: generated sequences of post, update,
 * deactivate, reactivate, hard delete, merge, unmerge, link and unlink (the person service has
 * no soft delete or restore), checked after every step against the identity model (reply,
 * rejection, partition up to renaming of link IDs; a deactivated record stays visible in its
 * identity, an exact copy posted meanwhile does not join it, and it is reactivated into its
 * original link ID).
 * Source: person-provider-identity-api.md, "States and transitions" (person rows).
 */
import { personIdentity } from '../../generators/person.js';
import { runWalks } from '../shared/model/walk.js';
import { type WalkConfig, walkRequirementIds } from '../shared/model/walk-real.js';
import { area } from './person.js';

const { check } = area('walks');

export const personWalks: WalkConfig = {
  service: 'person',
  generate: (f, source) => personIdentity(f, source),
  requirements: {
    post: 'PERSON-POST-ADDS',
    update: 'PERSON-POST-SAME-SOURCE-UPDATES',
    apart: 'PERSON-WALK-APART',
    rejectedNoChange: 'PERSON-REJECTED-NO-CHANGE',
    noServerError: 'PERSON-NO-SERVER-ERROR',
    deactivate: { effect: 'PERSON-DEACTIVATE-VISIBLE' },
    reactivate: { reply: 'PERSON-REACTIVATE-ORIGINAL-LINK', effect: 'PERSON-REACTIVATE-ORIGINAL-LINK' },
    deactivatedExcluded: 'PERSON-DEACTIVATE-EXCLUDES-MATCHING',
    hardDelete: { effect: 'PERSON-DELETE-PHYSICAL' },
    merge: { effect: 'PERSON-MERGE-SHARED-LINK' },
    unmerge: { effect: 'PERSON-UNMERGE-NEW-LINK' },
    link: { effect: 'PERSON-LINK-SAME-LINKID' },
    unlink: { effect: 'PERSON-UNLINK-OWN-LINKID' },
  },
};

const title = 'model-based walks over the state table keep replies and identities consistent with the model';
check(title, walkRequirementIds(personWalks), (t) => runWalks(t, personWalks, { file: 'scenarios/person/walks.test.ts', title }));
