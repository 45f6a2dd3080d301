/**
 * The suite's check catalogue for a run's settings, as the evidence bundle's certification profile compares a run's
 * checks with it (report/evidence/certification.ts): every check of the listing (run/check-ids.ts) by its scenario file
 * and its name as a run registers it (`<title> [<requirement IDs>]`, harness/register.ts).
 */
import type { CatalogueCheck } from '../report/evidence/certification.js';
import type { RunInfo } from '../harness/run-info.js';
import { suiteChecks } from './check-ids.js';

/**
 * Lists the suite's checks.
 * @param budgets the run's walk and bad-input budgets (the checks a run registers depend on them)
 * @returns the checks, or why they could not be listed
 */
export async function collectCatalogue(
  budgets: RunInfo['budgets'],
): Promise<{ checks?: CatalogueCheck[]; problem?: string }> {
  try {
    const listed = await suiteChecks(budgets);
    return { checks: listed.map((c) => ({ file: c.file, name: `${c.title} [${c.verifies.join(' ')}]` })) };
  } catch (e) {
    return { problem: (e as Error).message };
  }
}
