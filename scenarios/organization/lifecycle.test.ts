/**
 * Source lifecycle rows of the state table: soft delete, restore, hard delete; each checks the
 * reply members the seed names and the observable state afterwards (shared table).
 * Source: organization-identity-api.md, States and transitions.
 */
import { lifecycleChecks } from '../shared/rules/lifecycle.js';
import { area, org } from './org.js';
import { dataChecks } from '../shared/rules/data.js';

lifecycleChecks({
  check: area('lifecycle').check,
  kit: org,
  ids: {
    softDeleteReply: 'ORG-SOFTDELETE-REPLY',
    softDeleteEffect: 'ORG-SOFTDELETE-EFFECT',
    restoreReply: 'ORG-RESTORE-REPLY',
    restoreEffect: 'ORG-RESTORE-EFFECT',
    hardDeleteReply: 'ORG-HARDDELETE-REPLY',
    hardDeleteEffect: 'ORG-HARDDELETE-EFFECT',
  },
});

dataChecks({ check: area('lifecycle').check, kit: org, ids: { restoreData: 'ORG-RESTORE-EFFECT', hardDeleteData: 'ORG-HARDDELETE-EFFECT' } });
