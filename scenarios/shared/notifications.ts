/**
 * Walking a notification window page by page, bounded by the profile (maxPages), so paging
 * invariants can be checked over a closed window (one whose end lies in the past).
 */
import type { Check } from '../../harness/check.js';
import type { Reply } from '../../harness/reply.js';

export interface Walk {
  pages: Reply[];
  notifications: unknown[];
  totals: number[];
  complete: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A closed window: from `sinceMs` ago to a moment already in the past when the walk starts, and
 * after the changes the caller just made (so they fall inside it).
 */
export async function closedWindow(sinceMs = 3600_000) {
  await sleep(20);
  const end = new Date(Date.now() - 5);
  await sleep(20);
  return { startDate: new Date(end.getTime() - sinceMs).toISOString(), endDate: end.toISOString() };
}

export async function walkNotifications(t: Check, window: { startDate: string; endDate: string }): Promise<Walk> {
  const { firstPage, pageSize, maxPages } = t.profile.notifications;
  const walk: Walk = { pages: [], notifications: [], totals: [], complete: false };
  for (let i = 0; i < maxPages; i++) {
    const r = await t.ok('searchNotifications', { pageNumber: firstPage + i, pageSize, ...window });
    walk.pages.push(r);
    const list = Array.isArray(r.content?.notifications) ? r.content.notifications : [];
    walk.notifications.push(...list);
    walk.totals.push(r.content?.totalElements);
    if (r.content?.hasNext !== true) {
      walk.complete = true;
      break;
    }
  }
  return walk;
}
