/**
 * Notifications of the run's own changes, shared: each state change a service's seed lists among its notification kinds
 * appears in the feed of its window (recognised by a native ID or link ID it names: notification fields are "not
 * shown"), and the feed keeps to the requested date range (a far-past window, or one that ends before a change, holds
 * none of it).
 * Source: organization-identity-api.md, Events; person-provider-identity-api.md, Events (person: "matches, links,
 * merges, deactivations"; provider: "merge events, link and unlink events").
 */
import {
  CHANGE_NOT_NOTIFIED,
  NOTIFIED_OUTSIDE_PERIOD,
  changeNotNotified,
  notifiedOutsidePeriod,
} from '../../../specs/clauses/notifications.js';
import {
  mentions,
  notifiedOf,
  openWindowFrom,
  walkNotifications,
  windowEndingNow,
  windowTooLong,
} from '../notifications.js';
import type { StepName } from '../../../specs/state/step-names.js';
import { script } from '../script.js';
import { requirementFor } from '../../../specs/services.js';
import type { RowSpec } from '../../../specs/state/state-spec.js';
import { type Scripted, type SharedCheck, registerShared } from './types.js';

/**
 * Steps that put the named records into the state a row starts from (the row's "From" column), before the change is
 * made.
 */
const FROM: Partial<Record<StepName, StepName[]>> = {
  unlink: ['link'],
  unmerge: ['merge'],
  restore: ['soft delete'],
  reactivate: ['deactivate'],
};

/**
 * The changes a service's state table says the feed reports (specs/<service>/state-spec.ts: the rows whose feed promise
 * is this role's requirement), each made by a script on two new records after the steps its row starts from; the feed
 * must name it (a native ID or link ID involved) in a notification that was not there before the change.
 */
const changeOf = (row: RowSpec): SharedCheck<Scripted> => ({
  id: `a-${row.step.replace(/ /g, '-')}-the-run-makes-appears-in-the-notifications-of-its-window`,
  role: 'notificationEvents.changes',
  title: `a ${row.step} the run makes appears in the notifications of its window`,
  body: async (t, { s: { walks, kind }, id }) => {
    const window = openWindowFrom(t);
    const s = script(t, walks);
    const [a, b] = await s.start(2, kind);
    const recs = row.roles.length === 2 ? [a!, b!] : [b!];
    for (const step of FROM[row.step] ?? []) await s.step(step, recs);
    const named = [b!.source.id, ...[s.linkOf(a!), s.linkOf(b!)].filter((l): l is string => Boolean(l))];
    // The earlier steps' own notifications first (a lagging feed shows them late), so the change's is told apart.
    const posts = await t.settle(
      'notifications of the posts',
      () => walkNotifications(t, window(), t.profile.notifications.readPageSize),
      (w) => !w.complete || w.notifications.some((n) => mentions(n, b!.source.id)),
    );
    if (!posts.complete) t.skip(windowTooLong(t));
    const { before, after, complete } = await notifiedOf(t, named, `the ${row.step}`, () =>
      s.step(row.step, recs, [id]),
    );
    if (!complete) t.skip(windowTooLong(t));
    // Notification fields are not shown: a change is recognised by a native ID or link ID it names. A feed that
    // named none of the run's records so far may describe changes otherwise; it is not judged.
    if (after <= before && !posts.notifications.some((n) => named.some((x) => mentions(n, x))))
      t.skip(
        `no notification of the window names ${named.join(' or ')}, so the ${row.step}'s notification ` +
          `cannot be recognised`,
      );
    t.judge(CHANGE_NOT_NOTIFIED, id, changeNotNotified(`the ${row.step}`, named, before, after));
  },
});

const PERIOD: SharedCheck<Scripted> = {
  id: 'a-window-that-ends-before-a-change-or-lies-far-in-the-past-holds-no-notification-of-it',
  role: 'notificationEvents.period',
  title: 'a window that ends before a change, or lies far in the past, holds no notification of it',
  body: async (t, { s: { kit }, id }) => {
    // Ten seconds are enough to hold other changes (the run's own, or other users' on a shared feed) that a
    // deployment reading the window wrongly would show; a longer window only adds pages.
    const window = await windowEndingNow(t, 10_000);
    const a = await kit.postNew(t, [id]);
    const open = openWindowFrom(t);
    // Every window is read in the profile's large pages: this check is about which period a notification falls in,
    // not paging (the paging checks walk pages of pageSize), and on a busy feed ten seconds of other checks'
    // changes in pages of 3 cost up to a hundred requests.
    const size = t.profile.notifications.readPageSize;
    // Read once the change shows in an open window, so a lagging feed cannot make the closed ones look right.
    await t.settle(
      'notification of the post',
      () => walkNotifications(t, open(), size),
      (w) => !w.complete || w.notifications.some((n) => mentions(n, a.source.id)),
    );
    const farPast = { startDate: '1990-01-01T00:00:00Z', endDate: '1990-12-31T23:59:59Z' };
    const [before, past] = await Promise.all([walkNotifications(t, window, size), walkNotifications(t, farPast, size)]);
    // A notification's own time member is not shown (fields of a notification: not shown), so only the change's own
    // record is judged.
    t.judge(
      NOTIFIED_OUTSIDE_PERIOD,
      id,
      notifiedOutsidePeriod(a.source.id, [
        {
          what: `the window ${window.startDate} - ${window.endDate}, which ended before the post`,
          notifications: before.notifications,
        },
        { what: 'a window of 1990', notifications: past.notifications },
      ]),
    );
  },
};

/**
 * The feed checks of the state table: per row whose feed promise is the service's requirement of the role, its change
 * appears in the notifications of its window; and a window that ends before a change holds no notification of it.
 */
export function notificationEventChecks(s: Scripted): void {
  const changes = requirementFor(s.check.service, 'notificationEvents.changes');
  registerShared(s, [
    ...s.walks.spec.rows.filter((r) => changes && r.feed?.requirement === changes).map(changeOf),
    PERIOD,
  ]);
}
