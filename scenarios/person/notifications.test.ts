/**
 * searchNotifications: the paginated feed's paging over a closed window (shared table), the date
 * range, and the changes the person state table says the feed describes (merges, links,
 * deactivations) in their window. Notification fields are "not shown": a change is recognised by a
 * native ID or link ID it names.
 * Source: person-provider-identity-api.md, Events.
 */
import { notificationEventChecks } from '../shared/rules/notification-events.js';
import { notificationChecks } from '../shared/rules/notifications.js';
import { area, person } from './person.js';
import { personWalks } from './walk-config.js';

const { check } = area('notifications');

notificationChecks({ check, kit: person });
notificationEventChecks({
  check,
  kit: person,
  walks: personWalks,
});
