/**
 * Model-based walks over the provider state table, with practitioners and health facilities
 * posted alternately so that merge and link attempts across provider types come up (they must be
 * rejected and change nothing): generated sequences of post, update, soft delete, restore, hard
 * delete, merge, unmerge, link and unlink, checked after every step against the identity model.
 * Source: person-provider-identity-api.md, "States and transitions" (provider rows: same type only).
 */
import { walkChecks } from '../shared/walk/walk.js';
import { area } from './provider.js';
import { WALKS_FILE, providerWalks } from './walk-config.js';

walkChecks(area('walks').check, providerWalks, WALKS_FILE, [
  'PROV-HARDDELETE-EFFECT',
  'PROV-HARDDELETE-HISTORY',
  'PROV-IDQUERY-RETURNS',
  'PROV-LINK-EFFECT',
  'PROV-LINK-REPLY',
  'PROV-LINK-SAME-TYPE',
  'PROV-MERGE-EFFECT',
  'PROV-MERGE-REPLY',
  'PROV-MERGE-SAME-TYPE',
  'PROV-NATIVEID-QUERY',
  'PROV-NOTIF-PAGING',
  'PROV-NOTIF-RECORDS-CHANGES',
  'PROV-POST-ADDS',
  'PROV-POST-SAME-SOURCE-UPDATES',
  'PROV-REJECTED-NO-CHANGE',
  'PROV-RESTORE-EFFECT',
  'PROV-RESTORE-REPLY',
  'PROV-SOFTDELETE-EFFECT',
  'PROV-UNLINK-EFFECT',
  'PROV-UNLINK-REPLY',
  'PROV-UNMERGE-EFFECT',
  'PROV-UNMERGE-REPLY',
  'PROV-WALK-APART',
]);
