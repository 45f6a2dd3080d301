/**
 * Counting the notifications of a change (scenarios/shared/notifications.ts notifiedOf) against a
 * local feed: a window that fits in profile notifications.maxPages pages is counted whole, and one
 * that does not is reported incomplete, so the notification checks skip it rather than fail a
 * change whose notification lies beyond the pages read. The feed's order is not shown
 * (organization-identity-api.md, Events: "a paginated feed of notifications for a date range"),
 * and a deployment may serve pages smaller than asked (Limits: bounds of pageSize "not shown").
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { feedCheck } from './support/local-feed.js';
import type { Check } from '../harness/check.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { notifiedOf } from '../scenarios/shared/notifications.js';

const run = new RunContext('notified-of-test', mkdtempSync(join(tmpdir(), 'cf-notified-')));
const base = resolveProfile(loadProfile(undefined), false);
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c();
});

/**
 * A feed serving at most 3 notifications a page, oldest first: `others` notifications of other
 * users, then (once `change` ran) one naming CHANGED. Returns a check reading at most `maxPages` pages.
 */
async function feed(others: number, maxPages: number): Promise<{ t: Check; change: () => Promise<void> }> {
  const held = Array.from({ length: others }, (_, i) => ({ notificationType: 'UPDATE', nativeId: `other-${i}` }));
  const profile = {
    ...base,
    consistencyBudgetMs: 300,
    pollIntervalMs: 50,
    notifications: { ...base.notifications, clockSkewMs: 0, maxPages },
  };
  const t = await feedCheck(
    (page) => ({
      notifications: held.slice(page * 3, page * 3 + 3),
      hasNext: (page + 1) * 3 < held.length,
      totalElements: held.length,
    }),
    { service: 'person', verifies: ['PERSON-NOTIF-RECORDS-CHANGES'], profile, run },
    closing,
  );
  return { t, change: async () => void held.push({ notificationType: 'UPDATE', nativeId: 'CHANGED' }) };
}

describe('notifiedOf', () => {
  it('counts the change in a window that fits in maxPages pages', async () => {
    const { t, change } = await feed(10, 20);
    expect(await notifiedOf(t, ['CHANGED'], 'the change', change)).toEqual({ before: 0, after: 1, complete: true });
  });

  it('reports a window longer than maxPages pages incomplete, however the count came out', async () => {
    // 30 notifications of others in pages of 3 is 10 pages; 5 are read, so the change is beyond them.
    const { t, change } = await feed(30, 5);
    expect(await notifiedOf(t, ['CHANGED'], 'the change', change)).toEqual({ before: 0, after: 0, complete: false });
  });
});
