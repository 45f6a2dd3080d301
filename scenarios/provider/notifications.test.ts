/**
 * Provider searchNotifications: paging (shared table), the requested period only, and the changes
 * the provider state table says the feed reports (merge, link and unlink events) in their period.
 * Source: person-provider-identity-api.md, Events; Endpoints (searchNotifications).
 */
import { notificationEventChecks } from '../shared/rules/notification-events.js';
import { notificationChecks } from '../shared/rules/notifications.js';
import { area, practitioner } from './provider.js';
import { providerWalks } from './walk-config.js';

const { check } = area('notifications');

notificationChecks({ check, kit: practitioner });
notificationEventChecks({
  check,
  kit: practitioner,
  walks: providerWalks,
  kind: 'practitioner',
});
