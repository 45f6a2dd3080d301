/**
 * Provider searchNotifications: paging (shared table), notifications stay inside the requested
 * period, and the run's merge, link and unlink events appear in their period.
 * Source: person-provider-identity-api.md, Events; Endpoints (searchNotifications).
 */
import { expect } from 'vitest';
import { notificationChecks } from '../shared/rules/notifications.js';
import { mentions, openWindowFrom, walkNotifications, windowEndingNow } from '../shared/notifications.js';
import { src } from '../shared/rules/types.js';
import { area, practitioner } from './provider.js';

const { check } = area('notifications');

notificationChecks({ check, kit: practitioner, ids: { paging: 'PROV-NOTIF-PAGING', total: 'PROV-NOTIF-PAGING', noDuplicates: 'PROV-NOTIF-PAGING' } });

check('searchNotifications returns only notifications of the requested period', ['PROV-NOTIF-PERIOD'], async (t) => {
  // The window ends before the post on the deployment's clock too (clock skew), and is read once the post could show.
  const window = await windowEndingNow(t, 600_000);
  const a = await practitioner.postNew(t, ['PROV-NOTIF-PERIOD']);
  const walk = await walkNotifications(t, window);
  const [from, to] = [Date.parse(window.startDate), Date.parse(window.endDate)];
  // `ts` is the vendor's member for a notification's time (fields "not shown" in the seed): checked only where present.
  const outside = walk.notifications.filter((n: any) => typeof n?.ts === 'string' && !Number.isNaN(Date.parse(n.ts)) && (Date.parse(n.ts) < from || Date.parse(n.ts) > to));
  await t.rule('PROV-NOTIF-PERIOD', () => {
    expect(outside.map((n: any) => n.ts), 'notifications timed outside the period').toEqual([]);
    expect(walk.notifications.filter((n) => JSON.stringify(n).includes(a.source.id)).length, 'a change made after the period ended is not in it').toBe(0);
  });
});

check('merge, link and unlink events the run made appear in their period', ['PROV-NOTIF-RECORDS-CHANGES'], async (t) => {
  const cites = ['PROV-NOTIF-RECORDS-CHANGES'];
  const window = openWindowFrom(t);
  const [a, b, c] = await Promise.all([practitioner.postNew(t, cites), practitioner.postNew(t, cites), practitioner.postNew(t, cites)]);
  await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites });
  await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(c.source) }, { cites });
  await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(c.source) }, { cites });
  const seen = await t.eventually('notifications of the merge, link and unlink', async () => {
    const walk = await walkNotifications(t, window());
    const merge = walk.notifications.filter((n) => mentions(n, b.source.id)).length >= 2; // post, merge
    const linkAndUnlink = walk.notifications.filter((n) => mentions(n, c.source.id)).length >= 3; // post, link, unlink
    return merge && linkAndUnlink ? true : undefined;
  });
  await t.rule(cites, () => expect(seen, `notifications mention the retired ${b.source.id} and the linked-then-unlinked ${c.source.id}`).toBe(true));
});
