/**
 * Listing and selecting the suite's checks by requirement (`npm run conformance -- --list`, `--requirement ID[,ID]`): a
 * listing's lines and JSON, and the vitest filters that run exactly the checks verifying some requirements (their
 * services' scenario folders, and a name pattern on the requirement IDs every check's test name ends with: `title [ID
 * ID]`, harness/register.ts).
 */
import { closest } from 'fastest-levenshtein';
import { requirementIndex } from '../specs/services.js';
import type { ListedCheck } from './check-ids.js';
import escapeRegExp from 'escape-string-regexp';

/** The listing as text: one line per check, ID then the requirements it verifies, then its title. */
export function listingText(checks: ListedCheck[]): string {
  const lines = checks.map((c) => `${c.checkId}  [${c.verifies.join(' ')}]  ${c.title}`);
  const services = [...new Set(checks.map((c) => c.service))];
  return [
    ...lines,
    `${checks.length} checks ` +
      `(${services.map((s) => `${s} ${checks.filter((c) => c.service === s).length}`).join(', ')})`,
  ].join('\n');
}

/** The listing as JSON: every check with its ID, service, area, title, requirements and file. */
export const listingJson = (checks: ListedCheck[]) =>
  JSON.stringify(
    checks.map((c) => ({
      checkId: c.checkId,
      service: c.service,
      area: c.area,
      title: c.title,
      requirements: c.verifies,
      file: c.file,
    })),
    null,
    2,
  );

/**
 * The vitest filters that run the checks of `checks` verifying any of `ids`.
 * @returns the filters, or `problem` naming an ID the catalogue does not hold (with the one meant), or IDs no check
 *   verifies
 */
export function requirementFilters(
  ids: string[],
  checks: readonly ListedCheck[],
): { args: string[] } | { problem: string } {
  const index = requirementIndex();
  const known = [...index.keys()];
  for (const id of ids)
    if (!index.has(id))
      return {
        problem: `--requirement: ${id} is no requirement of the catalogue (did you mean ${closest(id, known)}?)`,
      };
  const files = [...new Set(checks.filter((c) => c.verifies.some((v) => ids.includes(v))).map((c) => c.file))];
  if (!files.length)
    return { problem: `--requirement: no check verifies ${ids.join(', ')} (its requirements are untestable)` };
  // An ID stands between "[" or a space and a space or "]": ORG-SEARCH-THRESHOLD does not select
  // ORG-SEARCH-THRESHOLD-MONOTONE.
  const pattern = `\\[(?:[^\\]]* )?(?:${ids.map(escapeRegExp).join('|')})(?: [^\\]]*)?\\]`;
  return { args: [...files, '-t', pattern] };
}
