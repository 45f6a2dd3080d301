/**
 * Walking a notification window page by page, bounded by the profile (maxPages), and choosing windows that hold what a
 * check needs whatever the clock difference between the suite and the deployment (profile notifications.clockSkewMs)
 * and however late the feed shows a change (profile consistencyBudgetMs).
 * Source: organization-identity-api.md, Events, Resources (Notification page); person-provider-identity-api.md, Events.
 */
import type { Check } from '../../harness/check.js';
import type { Reply } from '../../harness/reply.js';
import { CouldNotJudge } from '../../harness/verdict.js';

export interface Window {
  startDate: string;
  endDate: string;
}

export interface Walk {
  pages: Array<Reply<'searchNotifications'>>;
  notifications: unknown[];
  /** totalElements of each page as it came (absent or null where a page gave none). */
  totals: Array<number | null | undefined>;
  complete: boolean;
}

const skewOf = (t: Check) => t.profile.notifications.clockSkewMs ?? 0;

/**
 * A closed window: it ends in the past on the deployment's clock too, after the changes the caller just made (so they
 * fall inside it), and starts a second (plus the clock skew) before `from`, the time on the suite's clock when the
 * caller began those changes. Waits twice the clock skew first, so that "after the changes" and "in the past" both hold
 * whichever clock runs ahead. A window no wider than the caller's changes keeps the walk short on a busy feed.
 */
export async function closedWindow(t: Check, from: number): Promise<Window> {
  const skew = skewOf(t);
  await t.pause(20 + 2 * skew);
  const end = new Date(Date.now() - 5 - skew);
  await t.pause(20);
  return {
    startDate: new Date(Math.min(from - 1000 - skew, end.getTime() - 1000)).toISOString(),
    endDate: end.toISOString(),
  };
}

/** A window ending before any change the caller makes next (on the deployment's clock too). */
export async function windowEndingNow(t: Check, sinceMs = 60_000): Promise<Window> {
  const skew = skewOf(t);
  const end = new Date(Date.now() - 5 - skew);
  await t.pause(20 + skew);
  return { startDate: new Date(end.getTime() - sinceMs).toISOString(), endDate: end.toISOString() };
}

/**
 * The open window around changes made from now on: from now (minus the skew) to whenever it is read (plus the skew).
 */
export function openWindowFrom(t: Check): () => Window {
  const skew = skewOf(t);
  const startDate = new Date(Date.now() - 1000 - skew).toISOString();
  return () => ({ startDate, endDate: new Date(Date.now() + 1000 + skew).toISOString() });
}

/**
 * Reads a window's pages from the profile's first page on, following hasNext, at most `maxPages` pages (or `pageLimit`,
 * when lower), of `size` notifications (default: the profile's pageSize). When the first page gives totalElements, the
 * pages it implies are asked for together rather than one after another; the walk still ends at the first page whose
 * hasNext is not true, exactly as a sequential walk would. With a `pageLimit`, a window whose first page's
 * totalElements shows it will not fit is read no further (the walk is incomplete).
 */
export async function walkNotifications(t: Check, window: Window, size?: number, pageLimit?: number): Promise<Walk> {
  const { firstPage } = t.profile.notifications;
  const maxPages = Math.min(t.profile.notifications.maxPages, pageLimit ?? Number.POSITIVE_INFINITY);
  const pageSize = size ?? t.profile.notifications.pageSize;
  const walk: Walk = { pages: [], notifications: [], totals: [], complete: false };
  const page = (i: number) => t.ok('searchNotifications', { pageNumber: firstPage + i, pageSize, ...window });
  /** Adds a page to the walk; true when it says more pages follow. */
  const take = (r: Reply<'searchNotifications'>) => {
    walk.pages.push(r);
    walk.notifications.push(...(Array.isArray(r.content?.notifications) ? r.content.notifications : []));
    walk.totals.push(r.content?.totalElements);
    return r.content?.hasNext === true;
  };
  const first = await page(0);
  let more = take(first);
  let next = 1;
  const total = first.content?.totalElements;
  // A window that cannot fit in `pageLimit` pages (its totalElements over pages the size the first one came in, which a
  // deployment may cap) is not read on: a partial read judges nothing.
  const perPage = more && walk.notifications.length ? walk.notifications.length : pageSize;
  if (pageLimit !== undefined && more && typeof total === 'number' && Math.ceil(total / perPage) > maxPages)
    return walk;
  if (more && typeof total === 'number' && Number.isInteger(total) && total > pageSize) {
    const rest = await Promise.all(
      Array.from({ length: Math.min(Math.ceil(total / pageSize), maxPages) - 1 }, (_, k) => page(1 + k)),
    );
    for (const r of rest) {
      next++;
      if (!(more = take(r))) break;
    }
  }
  while (more && next < maxPages) more = take(await page(next++));
  walk.complete = !more;
  return walk;
}

import { mentions } from '../../specs/state/feed-clauses.js';

export { mentions };

