/**
 * searchNotifications: paging invariants over a closed window (page sizes, hasNext false on
 * the last page only, totalElements equal to the notifications walked, no duplicates), and the
 * run's own changes appear in their window (shared table).
 * Source: organization-identity-api.md, Events; Resources (Notification page).
 */
import { notificationChecks } from '../shared/rules/notifications.js';
import { area, org } from './org.js';

notificationChecks({
  check: area('notifications').check,
  kit: org,
  ids: { paging: 'ORG-NOTIF-PAGING', total: 'ORG-NOTIF-TOTAL', noDuplicates: 'ORG-NOTIF-NO-DUPLICATES', recordsChanges: 'ORG-NOTIF-RECORDS-CHANGES' },
});
