/**
 * Model-based walks over the organization state table: generated sequences of post, update,
 * soft delete, restore, hard delete, merge, unmerge, link and unlink, checked after every step
 * against the identity model (reply, rejection, partition up to renaming of link IDs).
 * Source: organization-identity-api.md, "States and transitions".
 */
import { walkChecks } from '../shared/walk/walk.js';
import { area } from './org.js';
import { WALKS_FILE, organizationWalks } from './walk-config.js';

walkChecks(area('walks').check, organizationWalks, WALKS_FILE, [
  'ORG-HARDDELETE-EFFECT',
  'ORG-HARDDELETE-REPLY',
  'ORG-IDQUERY-ECHO',
  'ORG-IDQUERY-RETURNS',
  'ORG-LINK-EFFECT',
  'ORG-LINK-REPLY',
  'ORG-MERGE-EFFECT',
  'ORG-MERGE-REPLY',
  'ORG-NATIVEID-QUERY',
  'ORG-NOTIF-NO-DUPLICATES',
  'ORG-NOTIF-RECORDS-CHANGES',
  'ORG-POST-ADDS',
  'ORG-POST-SAME-SOURCE-UPDATES',
  'ORG-REJECTED-NO-CHANGE',
  'ORG-RESTORE-EFFECT',
  'ORG-RESTORE-REPLY',
  'ORG-SOFTDELETE-EFFECT',
  'ORG-SOFTDELETE-REPLY',
  'ORG-UNLINK-EFFECT',
  'ORG-UNLINK-REPLY',
  'ORG-UNMERGE-EFFECT',
  'ORG-UNMERGE-REPLY',
  'ORG-WALK-APART',
]);
