/**
 * Merge, unmerge, link and unlink rows of the state table: the reply members the seed names,
 * and the identities observed afterwards through nativeIdQuery and identityIdQuery (shared table).
 * Source: organization-identity-api.md, States and transitions.
 */
import { mergeLinkChecks } from '../shared/rules/merge-link.js';
import { area, org } from './org.js';
import { dataChecks } from '../shared/rules/data.js';

mergeLinkChecks({
  check: area('merge-link').check,
  kit: org,
  ids: {
    mergeReply: 'ORG-MERGE-REPLY',
    mergeEffect: 'ORG-MERGE-EFFECT',
    unmergeReply: 'ORG-UNMERGE-REPLY',
    unmergeEffect: 'ORG-UNMERGE-EFFECT',
    linkReply: 'ORG-LINK-REPLY',
    linkEffect: 'ORG-LINK-EFFECT',
    unlinkReply: 'ORG-UNLINK-REPLY',
    unlinkEffect: 'ORG-UNLINK-EFFECT',
  },
});

dataChecks({ check: area('merge-link').check, kit: org, ids: { unmergeData: 'ORG-UNMERGE-EFFECT', linkData: 'ORG-LINK-EFFECT' } });
