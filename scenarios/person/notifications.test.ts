/**
 * searchNotifications: the paginated feed's paging over a closed window (shared table), the date
 * range, and the run's merges, links and deactivations in their window. Notification fields are
 * "not shown": a change is recognised by a native ID or link ID it names.
 * Source: person-provider-identity-api.md, Events.
 */
import { CHANGES, notificationEventChecks } from '../shared/rules/notification-events.js';
import { notificationChecks } from '../shared/rules/notifications.js';
import { area, deactivate, person } from './person.js';

const { check } = area('notifications');

notificationChecks({ check, kit: person });
notificationEventChecks({
  check,
  kit: person,
  changes: [
    CHANGES.merge,
    CHANGES.link,
    { what: 'a deactivation', make: (t, _a, b) => t.ok('deactivateSourceWs', deactivate(t, b.source)) },
  ],
});
