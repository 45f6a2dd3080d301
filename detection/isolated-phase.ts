/**
 * The isolated phase of a detection run, as a conformance run has it (run/vitest/side-by-side-runner.mjs):
 * the scenario files that send invalid input on purpose, which a lenient deployment may store, or
 * values at the edges of their types (run/vitest/file-order.ts ISOLATED_AREAS), run only once every other file has
 * ended, so no other check
 * can see such a record. Each plan entry becomes two vitest projects: its other files (group 0)
 * and its isolated files (group 1, against references of their own, named `<entry>~isolated`);
 * rows and setups read the plan entry's name back (planName).
 */
import { ISOLATED_AREAS } from '../run/vitest/file-order.js';

/** Suffix of the project that runs a plan entry's isolated files. */
export const ISOLATED_SUFFIX = '~isolated';

/** The plan entry a project belongs to: its name without ISOLATED_SUFFIX. */
export const planName = (project: string) =>
  project.endsWith(ISOLATED_SUFFIX) ? project.slice(0, -ISOLATED_SUFFIX.length) : project;

/** Globs that exclude the isolated files from a project of the other files. */
export const isolatedExclude = () => ISOLATED_AREAS.map((area) => `**/${area}.test.ts`);

/**
 * The isolated files among `include` (globs or paths): a glob naming `*.test.ts` files of a folder gives that folder's
 * isolated files; a path is kept when it is an isolated file.
 */
export function isolatedInclude(include: string[]): string[] {
  const out: string[] = [];
  for (const pattern of include) {
    if (pattern.endsWith('*.test.ts'))
      for (const area of ISOLATED_AREAS) out.push(pattern.replace(/\*\.test\.ts$/, `${area}.test.ts`));
    else if (ISOLATED_AREAS.some((area) => pattern.endsWith(`/${area}.test.ts`))) out.push(pattern);
  }
  return [...new Set(out)];
}

/** True when every entry of `include` is a path of an isolated file: the entry has no other files. */
export const onlyIsolated = (include: string[]) =>
  include.length > 0 && include.every((x) => !x.includes('*') && isolatedInclude([x]).length === 1);
