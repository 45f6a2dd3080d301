/**
 * Notifications of the run's own changes, shared: each state change a service's seed lists among
 * its notification kinds appears in the feed of its window (recognised by a native ID or link ID
 * it names: notification fields are "not shown"), and the feed keeps to the requested date range
 * (a far-past window, or one that ends before a change, holds none of it).
 * Source: organization-identity-api.md, Events; person-provider-identity-api.md, Events
 * (person: "matches, links, merges, deactivations"; provider: "merge events, link and unlink events").
 */
import { expect } from 'vitest';
import type { Check } from '../../../harness/check.js';
import type { SourceRef } from '../../../specs/common/wire.js';
import { mentions, notifiedOf, openWindowFrom, walkNotifications, windowEndingNow } from '../notifications.js';
import { type Shared, idsFor, src, titled } from './types.js';

const NOTIFICATION_EVENT_ROLES = ['changes', 'period'] as const;
export type NotificationEventRole = (typeof NOTIFICATION_EVENT_ROLES)[number];

/** A change the feed must report: what it is, and how to make it on two fresh records (A survives or is linked to). */
export interface NotifiedChange {
  what: string;
  make: (t: Check, a: { source: SourceRef; linkId: string }, b: { source: SourceRef; linkId: string }) => Promise<unknown>;
}

/** The state changes of the shared table, by name. */
export const CHANGES: Record<'merge' | 'link' | 'unlink', NotifiedChange> = {
  merge: { what: 'a merge', make: (t, a, b) => t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }) },
  link: { what: 'a link', make: (t, a, b) => t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }) },
  unlink: {
    what: 'an unlink',
    make: async (t, a, b) => {
      await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) });
      return t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(b.source) });
    },
  },
};

export function notificationEventChecks({ check, kit, label, changes = [] }: Shared & { changes?: NotifiedChange[] }): void {
  const ids = idsFor(check, 'notificationEvents', NOTIFICATION_EVENT_ROLES);
  const T = (s: string) => titled(s, label);

  if (ids.changes) {
    const id = ids.changes;
    for (const change of changes) {
      check(T(`${change.what} the run makes appears in the notifications of its window`), [id], async (t) => {
        const window = openWindowFrom(t);
        const [a, b] = await Promise.all([kit.postNew(t, [id]), kit.postNew(t, [id])]);
        const named = [b.source.id, b.linkId];
        // The posts' own notifications first (a lagging feed shows them late), so the change's is told apart.
        await t.settle(
          'notifications of the posts',
          () => walkNotifications(t, window()),
          (w) => w.notifications.some((n) => mentions(n, b.source.id)),
        );
        const { before, after } = await notifiedOf(t, named, change.what, () => change.make(t, a, b));
        await t.rule(id, () =>
          expect(after, `notifications naming ${b.source.id} or ${b.linkId} after ${change.what} (${before} before it)`).toBeGreaterThan(
            before,
          ),
        );
      });
    }
  }

  if (ids.period) {
    const id = ids.period;
    check(T('a window that ends before a change, or lies far in the past, holds no notification of it'), [id], async (t) => {
      // Ten seconds are enough to hold other changes (the run's own, or other users' on a shared
      // feed) that a deployment reading the window wrongly would show; a longer window only adds pages.
      const window = await windowEndingNow(t, 10_000);
      const a = await kit.postNew(t, [id]);
      const open = openWindowFrom(t);
      // Read once the change shows in an open window, so a lagging feed cannot make the closed ones look right.
      await t.settle(
        'notification of the post',
        () => walkNotifications(t, open()),
        (w) => w.notifications.some((n) => mentions(n, a.source.id)),
      );
      const farPast = { startDate: '1990-01-01T00:00:00Z', endDate: '1990-12-31T23:59:59Z' };
      const [before, past] = await Promise.all([walkNotifications(t, window), walkNotifications(t, farPast)]);
      const [from, to] = [Date.parse(window.startDate), Date.parse(window.endDate)];
      // `ts` is the vendor's member for a notification's time (fields "not shown" in the seed): checked only where present.
      const outside = before.notifications.filter(
        (n: any) => typeof n?.ts === 'string' && !Number.isNaN(Date.parse(n.ts)) && (Date.parse(n.ts) < from || Date.parse(n.ts) > to),
      );
      await t.rule(id, () => {
        expect(
          before.notifications.filter((n) => mentions(n, a.source.id)).length,
          'notifications of a change made after the window ended',
        ).toBe(0);
        expect(past.notifications.filter((n) => mentions(n, a.source.id)).length, 'notifications of the change in a window of 1990').toBe(
          0,
        );
        expect(
          outside.map((n: any) => n.ts),
          'notifications timed outside the window',
        ).toEqual([]);
      });
    });
  }
}
