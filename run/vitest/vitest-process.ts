/**
 * How `npm run conformance` starts its vitest process: V8 flags and allocator settings that lower its resident memory
 * without changing what it does (docs/performance.md, items 20 and 25).
 */

/**
 * V8 flags given to a process hold for every worker thread in it (worker threads ignore heap flags of their own
 * `execArgv`, and vitest's threads pool sets no `resourceLimits`, so this is the one place to say it).
 * - `--max-semi-space-size=8`: each thread's young generation may otherwise grow to about 34 MB of garbage that dies
 *   young. 4 MB lowered the peak by about 80 MB when the run had four to six workers (item 20); with one test worker it
 *   cost about a tenth of the suite's CPU in scavenges, and 8 MB takes that back for about 15 MB more at the peak (item
 *   38).
 * - `--heap-growing-percent=50`: after a full collection the old generation may grow by half of what survived before
 *   the next one, instead of V8's own factor of up to 4. The test worker keeps about 60 MB alive and grew to 145 MB
 *   between collections; with this its peak is about
 *   40 MB lower, for about 5 % more CPU in a run bound by CPU (item 25).
 */
export const VITEST_NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=50'];

/**
 * Environment of the vitest process where the user's environment does not say otherwise. Vite 8's native bundler
 * (rolldown, loaded into the vitest process) allocates with mimalloc, which by default asks for transparent huge pages:
 * its arena then stays resident in 2 MB pages, about MB where 10 MB are used (item 25). `MIMALLOC_ALLOW_THP=0` keeps
 * ordinary pages.
 */
export const VITEST_ENV_DEFAULTS: Readonly<Record<string, string>> = { MIMALLOC_ALLOW_THP: '0' };
