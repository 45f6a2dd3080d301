/**
 * What the person walks need to know (scenarios/person/walks.test.ts registers the check): how to
 * build identities far apart and which requirement each step of the state table bears on.
 */
import { personIdentity } from '../../generators/person.js';
import type { WalkConfig } from '../shared/model/walk-real.js';

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

/** The walk check's title and file (the replay command names them). */
export const WALKS_TITLE = 'model-based walks over the state table keep replies and identities consistent with the model';
export const WALKS_FILE = 'scenarios/person/walks.test.ts';
