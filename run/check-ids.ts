/**
 * Every check ID of the suite as a run would register them, found by collecting the scenario files with vitest (nothing
 * runs, nothing is sent): what a known-failures list may name besides requirement IDs (report/known-failures.ts
 * unknownEntries). The walk checks' IDs depend on the run's walk budget (their number of parts), so the budget is
 * handed to the collection as the global setup hands it to a run. Takes a few seconds: asked only for lists that name
 * check IDs.
 */
import { relative } from 'node:path';
import { createVitest } from 'vitest/node';
import type { RunInfo } from '../harness/targets.js';
import type { CheckDeclaration } from '../harness/verdict.js';

/** A check of the suite as a listing shows it: its declaration and its scenario file. */
export type ListedCheck = CheckDeclaration & { file: string };

/**
 * The check IDs of every scenario file, with the walk budget of the run (harness/config.ts resolveBudgets).
 * @throws Error naming the file when a scenario file cannot be collected
 */
export async function suiteCheckIds(budgets: RunInfo['budgets']): Promise<Set<string>> {
  return new Set((await suiteChecks(budgets)).map((c) => c.checkId));
}

/**
 * Every check of the suite, as each scenario file declares it (harness/register.ts): ID, service, area, the
 * requirements it verifies, title and file, in file order. Nothing runs, nothing is sent.
 * @throws Error naming the file when a scenario file cannot be collected
 */
export async function suiteChecks(budgets: RunInfo['budgets']): Promise<ListedCheck[]> {
  const vitest = await createVitest('test', {
    config: false,
    include: ['scenarios/**/*.test.ts'],
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    watch: false,
    reporters: [],
    // What the checks read at registration (harness/register.ts, scenarios/shared/walk/walk.ts): the budgets alone.
    provide: { conformance: { budgets } as RunInfo },
  });
  try {
    const { testModules } = await vitest.collect();
    const checks: ListedCheck[] = [];
    for (const m of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
      const error = m.errors()[0];
      if (error) throw new Error(`${m.moduleId} could not be collected: ${error.message}`);
      for (const test of m.children.allTests()) {
        const declared = test.meta().declared;
        if (declared) checks.push({ ...declared, file: relative(process.cwd(), m.moduleId) });
      }
    }
    return checks;
  } finally {
    await vitest.close();
  }
}
