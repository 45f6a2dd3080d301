/**
 * searchNotifications: paging invariants over a closed window (page sizes, hasNext false on
 * the last page only, totalElements equal to the notifications walked, no duplicates), and the
 * run's own changes appear in their window.
 * Source: organization-identity-api.md, Events; Resources (Notification page).
 */
import { expect } from 'vitest';
import { area, org } from './org.js';
import { closedWindow, walkNotifications } from '../shared/notifications.js';

const { check } = area('notifications');

check('notification pages respect pageSize and hasNext is false exactly on the last page', ['ORG-NOTIF-PAGING'], async (t) => {
  await org.postNew(t, ['ORG-NOTIF-PAGING']);
  const walk = await walkNotifications(t, await closedWindow());
  if (!walk.complete) t.skip(`the window holds more than ${t.profile.notifications.maxPages} pages (profile notifications.maxPages)`);
  const { pageSize } = t.profile.notifications;
  await t.rule('ORG-NOTIF-PAGING', () => {
    walk.pages.forEach((p, i) => {
      const n = (p.content.notifications as unknown[]).length;
      expect(n, `page ${i} holds at most pageSize`).toBeLessThanOrEqual(pageSize);
      const last = i === walk.pages.length - 1;
      expect(p.content.hasNext, `hasNext on page ${i} of ${walk.pages.length}`).toBe(!last);
      if (!last) expect(n, `page ${i} before the last is full`).toBe(pageSize);
    });
  });
});

check('totalElements equals the number of notifications in the window', ['ORG-NOTIF-TOTAL'], async (t) => {
  await org.postNew(t, ['ORG-NOTIF-TOTAL']);
  const walk = await walkNotifications(t, await closedWindow());
  if (!walk.complete) t.skip(`the window holds more than ${t.profile.notifications.maxPages} pages`);
  await t.rule('ORG-NOTIF-TOTAL', () => {
    for (const total of walk.totals) expect(total, 'totalElements on every page').toBe(walk.notifications.length);
  });
});

check('walking the pages of a closed window returns no notification twice', ['ORG-NOTIF-NO-DUPLICATES'], async (t) => {
  await org.postNew(t, ['ORG-NOTIF-NO-DUPLICATES']);
  const walk = await walkNotifications(t, await closedWindow());
  const seen = walk.notifications.map((n) => JSON.stringify(n));
  await t.rule('ORG-NOTIF-NO-DUPLICATES', () => expect(seen.length - new Set(seen).size, 'duplicated notifications').toBe(0));
});

check('the run\'s identity changes appear in the notifications of their window', ['ORG-NOTIF-RECORDS-CHANGES'], async (t) => {
  const startDate = new Date(Date.now() - 1000).toISOString();
  const a = await org.postNew(t, ['ORG-NOTIF-RECORDS-CHANGES']);
  const seen = await t.eventually('notification of the post', async () => {
    const walk = await walkNotifications(t, { startDate, endDate: new Date(Date.now() + 1000).toISOString() });
    return walk.notifications.some((n) => JSON.stringify(n).includes(a.source.id)) ? true : undefined;
  });
  await t.rule('ORG-NOTIF-RECORDS-CHANGES', () => expect(seen, `a notification mentions native ID ${a.source.id}`).toBe(true));
});
