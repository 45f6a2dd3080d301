/**
 * searchNotifications: paging invariants over a closed window (page sizes, hasNext until the last
 * page, totalElements equal to the notifications walked, no duplicates), the run's own changes in
 * their window, and the date range (shared tables).
 * Source: organization-identity-api.md, Events; Resources (Notification page).
 */
import { notificationEventChecks } from '../shared/rules/notification-events.js';
import { notificationChecks } from '../shared/rules/notifications.js';
import { area, org } from './org.js';
import { organizationWalks } from './walk-config.js';

const { check } = area('notifications');

notificationChecks({
  check,
  kit: org,
});
notificationEventChecks({ check, kit: org, walks: organizationWalks });
