/**
 * The walk's feed judgement (scenarios/shared/walk/feed.ts judgeFeed) against a local server:
 * the pages of a closed window that holds still are judged for duplicates (a repeated
 * notification is a finding), and those of a window still changing when the consistency budget
 * ran out are not (a lagging feed while other users write: an entry may shift onto two pages).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { feedCheck } from './support/local-feed.js';
import type { Check } from '../harness/check.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { judgeFeed } from '../scenarios/shared/walk/feed.js';
import { closedWindow, requireStill, settledWalk } from '../scenarios/shared/notifications.js';
import { CouldNotJudge } from '../harness/verdict.js';
import type { WalkReal } from '../scenarios/shared/walk/walk-real.js';

const run = new RunContext('feed-test', mkdtempSync(join(tmpdir(), 'cf-feed-')));
const base = resolveProfile(loadProfile(undefined), false);
// Clocks in step (no wait for a skew before the window closes), and a short budget to poll in.
const profile = {
  ...base,
  consistencyBudgetMs: 800,
  pollIntervalMs: 100,
  notifications: { ...base.notifications, clockSkewMs: 0 },
};
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c();
});

/** A feed whose window holds A, B, B, C over two pages; `changing`: every read names C differently (still filling). */
async function feed(changing: boolean): Promise<Check> {
  let reads = 0;
  const n = (id: string) => ({ notificationType: 'UPDATE', nativeId: id });
  return feedCheck(
    (page) => {
      if (page === 0) reads++;
      const notifications = page === 0 ? [n('A'), n('B')] : [n('B'), n(changing ? `C${reads}` : 'C')];
      return { notifications, hasNext: page === 0, totalElements: 4 };
    },
    { service: 'organization', verifies: ['ORG-NOTIF-NO-DUPLICATES'], profile, run },
    closing,
  );
}

/** A walk with no change the feed must show, judged for paging only. */
const walkOn = (t: Check) =>
  ({
    t,
    feedEvents: [],
    feedBaseline: new Set<string>(),
    config: { spec: { feed: { partition: { requirement: 'ORG-NOTIF-NO-DUPLICATES' } } } },
  }) as unknown as WalkReal;

describe('walk feed paging', () => {
  it('a window that holds still and repeats a notification across pages is a finding', async () => {
    const problems = await judgeFeed(walkOn(await feed(false)), Date.now() - 1000);
    expect(problems.map((p) => p.observed)).toContain("the pages of the walk's window return 1 notification(s) twice");
  });

  it('a window still changing when the consistency budget ran out is not judged for duplicates', async () => {
    expect(await judgeFeed(walkOn(await feed(true)), Date.now() - 1000)).toEqual([]);
  });
});

describe('the paging checks on a window that never holds still', () => {
  // organization-identity-api.md, Events: a feed still changing after the consistency budget leaves
  // paging unjudged; the check ends "could not judge" (INCOMPLETE, exit 5), never passes by default.
  const walked = async (changing: boolean) => {
    const t = await feed(changing);
    return { t, walk: await settledWalk(t, await closedWindow(t, Date.now() - 1000), []) };
  };

  it('a window still changing when the budget ran out ends the check "could not judge"', async () => {
    const { t, walk } = await walked(true);
    expect(walk.still).toBe(false);
    expect(() => requireStill(t, walk)).toThrow(CouldNotJudge);
  });

  it('a window that holds still is judged', async () => {
    const { t, walk } = await walked(false);
    expect(walk.still).toBe(true);
    expect(() => requireStill(t, walk)).not.toThrow();
  });
});
