/**
 * searchNotifications: the paginated feed's paging over a closed window, and a deactivation the
 * run made appearing in its window. Notification fields are "not shown": a change is recognised
 * by its native ID appearing anywhere in a notification.
 * Source: person-provider-identity-api.md, Events.
 */
import { expect } from 'vitest';
import { closedWindow, walkNotifications } from '../shared/notifications.js';
import { area, deactivate, person } from './person.js';

const { check } = area('notifications');

check('notification pages respect pageSize and hasNext is false exactly on the last page', ['PERSON-NOTIF-PAGING'], async (t) => {
  // pageSize + 1 people (at most 11), so the window spans more than one page.
  await Promise.all(Array.from({ length: Math.min(t.profile.notifications.pageSize + 1, 11) }, () => person.postNew(t, ['PERSON-NOTIF-PAGING'])));
  const walk = await walkNotifications(t, await closedWindow());
  if (walk.pages.some((p) => typeof p.content?.hasNext !== 'boolean')) t.skip('a page carries no hasNext, so paging cannot be followed');
  if (!walk.complete) t.skip(`the window holds more than ${t.profile.notifications.maxPages} pages (profile notifications.maxPages)`);
  const { pageSize } = t.profile.notifications;
  await t.rule('PERSON-NOTIF-PAGING', () => {
    expect(walk.notifications.length, 'the window holds the run\'s own notifications').toBeGreaterThan(0);
    walk.pages.forEach((p, i) => {
      const n = (Array.isArray(p.content?.notifications) ? p.content.notifications : []).length;
      expect(n, `page ${i} holds at most pageSize`).toBeLessThanOrEqual(pageSize);
      const last = i === walk.pages.length - 1;
      expect(p.content.hasNext, `hasNext on page ${i} of ${walk.pages.length}`).toBe(!last);
      // Where a page gives totalElements, the last page is the one that reaches it: a hasNext that stops early shows here.
      const total = p.content.totalElements;
      if (typeof total === 'number') expect(p.content.hasNext, `hasNext on page ${i} of a window with totalElements ${total}`).toBe((i + 1) * pageSize < total);
    });
  });
});

check('a deactivation the run made appears in the notifications of its window', ['PERSON-NOTIF-RECORDS-CHANGES'], async (t) => {
  const startDate = new Date(Date.now() - 1000).toISOString();
  const a = await person.postNew(t, ['PERSON-NOTIF-RECORDS-CHANGES']);
  const mentions = async () => {
    const walk = await walkNotifications(t, { startDate, endDate: new Date(Date.now() + 1000).toISOString() });
    return walk.notifications.filter((n) => JSON.stringify(n).includes(a.source.id)).length;
  };
  const before = await mentions();
  await t.ok('deactivateSourceWs', deactivate(t, a.source), { cites: ['PERSON-NOTIF-RECORDS-CHANGES'] });
  const seen = await t.eventually('notification of the deactivation', async () => ((await mentions()) > before ? true : undefined));
  await t.rule('PERSON-NOTIF-RECORDS-CHANGES', () => expect(seen, `a new notification mentions native ID ${a.source.id} after its deactivation`).toBe(true));
});
