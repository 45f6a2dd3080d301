/**
 * Model-based walks over the provider state table, with practitioners and health facilities
 * posted alternately so that merge and link attempts across provider types come up (they must be
 * rejected and change nothing): generated sequences of post, update, soft delete, restore, hard
 * delete, merge, unmerge, link and unlink, checked after every step against the identity model.
 * Source: person-provider-identity-api.md, "States and transitions" (provider rows: same type only).
 */
import { providerIdentity } from '../../generators/provider.js';
import { runInfo } from '../../harness/targets.js';
import type { ProviderKind } from '../../specs/provider/identity.js';
import { runWalks } from '../shared/model/walk.js';
import { type WalkConfig, walkRequirementIds } from '../shared/model/walk-real.js';
import { area } from './provider.js';

const { check } = area('walks');

export const providerWalks: WalkConfig = {
  service: 'provider',
  generate: (f, source, kind) => providerIdentity((kind ?? 'practitioner') as ProviderKind, f, source, runInfo().profile.provider),
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

const title = 'model-based walks over the state table keep replies and identities consistent with the model';
check(title, walkRequirementIds(providerWalks), (t) => runWalks(t, providerWalks, { file: 'scenarios/provider/walks.test.ts', title }));
