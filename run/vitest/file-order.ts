/**
 * The order in which the run hands scenario files to its workers: longest first. A file lasts as long as its longest
 * chain of requests that must follow one another, so against a distant deployment the run ends when the last long file
 * ends; starting the long files first lets the short ones fill the gaps (longest-processing-time-first scheduling).
 * Vitest's own order (files that failed last time, then by the duration cached from the last run on this machine)
 * follows whichever target ran last: durations against the embedded reference say little about those against staging,
 * and a fresh CI clone has no cache at all.
 *
 * The areas are ranked by their longest chain, measured with `npm run bench:latency` (walks: about 100 requests one
 * after another; metamorphic and notification checks 30 to 50; a generated bad-input check about 50 short ones); areas
 * not ranked come after, in vitest's order. Within an area the services alternate, so that long files of one service do
 * not all compete for that service's in-flight bound (CONFORMANCE_MAX_IN_FLIGHT) at once, busiest service first: the
 * provider checks send the most requests (about 40 % of a run's), so the provider's bound is the one a run must keep
 * busy from its start.
 */
import { basename, dirname } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Scenario areas (file names without `.test.ts`), longest chain first. */
export const LONGEST_FIRST = [
  'walks',
  'metamorphic',
  'notifications',
  'generated-bad-input',
  'search',
  'auth',
  'merge-link',
  'lifecycle',
  'data',
  'envelope',
  'query',
];

/**
 * Areas whose checks send invalid input on purpose that a lenient deployment may store (bad input,
 * generated bad input), or valid input at the edges of its types (boundaries): they run last in
 * their service's isolation group (run/vitest-plan.ts), so no other check of a service that
 * may share their store can ever see such a record (run/vitest/side-by-side-runner.mjs waits for
 * every other file of the group to end first).
 */
export const ISOLATED_AREAS = ['bad-input', 'generated-bad-input', 'boundaries'];

/** True when a scenario file's checks send stored invalid input (ISOLATED_AREAS). */
export const isIsolated = (path: string) => ISOLATED_AREAS.includes(basename(path).replace(/\.test\.ts$/, ''));

/** Services by the requests their checks send, most first (npm run bench:latency, busiest service). */
export const BUSIEST_FIRST = ['provider', 'person', 'organization'];

const serviceRank = (service: string) =>
  BUSIEST_FIRST.includes(service) ? BUSIEST_FIRST.indexOf(service) : BUSIEST_FIRST.length;

/** Rank of a scenario file: its area's place in LONGEST_FIRST (unranked areas after every ranked one). */
export function fileRank(path: string): number {
  const at = LONGEST_FIRST.indexOf(basename(path).replace(/\.test\.ts$/, ''));
  return at < 0 ? LONGEST_FIRST.length : at;
}

/**
 * Orders scenario files by fileRank, then by service (BUSIEST_FIRST, so services alternate), keeping vitest's order
 * otherwise; the isolated files (ISOLATED_AREAS) come after all others.
 */
export function longestFirst<T>(files: T[], pathOf: (f: T) => string): T[] {
  return files
    .map((f, i) => ({
      f,
      i,
      rank: fileRank(pathOf(f)),
      service: basename(dirname(pathOf(f))),
      last: Number(isIsolated(pathOf(f))),
    }))
    .sort(
      (a, b) =>
        a.last - b.last ||
        a.rank - b.rank ||
        (a.rank < LONGEST_FIRST.length ? serviceRank(a.service) - serviceRank(b.service) : 0) ||
        a.i - b.i,
    )
    .map((x) => x.f);
}

/**
 * The files of shard `index` of `count` (1-based, as `--shard=i/n`): every file in longestFirst order (from the files
 * sorted by path, so every shard's process computes the same order), dealt to the shards in turn, so each shard gets
 * its share of the long files. Vitest's own sharding deals by a hash of the path, whatever a file weighs: of three
 * shards one got all three walks files and 65 % of a run's requests (3,399 of 5,201).
 */
export function dealShard<T>(files: T[], pathOf: (f: T) => string, index: number, count: number): T[] {
  const byPath = [...files].sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
  return longestFirst(byPath, pathOf).filter((_, i) => i % count === index - 1);
}

/** Vitest sequencer (config `sequence.sequencer`): shards dealt by dealShard, files ordered by longestFirst. */
export class LongestFirstSequencer extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    return dealShard(files, (f) => f.moduleId, index, count);
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(await super.sort(files), (f) => f.moduleId);
  }
}
