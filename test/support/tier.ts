/**
 * Two tiers of the project's own tests. `npm test` runs every test file, taking a sample of the
 * long end-to-end sweeps (it takes about 13 minutes on two cores; CI runs it);
 * `npm run test:full` (SELFTEST=full) runs each sweep whole: every view of the redaction sweep,
 * every cancellation, every README recipe, ten run seeds per sequence fault, every organization
 * sequence fault end to end, clean walk runs five times as long, sharding against an unsharded run. `npm run detection` runs the whole fault and variant catalogues.
 */
export const FULL_TIER = process.env.SELFTEST === 'full';

/** `all` under `npm run test:full`, else `sample` (a part of `all`). */
export function sampled<T>(all: readonly T[], sample: readonly T[]): T[] {
  return [...(FULL_TIER ? all : sample)];
}
