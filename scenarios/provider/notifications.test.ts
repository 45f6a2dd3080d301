/**
 * Provider searchNotifications: paging (shared table), the requested period only, and the run's
 * merge, link and unlink events in their period.
 * Source: person-provider-identity-api.md, Events; Endpoints (searchNotifications).
 */
import { CHANGES, notificationEventChecks } from '../shared/rules/notification-events.js';
import { notificationChecks } from '../shared/rules/notifications.js';
import { area, practitioner } from './provider.js';

const { check } = area('notifications');

notificationChecks({ check, kit: practitioner });
notificationEventChecks({ check, kit: practitioner, changes: [CHANGES.merge, CHANGES.link, CHANGES.unlink] });
