/**
 * searchNotifications rules shared by every service: paging invariants over a closed window (pages within pageSize,
 * hasNext agreeing with totalElements, the pages followed by hasNext holding what a read of the same window in larger
 * pages holds: nothing missed, nothing twice), totalElements, the run's own changes appear in their window.
 * Source: organization-identity-api.md, Events, Resources (Notification page); person-provider-identity-api.md, Events.
 */
import type { Check } from '../../../harness/check.js';
import {
  CHANGE_NOT_NOTIFIED,
  HASNEXT_CONTRADICTS_TOTAL,
  PAGES_MISS_WINDOW,
  PAGES_REPEAT,
  PAGE_OVER_SIZE,
  TOTAL_NOT_COUNT,
  changeNotNotified,
  hasNextContradictsTotal,
  pageOverSize,
  pagesMissWindow,
  pagesRepeat,
  totalNotCount,
} from '../../../specs/clauses/notifications.js';
import {
  type Walk,
  type Window,
  closedWindow,
  mentions,
  openWindowFrom,
  requireStill,
  settledWalk,
  walkNotifications,
  windowTooLong,
} from '../notifications.js';
import { effectiveSize, judgeWindowSizes, windowCategory } from './paging-windows.js';
import { type Shared, idsFor, titled } from './types.js';

export const NOTIFICATION_ROLES = ['paging', 'total', 'noDuplicates', 'recordsChanges'] as const;
export type NotificationRole = (typeof NOTIFICATION_ROLES)[number];

type FilledWindow = {
  walk: Awaited<ReturnType<typeof settledWalk>>;
  whole: Walk;
  window: Window;
  ids: string[];
  exchanges: Check['exchanges'];
};

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
   * Posts pageSize + 1 identities (at most 11), so a window holding them spans more than one page, walks a closed
   * window around them once the feed shows them, and reads the same window again in larger pages (profile
   * readPageSize): paging does not change a window, so the two hold the same notifications. The paging checks of a
   * service share one such window per run (windowOf): one set of posts, one settled walk, its exchanges copied into
   * every check that judges it.
   */
  const filledWalk = async (t: Check) => {
    const cites = [ids.paging, ids.total, ids.noDuplicates].filter((x): x is string => Boolean(x));
    const {
      walk,
      whole,
      window,
      ids: posted,
      exchanges,
    } = await windowOf(t, async () => {
      const first = t.exchanges.length;
      const from = Date.now();
      const made = await Promise.all(
        Array.from({ length: Math.min(t.profile.notifications.pageSize + 1, 11) }, () => kit.postNew(t, cites)),
      );
      const ids = made.map((p) => p.source.id);
      const window = await closedWindow(t, from);
      const settled = await settledWalk(t, window, ids);
      // Both reads again until they agree (within the consistency budget): a notification that reaches a lagging feed
      // late lands in both, so only a difference paging makes is left to judge.
      const pair = await t.settle(
        'the closed window walked in pages and read in larger pages',
        async () => {
          const [walk, whole] = await Promise.all([
            walkNotifications(t, window),
            walkNotifications(t, window, t.profile.notifications.readPageSize),
          ]);
          return { walk, whole };
        },
        ({ walk, whole }) =>
          !pagesMissWindow(walk.notifications, whole.notifications).length &&
          !pagesRepeat(walk.notifications, whole.notifications).length,
      );
      return {
        walk: { ...pair.walk, still: settled.still },
        whole: pair.whole,
        window,
        ids,
        exchanges: t.exchanges.slice(first),
      };
    });
    for (const e of exchanges) if (!t.exchanges.includes(e)) t.exchanges.push(e);
    if (walk.pages.some((p) => typeof p.content?.hasNext !== 'boolean'))
      t.skip('a page carries no hasNext, so paging cannot be followed');
    if (!walk.complete) t.skip(windowTooLong(t));
    requireStill(t, walk);
    if (!whole.complete)
      t.skip(
        `the window read in pages of ${t.profile.notifications.readPageSize} holds more than ` +
          `${t.profile.notifications.maxPages} pages`,
      );
    return { walk, whole, window, ids: posted };
  };

  if (ids.paging) {
    const id = ids.paging;
    check(T('notification pages respect pageSize and hasNext is true exactly until the last page'), [id], async (t) => {
      const { walk, whole, window } = await filledWalk(t);
      const pages = walk.pages.map((p) => ({
        notifications: Array.isArray(p.content?.notifications) ? p.content.notifications : [],
        hasNext: p.content?.hasNext,
        totalElements: p.content?.totalElements,
      }));
      // A page may hold fewer than asked (a server cap is legitimate: bounds are "not shown"), never more.
      t.judge(PAGE_OVER_SIZE, id, pageOverSize(pages, t.profile.notifications.pageSize));
      // hasNext "tells whether more pages exist": with totalElements given, more exist exactly while fewer were seen.
      t.judge(HASNEXT_CONTRADICTS_TOTAL, id, hasNextContradictsTotal(pages));
      // Without totalElements, the read in larger pages shows what hasNext=false left unread.
      t.judge(PAGES_MISS_WINDOW, id, pagesMissWindow(walk.notifications, whole.notifications));
      const category = windowCategory(walk.notifications.length, effectiveSize(walk, t.profile.notifications.pageSize));
      if (category) t.exercised(id, category);
      // The same window at the page sizes of the other window categories (below one page, one page, an exact multiple,
      // plus one).
      await judgeWindowSizes(t, id, window, whole);
      if (walk.pages.length < 2) t.skip(`the window spans ${walk.pages.length} page, so paging was not exercised`);
    });
  }

  if (ids.total) {
    const id = ids.total;
    check(T('totalElements equals the number of notifications in the window'), [id], async (t) => {
      const { walk } = await filledWalk(t);
      if (walk.totals.every((x) => typeof x !== 'number')) t.skip('no page carries totalElements');
      t.judge(TOTAL_NOT_COUNT, id, totalNotCount(walk.totals, walk.notifications.length));
      const category = windowCategory(walk.notifications.length, effectiveSize(walk, t.profile.notifications.pageSize));
      if (category) t.exercised(id, category);
    });
  }

  if (ids.noDuplicates) {
    const id = ids.noDuplicates;
    check(T('walking the pages of a closed window returns no notification twice'), [id], async (t) => {
      // Two notifications alike are not one twice (their fields are not shown): only copies the read in larger pages
      // lacks are.
      const { walk, whole } = await filledWalk(t);
      t.judge(PAGES_REPEAT, id, pagesRepeat(walk.notifications, whole.notifications));
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
        (w) => !w.complete || w.notifications.some((n) => mentions(n, a.source.id)),
      );
      const n = walk.notifications.filter((x) => mentions(x, a.source.id)).length;
      if (!n && !walk.complete) t.skip(windowTooLong(t));
      t.judge(CHANGE_NOT_NOTIFIED, id, changeNotNotified(`postIdentity of ${a.source.id}`, [a.source.id], 0, n));
    });
  }
}
