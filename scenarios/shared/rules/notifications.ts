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
  PAGE_WITHOUT_PAGING,
  TOTAL_NOT_COUNT,
  changeNotNotified,
  hasNextContradictsTotal,
  pageOverSize,
  pageWithoutPaging,
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
import { requirementFor } from '../../../specs/services.js';
import { type Kit, type Shared, type SharedCheck, registerShared } from './types.js';

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

/**
 * Posts pageSize + 1 identities (at most 11), so a window holding them spans more than one page, walks a closed
 * window around them once the feed shows them, and reads the same window again in larger pages (profile
 * readPageSize): paging does not change a window, so the two hold the same notifications. The paging checks of a
 * service share one such window per run (windowOf): one set of posts, one settled walk, its exchanges copied into
 * every check that judges it.
 */
async function filledWalk(t: Check, kit: Kit, pagingId?: string) {
  const cites = ['notifications.paging', 'notifications.total', 'notifications.noDuplicates']
    .map((role) => requirementFor(t.service, role))
    .filter((x): x is string => Boolean(x));
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
  // The organization's page is shown (Resources, Notification page): a page without its paging members fails the
  // paging check (`pagingId`); the other checks of the window skip, as they cannot follow its pages.
  if (pagingId && t.service === 'organization')
    t.judge(PAGE_WITHOUT_PAGING, pagingId, pageWithoutPaging(walk.pages.map(pageOf)));
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
}

/** A walked page as the paging clauses read it. */
const pageOf = (p: Walk['pages'][number]) => ({
  notifications: Array.isArray(p.content?.notifications) ? p.content.notifications : [],
  hasNext: p.content?.hasNext,
  totalElements: p.content?.totalElements,
});

const PAGING: SharedCheck = {
  id: 'notification-pages-respect-pagesize-and-hasnext-is-true-exactly-until-the-last-page',
  role: 'notifications.paging',
  title: 'notification pages respect pageSize and hasNext is true exactly until the last page',
  body: async (t, { s: { kit }, id }) => {
    const { walk, whole, window } = await filledWalk(t, kit, id);
    const pages = walk.pages.map(pageOf);
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
  },
};

const TOTAL: SharedCheck = {
  id: 'totalelements-equals-the-number-of-notifications-in-the-window',
  role: 'notifications.total',
  title: 'totalElements equals the number of notifications in the window',
  body: async (t, { s: { kit }, id }) => {
    const { walk } = await filledWalk(t, kit);
    if (walk.totals.every((x) => typeof x !== 'number')) t.skip('no page carries totalElements');
    t.judge(TOTAL_NOT_COUNT, id, totalNotCount(walk.totals, walk.notifications.length));
    const category = windowCategory(walk.notifications.length, effectiveSize(walk, t.profile.notifications.pageSize));
    if (category) t.exercised(id, category);
  },
};

const NO_DUPLICATES: SharedCheck = {
  id: 'walking-the-pages-of-a-closed-window-returns-no-notification-twice',
  role: 'notifications.noDuplicates',
  title: 'walking the pages of a closed window returns no notification twice',
  body: async (t, { s: { kit }, id }) => {
    // Two notifications alike are not one twice (their fields are not shown): only copies the read in larger pages
    // lacks are.
    const { walk, whole } = await filledWalk(t, kit);
    t.judge(PAGES_REPEAT, id, pagesRepeat(walk.notifications, whole.notifications));
  },
};

const RECORDS_CHANGES: SharedCheck = {
  id: 'the-run-s-identity-changes-appear-in-the-notifications-of-their-window',
  role: 'notifications.recordsChanges',
  title: "the run's identity changes appear in the notifications of their window",
  body: async (t, { s: { kit }, id }) => {
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
  },
};

/** The paging and feed checks a service's catalogue gives requirements, in this order. */
export const notificationChecks = (s: Shared) => registerShared(s, [PAGING, TOTAL, NO_DUPLICATES, RECORDS_CHANGES]);
