/**
 * Window sizes against pageSize (specs/common/categories.ts, notifications.paging): a closed window of n notifications,
 * held still, walked again at page sizes that put it below one page (n + 1), exactly one page (n), an exact multiple of
 * two or more pages (n / k) and a multiple plus one (n - 1). `hasNext` "tells whether more pages exist": a defect that
 * says more exist on the last page of an exact multiple shows only at such a size.
 * Source: organization-identity-api.md, Events, Resources (Notification page); person-provider-identity-api.md, Events.
 */
import type { Check } from '../../../harness/check.js';
import {
  HASNEXT_CONTRADICTS_TOTAL,
  PAGE_OVER_SIZE,
  PAGES_MISS_WINDOW,
  hasNextContradictsTotal,
  pageOverSize,
  pagesMissWindow,
  pagesRepeat,
} from '../../../specs/clauses/notifications.js';
import { type Walk, type Window, walkNotifications } from '../notifications.js';

/** Most pages an extra walk reads: a window that needs more at a size is not walked at it. */
const PAGE_LIMIT = 6;

/** The window category of `n` notifications in pages of `size` (none: a window of 0). */
export function windowCategory(n: number, size: number): string | undefined {
  if (n < 1) return undefined;
  if (n < size) return 'window:below-page';
  if (n === size) return 'window:one-page';
  if (n % size === 0) return 'window:pages';
  return n % size === 1 ? 'window:pages+1' : undefined;
}

/**
 * Page sizes putting a window of `n` in each window category (an exact multiple: n / k for the least k of 2 to
 * PAGE_LIMIT dividing n).
 */
export function sizesFor(n: number): number[] {
  const k = [2, 3, 4, 5, 6].find((x) => x <= n && n % x === 0);
  return [n + 1, n, ...(k ? [n / k] : []), ...(n > 2 ? [n - 1] : [])];
}

const pagesOf = (w: Walk) =>
  w.pages.map((p) => ({
    notifications: Array.isArray(p.content?.notifications) ? p.content.notifications : [],
    hasNext: p.content?.hasNext,
    totalElements: p.content?.totalElements,
  }));

/**
 * The page size a walk's pages came in: the first page's length when more followed (a server cap), else the size asked.
 */
export const effectiveSize = (w: Walk, asked: number) => {
  const first = w.pages[0];
  const n = Array.isArray(first?.content?.notifications) ? first.content.notifications.length : 0;
  return first?.content?.hasNext === true && n > 0 ? Math.min(n, asked) : asked;
};

/**
 * Judges the paging clauses on `walk` (pages of `size`) and records its window category; a walk that did not fit or
 * whose notifications differ from `whole` (the window moved) is not judged.
 * @throws ConformanceFailure as Check.judge
 */
export function judgeWindow(t: Check, id: string, walk: Walk, whole: Walk, size: number): void {
  // A notification `whole` lacks arrived late (the window moved): nothing to compare. One it holds that the walk lacks
  // did not leave a closed window: paging lost it.
  const moved = pagesRepeat(walk.notifications, whole.notifications).length > 0;
  if (!walk.complete || moved || walk.pages.some((p) => typeof p.content?.hasNext !== 'boolean')) {
    t.note(
      `the window walked in pages of ${size} was not judged ` +
        `(${walk.complete ? 'it changed or a page gave no hasNext' : 'too many pages'})`,
    );
    return;
  }
  const pages = pagesOf(walk);
  t.judge(PAGE_OVER_SIZE, id, pageOverSize(pages, size));
  t.judge(HASNEXT_CONTRADICTS_TOTAL, id, hasNextContradictsTotal(pages));
  t.judge(PAGES_MISS_WINDOW, id, pagesMissWindow(walk.notifications, whole.notifications));
  const category = windowCategory(walk.notifications.length, effectiveSize(walk, size));
  if (category) t.exercised(id, category);
}

/** Walks `window` (of the notifications `whole` holds) at the sizes of every window category and judges each walk. */
export async function judgeWindowSizes(t: Check, id: string, window: Window, whole: Walk): Promise<void> {
  // Page-size bounds are not shown: only sizes up to the profile's readPageSize, which the deployment is declared to
  // take.
  const most = t.profile.notifications.readPageSize;
  const sizes = sizesFor(whole.notifications.length).filter((s) => s >= 1 && s <= most);
  if (sizes.length < sizesFor(whole.notifications.length).length)
    t.note(
      `page sizes above ${most} (profile notifications.readPageSize) not walked: the window holds ` +
        `${whole.notifications.length}`,
    );
  const walks = await Promise.all(sizes.map((s) => walkNotifications(t, window, s, PAGE_LIMIT)));
  walks.forEach((w, i) => judgeWindow(t, id, w, whole, sizes[i]!));
}