/**
 * Walks a closed window until the feed shows what the caller waits for (`shows`: a walk in hand; or every change named
 * in `ids`, native IDs or link IDs of the caller's changes) and holds still (two walks in a row agree, and every page
 * of the last gives the same totalElements), or the consistency budget is spent; returns the last walk and whether it
 * held still (Check.settle walks again until a walk begins after the budget, so a window is walked at least twice
 * however long one walk takes). With a budget of 0 it walks once (the profile declares reads current). Pages of `size`
 * (default: the profile's pageSize). With a `pageLimit`, a walk that did not fit ends the polling at once: the caller
 * judges no incomplete walk, and polling it again costs up to `pageLimit` requests a time.
 */
export async function settledWalk(
  t: Check,
  window: Window,
  shows: string[] | ((w: Walk) => boolean),
  size?: number,
  pageLimit?: number,
): Promise<Walk & { still: boolean }> {
  const polling = (t.profile.consistencyBudgetMs ?? 0) > 0;
  const wanted =
    typeof shows === 'function'
      ? shows
      : (w: Walk) => shows.every((id) => w.notifications.some((n) => mentions(n, id)));
  let previous: string | undefined;
  let still = !polling;
  const walk = await t.settle(
    'the notification feed shows the changes and holds still',
    () => walkNotifications(t, window, size, pageLimit),
    (w) => {
      const text = JSON.stringify(w.notifications);
      const totals = new Set(w.totals.filter((x) => typeof x === 'number'));
      // Totals that differ between pages are a feed still filling, unless one is below what was walked.
      still = !polling || (text === previous && (totals.size <= 1 || totalBelowWalked(w)));
      previous = text;
      return (pageLimit !== undefined && !w.complete) || (wanted(w) && still);
    },
  );
  return { ...walk, still };
}

/**
 * Ends the check "could not judge" (harness/verdict.ts CouldNotJudge: the run is INCOMPLETE, exit 5, never PASS) when a
 * closed window was still changing after the consistency budget: its pages cannot be compared, and a feed that never
 * holds still must not pass its paging checks by default. A walk whose totals no lag explains (totalBelowWalked) counts
 * as still and is judged.
 * Source: organization-identity-api.md, Events ("`hasNext` tells whether more pages exist and `totalElements` gives the
 * total count").
 */
export function requireStill(t: Pick<Check, 'profile'>, walk: { still: boolean }): void {
  if (!walk.still)
    throw new CouldNotJudge(
      `the closed window was still changing after the consistency budget (${t.profile.consistencyBudgetMs} ms), ` +
        `so its pages could not be compared`,
    );
}

/**
 * True when some page's totalElements is below the number of notifications walked up to and including it. No lagging
 * feed explains it: a page holds positions the window had when it was read (after the earlier pages' ones), so its
 * total counted them. Such a walk is judged (the paging and total clauses reject it), never waited on as a window still
 * changing: with totalElements the size of the page returned, the walk would otherwise end "could not judge".
 */
export function totalBelowWalked(w: Pick<Walk, 'pages'>): boolean {
  let seen = 0;
  return w.pages.some((p) => {
    const list = p.content?.notifications;
    seen += Array.isArray(list) ? list.length : 0;
    const total = p.content?.totalElements;
    return typeof total === 'number' && total < seen;
  });
}

/**
 * What a read of `window()` shows of `ids`: the notifications that name any of them, and whether the walk read the
 * whole window (false: it holds more than profile notifications.maxPages pages, so the count is only of the pages
 * read).
 */
export async function countMentions(
  t: Check,
  window: () => Window,
  ids: string[],
): Promise<{ count: number; complete: boolean }> {
  const walk = await walkNotifications(t, window(), t.profile.notifications.readPageSize);
  return { count: walk.notifications.filter((n) => ids.some((id) => mentions(n, id))).length, complete: walk.complete };
}

/**
 * Why a window whose walk stopped at profile notifications.maxPages is not judged: the feed's order is not shown, so
 * what it holds beyond the pages read is unknown (a busy shared feed fills a window quickly; a deployment may serve
 * small pages).
 */
export const windowTooLong = (t: Pick<Check, 'profile'>) =>
  `the window holds more than ${t.profile.notifications.maxPages} pages (profile notifications.maxPages), so ` +
  `what lies beyond them is unknown`;

/**
 * Runs `change`, then reads the feed until more notifications name `ids` than before it (within the consistency
 * budget), or a read no longer fits in profile notifications.maxPages pages. Both counts read one open window, opened
 * just before the first count: what the caller did earlier, and what other checks changed meanwhile, stays out of it,
 * so the walks stay short on a busy feed. Returns the counts before and after, and whether the last read was whole (a
 * count of part of a window judges nothing: the caller skips), for the caller to judge.
 */
export async function notifiedOf(
  t: Check,
  ids: string[],
  what: string,
  change: () => Promise<unknown>,
): Promise<{ before: number; after: number; complete: boolean }> {
  const window = openWindowFrom(t);
  const before = await countMentions(t, window, ids);
  await change();
  const after = await t.settle(
    `notification of ${what}`,
    () => countMentions(t, window, ids),
    (n) => !n.complete || n.count > before.count,
  );
  return { before: before.count, after: after.count, complete: before.complete && after.complete };
}
