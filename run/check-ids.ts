/**
 * Every check of the suite as a run would register them, listed without vitest (harness/check-list.ts): the scenario
 * files are loaded in this process (TypeScript through tsx's loader), and each check they register is declared, with
 * its ID, service, area, requirements, title and file; nothing runs, nothing is sent. `npm run conformance -- --list`
 * and `--requirement`, a known-failures list's check IDs (report/known-failures.ts unknownEntries) and the evidence
 * bundle's catalogue (run/check-catalogue.ts) read it. The walk checks' IDs depend on the run's walk budget (their
 * number of parts), so the listing is given the budget a run would have.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ListedCheck, listChecks } from '../harness/check-list.js';
import type { RunInfo } from '../harness/run-info.js';

export type { ListedCheck } from '../harness/check-list.js';

const ROOT = join(import.meta.dirname, '..');

/** The suite's scenario files, relative to the project, in the order a listing shows them. */
export const scenarioFiles = (): string[] =>
  readdirSync(join(ROOT, 'scenarios'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => relative(ROOT, join(ROOT, 'scenarios', f)))
    .sort((a, b) => a.localeCompare(b));

const listed = new Map<string, Promise<ListedCheck[]>>();

/**
 * Every check of the suite, as each scenario file declares it (harness/register.ts), in file order; listed once per
 * budget in a process (a module loaded once registers once).
 * @throws Error naming the file when a scenario file cannot be loaded
 */
export function suiteChecks(budgets: RunInfo['budgets']): Promise<ListedCheck[]> {
  const key = JSON.stringify(budgets);
  let checks = listed.get(key);
  if (!checks) listed.set(key, (checks = list(budgets)));
  return checks;
}

async function list(budgets: RunInfo['budgets']): Promise<ListedCheck[]> {
  const { register } = await import('tsx/esm/api');
  const unregister = register();
  try {
    return await listChecks(budgets, scenarioFiles(), (f) => import(pathToFileURL(join(ROOT, f)).href));
  } finally {
    await unregister();
  }
}

/** The check IDs of every scenario file, with the walk budget of the run (harness/config.ts resolveBudgets). */
export async function suiteCheckIds(budgets: RunInfo['budgets']): Promise<Set<string>> {
  return new Set((await suiteChecks(budgets)).map((c) => c.checkId));
}
