/**
 * searchNotifications rules shared by the organization and provider services: paging invariants
 * over a closed window, totalElements, no duplicates, the run's own changes appear in their window.
 * Source: organization-identity-api.md, Events, Resources (Notification page);
 * person-provider-identity-api.md, Events (provider searchNotifications).
 */
import { expect } from 'vitest';
import type { Check } from '../../../harness/check.js';
import { closedWindow, walkNotifications } from '../notifications.js';
import { type Shared, titled } from './types.js';

export type NotificationRole = 'paging' | 'total' | 'noDuplicates' | 'recordsChanges';

export function notificationChecks({ check, kit, ids, label }: Shared<NotificationRole>): void {
  const T = (s: string) => titled(s, label);
  /** Posts pageSize + 1 identities (at most 11), so the window spans more than one page. */
  const fill = (t: Check, cites: string[]) => Promise.all(Array.from({ length: Math.min(t.profile.notifications.pageSize + 1, 11) }, () => kit.postNew(t, cites)));

  if (ids.paging) {
    const id = ids.paging;
    check(T('notification pages respect pageSize and hasNext is false exactly on the last page'), [id], async (t) => {
      await fill(t, [id]);
      const walk = await walkNotifications(t, await closedWindow());
      if (!walk.complete) t.skip(`the window holds more than ${t.profile.notifications.maxPages} pages (profile notifications.maxPages)`);
      const { pageSize } = t.profile.notifications;
      await t.rule(id, () => {
        walk.pages.forEach((p, i) => {
          const n = (p.content.notifications as unknown[]).length;
          expect(n, `page ${i} holds at most pageSize`).toBeLessThanOrEqual(pageSize);
          const last = i === walk.pages.length - 1;
          expect(p.content.hasNext, `hasNext on page ${i} of ${walk.pages.length}`).toBe(!last);
          if (!last) expect(n, `page ${i} before the last is full`).toBe(pageSize);
          // The last page is the one that reaches totalElements: a hasNext that stops early is caught here.
          const total = p.content.totalElements;
          if (typeof total === 'number') expect(p.content.hasNext, `hasNext on page ${i} of a window with totalElements ${total}`).toBe((i + 1) * pageSize < total);
        });
      });
    });
  }

  if (ids.total) {
    const id = ids.total;
    check(T('totalElements equals the number of notifications in the window'), [id], async (t) => {
      await fill(t, [id]);
      const walk = await walkNotifications(t, await closedWindow());
      if (!walk.complete) t.skip(`the window holds more than ${t.profile.notifications.maxPages} pages`);
      await t.rule(id, () => {
        for (const total of walk.totals) expect(total, 'totalElements on every page').toBe(walk.notifications.length);
      });
    });
  }

  if (ids.noDuplicates) {
    const id = ids.noDuplicates;
    check(T('walking the pages of a closed window returns no notification twice'), [id], async (t) => {
      await fill(t, [id]);
      const walk = await walkNotifications(t, await closedWindow());
      const seen = walk.notifications.map((n) => JSON.stringify(n));
      await t.rule(id, () => expect(seen.length - new Set(seen).size, 'duplicated notifications').toBe(0));
    });
  }

  if (ids.recordsChanges) {
    const id = ids.recordsChanges;
    check(T("the run's identity changes appear in the notifications of their window"), [id], async (t) => {
      const startDate = new Date(Date.now() - 1000).toISOString();
      const a = await kit.postNew(t, [id]);
      const seen = await t.eventually('notification of the post', async () => {
        const walk = await walkNotifications(t, { startDate, endDate: new Date(Date.now() + 1000).toISOString() });
        return walk.notifications.some((n) => JSON.stringify(n).includes(a.source.id)) ? true : undefined;
      });
      await t.rule(id, () => expect(seen, `a notification mentions native ID ${a.source.id}`).toBe(true));
    });
  }
}
