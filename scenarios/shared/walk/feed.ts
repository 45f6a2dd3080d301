/**
 * The notification feed after a walk: every change the walk made whose row promises a notification
 * (specs/<service>/state-spec.ts, a row's `feed`) appears in the feed, each as a notification of its own, and the pages
 * of the walk's window hold every notification once, as many as totalElements says. One closed window spanning the walk
 * is read (a few pages of the profile's readPageSize), until it shows the changes and holds still or the consistency
 * budget is spent; its pages are judged as a partition only once two reads in a row agree (settledWalk).
 *
 * A notification counts for a change when it names one of the native IDs or link IDs the change involved (notification
 * fields are "not shown") and was not in the feed before the walk's first step (feedBaseline: the starting posts'
 * notifications); changes and notifications are matched one to one, so two changes of one record need two
 * notifications.
 *
 * Source: organization-identity-api.md, Events ("a paginated feed of notifications for a date range; `hasNext` tells
 * whether more pages exist and `totalElements` gives the total count"); person-provider-identity-api.md, Events.
 */
import { closedWindow, mentions, settledWalk, walkNotifications } from '../notifications.js';
import { type Finding, finding } from '../../../specs/common/clause.js';
import { FEED_CHANGE_MISSING, partitionFindings, unmatched } from '../../../specs/state/feed-clauses.js';
import type { WalkReal } from './walk-real.js';

/** True when the walk has anything the feed must show or any paging promise to judge. */
function feedJudged(w: WalkReal): boolean {
  const partition = w.config.spec.feed.partition;
  return (
    w.config.spec.rows.some((r) => r.feed && !w.t.disabled.has(r.feed.requirement)) ||
    Boolean(partition && !w.t.disabled.has(partition.requirement))
  );
}

/**
 * Most pages one read of a walk's window takes. A walk reads its window several times (until it holds still); where the
 * deployment caps pages small while other users fill the window (a page of 1 and 3 writes a second), reading up to the
 * profile's maxPages (200) each time cost hundreds of requests per walk, and behind a gateway of 30 requests a second
 * the walk checks ran out of time. A window that does not fit is not judged here (an incomplete read judges nothing);
 * the notification checks judge the feed with the profile's maxPages.
 */
export const WALK_FEED_PAGES = 20;

/**
 * What the feed shows of the walk's starting records once their posts are in it (read until every one is named, within
 * the consistency budget): the notifications no later step may count as its own (a post's notification names the record
 * a later link or unlink names too).
 */
export async function feedBaseline(w: WalkReal, since: number, nativeIds: string[]): Promise<void> {
  if (!feedJudged(w)) return;
  const t = w.t;
  const skew = t.profile.notifications.clockSkewMs ?? 0;
  const window = () => ({
    startDate: new Date(since - 1000 - skew).toISOString(),
    endDate: new Date(Date.now() + 1000 + skew).toISOString(),
  });
  const read = await t.settle(
    "the feed shows the walk's posts",
    () => walkNotifications(t, window(), t.profile.notifications.readPageSize, WALK_FEED_PAGES),
    (x) => !x.complete || nativeIds.every((id) => x.notifications.some((n) => mentions(n, id))),
  );
  w.feedBaseline = new Set(read.notifications.map((n) => JSON.stringify(n)));
  // A window that did not fit at the start only grows: the walk's feed is not judged (judgeFeed).
  if (!read.complete) w.feedUnread = true;
}

/**
 * Says once per check that a walk's feed went unjudged, so a reader knows the walks judged no feed rather than found it
 * right.
 */
function notJudged(t: WalkReal['t']): Finding[] {
  const said =
    `the feed of a walk was not judged: its window did not fit in ${WALK_FEED_PAGES} pages, or its pages gave no ` +
    `hasNext`;
  if (!t.notes.includes(said)) t.note(said);
  return [];
}

/**
 * Judges the feed of one walk (or tour) that began at `since` (the suite's clock, ms): returns the problems, citing
 * each change's feed requirement and the service's paging requirement.
 */
export async function judgeFeed(w: WalkReal, since: number): Promise<Finding[]> {
  const events = w.feedEvents.filter((e) => !w.t.disabled.has(e.requirement));
  const partition = w.config.spec.feed.partition;
  const judgePartition = partition && !w.t.disabled.has(partition.requirement);
  if (!events.length && !judgePartition) return [];
  if (w.feedUnread) return notJudged(w.t);
  const baseline = w.feedBaseline ?? new Set<string>();
  const fresh = (notifications: unknown[]) => notifications.filter((n) => !baseline.has(JSON.stringify(n)));
  const t = w.t;
  const window = await closedWindow(t, since);
  const walk = await settledWalk(
    t,
    window,
    (x) => unmatched(events, fresh(x.notifications)).length === 0,
    t.profile.notifications.readPageSize,
    WALK_FEED_PAGES,
  );
  if (!walk.complete || walk.pages.some((p) => typeof p.content?.hasNext !== 'boolean')) return notJudged(t);
  const problems = unmatched(events, fresh(walk.notifications)).map((e) =>
    finding(
      FEED_CHANGE_MISSING,
      { requirement: e.requirement, forbids: e.forbids },
      `no notification of its own in the walk's window names the change of step "${e.step}" (${e.ids.join(', ')})`,
    ),
  );
  // Only a window that held still is one set of notifications: one still filling when the budget ran out (a lagging
  // feed, while other users write) may show an entry on two pages as it shifts, and the seeds give no delivery time ("a
  // paginated feed of notifications for a date range", organization-identity-api.md, Events; "Push delivery or
  // callbacks: not shown").
  if (judgePartition && walk.still)
    problems.push(
      ...partitionFindings(walk.pages, walk.notifications, {
        requirement: partition.requirement,
        forbids: partition.seed,
      }),
    );
  return problems;
}
