/**
 * Every check ID of the suite as a run would register them, found by collecting the scenario
 * files with vitest (nothing runs, nothing is sent): what a known-failures list may name besides
 * requirement IDs (report/known-failures.ts unknownEntries). The walk checks' IDs depend on the
 * run's walk budget (their number of parts), so the budget is handed to the collection as the
 * global setup hands it to a run. Takes a few seconds: asked only for lists that name check IDs.
 */
import { createVitest } from 'vitest/node';
import type { RunInfo } from '../harness/targets.js';

/**
 * The check IDs of every scenario file, with the walk budget of the run (harness/config.ts resolveBudgets).
 * @throws Error naming the file when a scenario file cannot be collected
 */
export async function suiteCheckIds(budgets: RunInfo['budgets']): Promise<Set<string>> {
  const vitest = await createVitest('test', {
    config: false,
    include: ['scenarios/**/*.test.ts'],
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    watch: false,
    reporters: [],
    // What the checks read at registration (harness/register.ts, scenarios/shared/model/walk.ts): the budgets alone.
    provide: { conformance: { budgets } as RunInfo },
  });
  try {
    const { testModules } = await vitest.collect();
    const ids = new Set<string>();
    for (const m of testModules) {
      const error = m.errors()[0];
      if (error) throw new Error(`${m.moduleId} could not be collected: ${error.message}`);
      for (const test of m.children.allTests()) {
        const id = test.meta().declared?.checkId;
        if (id) ids.add(id);
      }
    }
    return ids;
  } finally {
    await vitest.close();
  }
}
