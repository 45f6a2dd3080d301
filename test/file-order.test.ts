/**
 * The order scenario files go to the workers (run/vitest/file-order.ts): longest chains first, services
 * alternating within an area (busiest first), unranked areas last in the order they came.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BUSIEST_FIRST, LONGEST_FIRST, dealShard, fileRank, longestFirst } from '../run/vitest/file-order.js';

describe('longestFirst', () => {
  it('puts the walks of every service first (busiest service first), then metamorphic, and unranked areas last in their order', () => {
    const files = [
      'scenarios/person/post.test.ts',
      'scenarios/provider/metamorphic.test.ts',
      'scenarios/organization/post.test.ts',
      'scenarios/person/walks.test.ts',
      'scenarios/organization/envelope.test.ts',
      'scenarios/provider/walks.test.ts',
      'scenarios/organization/walks.test.ts',
      'scenarios/organization/metamorphic.test.ts',
    ].map((p) => `/repo/${p}`);
    expect(longestFirst(files, (f) => f).map((f) => f.replace('/repo/scenarios/', ''))).toEqual([
      'provider/walks.test.ts',
      'person/walks.test.ts',
      'organization/walks.test.ts',
      'provider/metamorphic.test.ts',
      'organization/metamorphic.test.ts',
      'organization/envelope.test.ts',
      'person/post.test.ts',
      'organization/post.test.ts',
    ]);
  });

  it('ranks every area the table names by its place, and any other after all of them', () => {
    expect(LONGEST_FIRST.map((a) => fileRank(`scenarios/organization/${a}.test.ts`))).toEqual(
      LONGEST_FIRST.map((_, i) => i),
    );
    expect(fileRank('scenarios/person/households.test.ts')).toBe(LONGEST_FIRST.length);
  });

  it('names only areas that exist as scenario files', async () => {
    const { readdirSync } = await import('node:fs');
    const areas = new Set(
      ['organization', 'person', 'provider'].flatMap((s) =>
        readdirSync(`scenarios/${s}`)
          .filter((f) => f.endsWith('.test.ts'))
          .map((f) => f.replace(/\.test\.ts$/, '')),
      ),
    );
    expect(LONGEST_FIRST.filter((a) => !areas.has(a))).toEqual([]);
  });

  it('names every service folder in BUSIEST_FIRST', async () => {
    const { readdirSync } = await import('node:fs');
    const services = readdirSync('scenarios', { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'shared')
      .map((d) => d.name);
    expect([...BUSIEST_FIRST].sort()).toEqual(services.sort());
  });
});

describe('dealShard', () => {
  const files = ['organization', 'person', 'provider'].flatMap((service) =>
    readdirSync(join(import.meta.dirname, '..', 'scenarios', service))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `/repo/scenarios/${service}/${f}`),
  );
  const walks = (shard: string[]) => shard.filter((f) => f.endsWith('/walks.test.ts'));

  it("deals the suite's files to three shards in turn, longest first: each shard one walks file, every file once", () => {
    const shards = [1, 2, 3].map((i) => dealShard(files, (f) => f, i, 3));
    expect(shards.map((s) => walks(s).length)).toEqual([1, 1, 1]);
    expect(shards.map((s) => s.filter((f) => f.endsWith('/metamorphic.test.ts')).length)).toEqual([1, 1, 1]);
    expect(shards.flat().sort()).toEqual([...files].sort());
    const sizes = shards.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('gives every shard the same files whatever order vitest lists them in', () => {
    const reversed = [...files].reverse();
    for (const i of [1, 2]) expect(dealShard(reversed, (f) => f, i, 2)).toEqual(dealShard(files, (f) => f, i, 2));
  });
});
