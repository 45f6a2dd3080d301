/**
 * The check count of a run (run/count-checks.ts): `vitest list` counts exactly the checks the run
 * then starts (files, `-t` and `--shard` filters alike); options a listing cannot take are
 * dropped; the count is cached per filters and sources, and a changed source or filter misses the
 * cache; the run's global setup waits for the count and gives up on none.
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { awaitCount, countKey, listArgs, startCount } from '../run/count-checks.js';

const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

describe('check count', () => {
  it('lists what the filters select: one file, a name filter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-count-test-'));
    expect(await startCount(VITEST, ['scenarios/organization/auth.test.ts'], process.env).done).toBe(3);
    const merge = await startCount(VITEST, ['scenarios/organization/merge-link.test.ts', '-t', 'unmerge'], process.env, dir).done;
    expect(merge).toBeGreaterThan(0);
    expect(merge).toBeLessThan(await startCount(VITEST, ['scenarios/organization/merge-link.test.ts'], process.env).done as number);
    // A cache folder that cannot be made (its parent is a file) loses the cache, not the count.
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    expect(await startCount(VITEST, ['scenarios/organization/auth.test.ts'], process.env, join(blocker, 'cache')).done).toBe(3);
  }, 120000);

  it('drops run options a listing cannot take, with their values', () => {
    expect(listArgs(['scenarios/person', '--reporter', 'dot', '-t', 'merge', '--bail=1', '--shard=1/2'])).toEqual(['scenarios/person', '-t', 'merge', '--shard=1/2']);
  });

  it('takes a cached count without listing, and misses the cache when a source or the filters change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-count-cache-'));
    const root = mkdtempSync(join(tmpdir(), 'cf-count-root-'));
    mkdirSync(join(root, 'scenarios'));
    writeFileSync(join(root, 'scenarios', 'a.test.ts'), 'x');
    const key = countKey(['scenarios/a'], root);
    expect(countKey(['scenarios/b'], root)).not.toBe(key);
    utimesSync(join(root, 'scenarios', 'a.test.ts'), new Date(), new Date(Date.now() + 5000));
    expect(countKey(['scenarios/a'], root)).not.toBe(key);
    // A cache entry for this tree's own key: a vitest that cannot run proves no listing happened.
    writeFileSync(join(dir, '.check-counts.json'), JSON.stringify({ [countKey(['x.test.ts'])]: 41 }));
    const cached = startCount('/nonexistent/vitest.mjs', ['x.test.ts'], process.env, dir);
    expect(await cached.done).toBe(41);
    expect(await awaitCount(cached.file, 1000)).toBe(41);
    expect(await startCount('/nonexistent/vitest.mjs', ['y.test.ts'], process.env, dir).done).toBeUndefined();
  });

  it('awaitCount gives the count when it comes, and nothing without one', async () => {
    expect(await awaitCount(undefined)).toBeUndefined();
    const started = Date.now();
    expect(await awaitCount(join(tmpdir(), 'cf-no-such-count', 'count.json'), 300)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
