/**
 * Clauses of the notification checks over a closed window the run filled: a page holds at most pageSize, hasNext agrees
 * with totalElements where a page gives it, the pages followed by hasNext hold the window's notifications once each (as
 * a read of the same window in larger pages does: paging does not change a window), totalElements is the count; the
 * run's changes appear in their window and in no window that ended before them. Notification fields are not shown: a
 * notification is compared as a whole, and is "of" a change when it names one of the change's native IDs or link IDs.
 * Source: organization-identity-api.md, Events, Resources (Notification page); person-provider-identity-api.md, Events,
 * Endpoints (/searchNotifications).
 */
import { clause } from '../common/clause.js';

/** One page of a walk as the clauses read it. */
export interface Page {
  notifications: readonly unknown[];
  hasNext?: unknown;
  totalElements?: unknown;
}

export const PAGE_OVER_SIZE = clause(
  'PAGE-OVER-SIZE',
  'a notification page holding more notifications than the pageSize asked for',
  ['notifications.paging'],
);
/** PAGE-OVER-SIZE: pages holding more than `pageSize`. */
export function pageOverSize(pages: readonly Page[], pageSize: number): string[] {
  return pages.flatMap((p, i) =>
    p.notifications.length > pageSize ? [`page ${i} holds ${p.notifications.length} at pageSize ${pageSize}`] : [],
  );
}

export const HASNEXT_CONTRADICTS_TOTAL = clause(
  'HASNEXT-CONTRADICTS-TOTAL',
  'a page whose hasNext says no more pages exist while fewer notifications than its totalElements have been ' +
    'walked, or more pages while all have',
  ['notifications.paging'],
);
/**
 * HASNEXT-CONTRADICTS-TOTAL: pages whose boolean hasNext disagrees with their integer totalElements and the count
 * walked so far.
 */
export function hasNextContradictsTotal(pages: readonly Page[]): string[] {
  let seen = 0;
  return pages.flatMap((p, i) => {
    seen += p.notifications.length;
    if (typeof p.totalElements !== 'number' || typeof p.hasNext !== 'boolean') return [];
    return p.hasNext !== seen < p.totalElements
      ? [`page ${i}: hasNext ${p.hasNext} after ${seen} of totalElements ${p.totalElements}`]
      : [];
  });
}

export const PAGE_WITHOUT_PAGING = clause(
  'PAGE-WITHOUT-PAGING',
  'an organization searchNotifications success whose notification page gives no hasNext or no totalElements',
  ['notifications.paging'],
);
/**
 * PAGE-WITHOUT-PAGING: pages that leave hasNext or totalElements out (absent or null). Judged for the organization
 * only: its notification page is shown (organization-identity-api.md, Resources, Notification page: "hasNext |
 * boolean", "totalElements | integer"; Events: "`hasNext` tells whether more pages exist and `totalElements` gives the
 * total count"); the person's and the provider's members are not shown.
 */
export function pageWithoutPaging(pages: readonly Page[]): string[] {
  return pages.flatMap((p, i) => {
    const missing = (['hasNext', 'totalElements'] as const).filter((m) => p[m] === undefined || p[m] === null);
    return missing.length ? [`page ${i} gives no ${missing.join(' and no ')}`] : [];
  });
}

/** How often each notification (as JSON) occurs in `list`. */
const counts = (list: readonly unknown[]) => {
  const m = new Map<string, number>();
  for (const n of list) m.set(JSON.stringify(n), (m.get(JSON.stringify(n)) ?? 0) + 1);
  return m;
};
const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}...` : s);

export const PAGES_MISS_WINDOW = clause(
  'PAGES-MISS-WINDOW',
  'a notification of a closed, unchanging window that a read of it in larger pages holds more often than the ' +
    'pages followed by hasNext do',
  ['notifications.paging'],
);
/** PAGES-MISS-WINDOW: notifications `whole` (the read in larger pages) holds more often than `paged`. */
export function pagesMissWindow(paged: readonly unknown[], whole: readonly unknown[]): string[] {
  const p = counts(paged);
  return [...counts(whole)]
    .filter(([n, k]) => (p.get(n) ?? 0) < k)
    .map(
      ([n, k]) =>
        `${clip(n)}: ${k} in larger pages, ${p.get(n) ?? 0} in the pages walked (${paged.length} of ${whole.length})`,
    );
}

export const PAGES_REPEAT = clause(
  'PAGES-REPEAT',
  'a notification the pages of a closed, unchanging window hold more often than a read of the same window in ' +
    'larger pages does',
  ['notifications.noDuplicates'],
);
/** PAGES-REPEAT: notifications `paged` holds more often than `whole`. */
export function pagesRepeat(paged: readonly unknown[], whole: readonly unknown[]): string[] {
  const w = counts(whole);
  return [...counts(paged)]
    .filter(([n, k]) => k > (w.get(n) ?? 0))
    .map(([n, k]) => `${clip(n)}: ${k} in the pages walked, ${w.get(n) ?? 0} in larger pages`);
}

export const TOTAL_NOT_COUNT = clause(
  'TOTAL-NOT-COUNT',
  'a page whose totalElements is not the number of notifications the complete walk of its closed, unchanging ' +
    'window holds',
  ['notifications.total'],
);
/** TOTAL-NOT-COUNT: integer totals that differ from `count`. */
export function totalNotCount(totals: readonly unknown[], count: number): string[] {
  return totals.flatMap((t, i) =>
    typeof t === 'number' && t !== count ? [`page ${i}: totalElements ${t}, ${count} walked`] : [],
  );
}

export const CHANGE_NOT_NOTIFIED = clause(
  'CHANGE-NOT-NOTIFIED',
  'a change the run made that no new notification of its window names (by a native ID or link ID involved), on ' +
    "a feed that names the run's records",
  ['notifications.recordsChanges', 'notificationEvents.changes'],
);
/**
 * CHANGE-NOT-NOTIFIED: the change, when no more notifications name its records after it than before, as a sentence:
 * "after the merge no new notification names n1 or L1 (2 named them before it, 2 after it)".
 */
export function changeNotNotified(what: string, named: readonly string[], before: number, after: number): string[] {
  return after > before
    ? []
    : [
        `after ${what} no new notification names ${named.join(' or ')} ` +
          `(${before} named them before it, ${after} after it)`,
      ];
}

export const NOTIFIED_OUTSIDE_PERIOD = clause(
  'NOTIFIED-OUTSIDE-PERIOD',
  'a notification of a change in a window that ended before the change was made, or in a window of 1990',
  ['notificationEvents.period'],
);
/** NOTIFIED-OUTSIDE-PERIOD: notifications naming `id` in windows that cannot hold its change. */
export function notifiedOutsidePeriod(
  id: string,
  windows: ReadonlyArray<{ what: string; notifications: readonly unknown[] }>,
): string[] {
  return windows.flatMap((w) => {
    const n = w.notifications.filter((x) => JSON.stringify(x ?? null).includes(id)).length;
    return n ? [`${n} notification(s) naming ${id} in ${w.what}`] : [];
  });
}

export const NOTIFICATION_CLAUSES = [
  PAGE_WITHOUT_PAGING,
  PAGE_OVER_SIZE,
  HASNEXT_CONTRADICTS_TOTAL,
  PAGES_MISS_WINDOW,
  PAGES_REPEAT,
  TOTAL_NOT_COUNT,
  CHANGE_NOT_NOTIFIED,
  NOTIFIED_OUTSIDE_PERIOD,
];
