/**
 * searchNotifications: the paginated feed's paging over a closed window, and a deactivation the
 * run made appearing in its window. Notification fields are "not shown": a change is recognised
 * by its native ID appearing anywhere in a notification.
 * Source: person-provider-identity-api.md, Events.
 */
import { expect } from 'vitest';
import { mentions, openWindowFrom, walkNotifications } from '../shared/notifications.js';
import { notificationChecks } from '../shared/rules/notifications.js';
import { area, deactivate, person } from './person.js';

const { check } = area('notifications');

notificationChecks({ check, kit: person, ids: { paging: 'PERSON-NOTIF-PAGING' } });

check('a deactivation the run made appears in the notifications of its window', ['PERSON-NOTIF-RECORDS-CHANGES'], async (t) => {
  const window = openWindowFrom(t);
  const a = await person.postNew(t, ['PERSON-NOTIF-RECORDS-CHANGES']);
  const count = async () => (await walkNotifications(t, window())).notifications.filter((n) => mentions(n, a.source.id)).length;
  // The post's own notification first (a lagging feed shows it late), so the deactivation's is told apart.
  const before = await t.settle('notification of the post', count, (n) => n > 0);
  await t.ok('deactivateSourceWs', deactivate(t, a.source), { cites: ['PERSON-NOTIF-RECORDS-CHANGES'] });
  const seen = await t.eventually('notification of the deactivation', async () => ((await count()) > before ? true : undefined));
  await t.rule('PERSON-NOTIF-RECORDS-CHANGES', () => expect(seen, `a new notification mentions native ID ${a.source.id} after its deactivation`).toBe(true));
});
