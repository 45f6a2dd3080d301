/**
 * searchNotifications rules shared by every service: paging invariants over a closed window,
 * totalElements, no duplicates, the run's own changes appear in their window.
 * Source: organization-identity-api.md, Events, Resources (Notification page);
 * person-provider-identity-api.md, Events.
 */
import { expect } from 'vitest';
import type { Check } from '../../../harness/check.js';
import { closedWindow, mentions, openWindowFrom, settledWalk, walkNotifications } from '../notifications.js';
import { type Shared, idsFor, titled } from './types.js';

export const NOTIFICATION_ROLES = ['paging', 'total', 'noDuplicates', 'recordsChanges'] as const;
export type NotificationRole = (typeof NOTIFICATION_ROLES)[number];

type FilledWindow = { walk: Awaited<ReturnType<typeof settledWalk>>; ids: string[]; exchanges: Check['exchanges'] };

/** The one filled window of a run and service (made by the first check that asks, awaited by the others). */
const windows = new WeakMap<object, Map<string, Promise<FilledWindow>>>();
function windowOf(t: Check, make: () => Promise<FilledWindow>): Promise<FilledWindow> {
  let byService = windows.get(t.run);
  if (!byService) windows.set(t.run, (byService = new Map()));
  let made = byService.get(t.service);
  if (!made) byService.set(t.service, (made = make()));
  return made;
}

export function notificationChecks({ check, verifies, kit, label }: Shared): void {
  const ids = idsFor(check, 'notifications', NOTIFICATION_ROLES, verifies);
  const T = (s: string) => titled(s, label);
  /**
   * Posts pageSize + 1 identities (at most 11), so a window holding them spans more than one
   * page, and walks a closed window around them once the feed shows them. The paging checks of a
   * service share one such window per run (windowOf): one set of posts, one settled walk, its
   * exchanges copied into every check that judges it.
   */
  const filledWalk = async (t: Check) => {
    const cites = [ids.paging, ids.total, ids.noDuplicates].filter((x): x is string => Boolean(x));
    const {
      walk,
      ids: posted,
      exchanges,
    } = await windowOf(t, async () => {
      const first = t.exchanges.length;
      const from = Date.now();
      const made = await Promise.all(
        Array.from({ length: Math.min(t.profile.notifications.pageSize + 1, 11) }, () => kit.postNew(t, cites)),
      );
      const ids = made.map((p) => p.source.id);
      const walk = await settledWalk(t, await closedWindow(t, from), ids);
      return { walk, ids, exchanges: t.exchanges.slice(first) };
    });
    for (const e of exchanges) if (!t.exchanges.includes(e)) t.exchanges.push(e);
    if (walk.pages.some((p) => typeof p.content?.hasNext !== 'boolean')) t.skip('a page carries no hasNext, so paging cannot be followed');
    if (!walk.complete) t.skip(`the window holds more than ${t.profile.notifications.maxPages} pages (profile notifications.maxPages)`);
    // A window that still changed while it was walked cannot be judged (a lagging feed within the consistency budget).
    if (!walk.still)
      t.skip(
        `the closed window was still changing after the consistency budget (${t.profile.consistencyBudgetMs} ms), so its pages could not be compared`,
      );
    return { walk, ids: posted };
  };

  if (ids.paging) {
    const id = ids.paging;
    check(T('notification pages respect pageSize and hasNext is true exactly until the last page'), [id], async (t) => {
      const { walk, ids: posted } = await filledWalk(t);
      const { pageSize } = t.profile.notifications;
      await t.rule(id, () => {
        let seen = 0;
        walk.pages.forEach((p, i) => {
          const n = (Array.isArray(p.content?.notifications) ? p.content.notifications : []).length;
          seen += n;
          // A page may hold fewer than asked (a server cap is legitimate: bounds are "not shown"), never more.
          expect(n, `page ${i} holds at most pageSize ${pageSize}`).toBeLessThanOrEqual(pageSize);
          // hasNext "tells whether more pages exist": with totalElements given, more exist exactly while fewer were seen.
          const total = p.content?.totalElements;
          if (typeof total === 'number')
            expect(p.content?.hasNext, `hasNext on page ${i} after ${seen} of totalElements ${total}`).toBe(seen < total);
        });
        // The window holds the run's pageSize + 1 changes: where notifications name them, following hasNext reaches every one.
        const named = posted.filter((x) => walk.notifications.some((n) => mentions(n, x)));
        if (named.length)
          expect(named, `the pages reached before hasNext=false name the window's changes (${walk.pages.length} page(s) walked)`).toEqual(
            posted,
          );
      });
      if (walk.pages.length < 2) t.skip(`the window spans ${walk.pages.length} page, so paging was not exercised`);
    });
  }

  if (ids.total) {
    const id = ids.total;
    check(T('totalElements equals the number of notifications in the window'), [id], async (t) => {
      const { walk } = await filledWalk(t);
      if (walk.totals.every((x) => typeof x !== 'number')) t.skip('no page carries totalElements');
      await t.rule(id, () => {
        for (const total of walk.totals)
          if (typeof total === 'number') expect(total, 'totalElements on every page').toBe(walk.notifications.length);
      });
    });
  }

  if (ids.noDuplicates) {
    const id = ids.noDuplicates;
    check(T('walking the pages of a closed window returns no notification twice'), [id], async (t) => {
      const { walk } = await filledWalk(t);
      const seen = walk.notifications.map((n) => JSON.stringify(n));
      await t.rule(id, () => expect(seen.length - new Set(seen).size, 'duplicated notifications').toBe(0));
    });
  }

  if (ids.recordsChanges) {
    const id = ids.recordsChanges;
    check(T("the run's identity changes appear in the notifications of their window"), [id], async (t) => {
      const window = openWindowFrom(t);
      const a = await kit.postNew(t, [id]);
      const walk = await t.settle(
        'notification of the post',
        () => walkNotifications(t, window()),
        (w) => w.notifications.some((n) => mentions(n, a.source.id)),
      );
      await t.rule(id, () =>
        expect(
          walk.notifications.some((n) => mentions(n, a.source.id)),
          `a notification mentions native ID ${a.source.id}`,
        ).toBe(true),
      );
    });
  }
}
