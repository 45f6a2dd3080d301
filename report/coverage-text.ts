/**
 * The one coverage figure every report gives per service, with its definition: of the requirements in the run's scope
 * (the catalogue's, less those outside the run's selection), how many at least one check of the run cites, whatever its
 * verdict; beside it the same count for the MUST requirements alone. Both count over the same requirements, so "79 of
 * 81" and "MUST 64 of 66" differ only by the EXPECT ones: the gap in both is the untestable requirements (no black-box
 * check can observe them) and any with no check yet.
 */
import type { Summary } from './summary.js';

type Coverage = Summary['coverage'][string];

/** What the figure counts, in one sentence (summary.md and report.html print it under their tables). */
export const COVERAGE_DEFINITION =
  "Requirements with a check: of the requirements in the run's scope (the catalogue's, less any outside the " +
  'run\'s selection), those at least one check of the run cites, whatever its verdict; "MUST" counts the ' +
  'MUST-level ones alone, over the same scope. The rest are untestable (no black-box check can observe them: ' +
  'each is listed with its reason) or have no check yet.';

/** "79 of 81 (MUST 63 of 65)", the figure alone, for tables. */
export function coverageFigure(c: Coverage): string {
  return `${c.covered} of ${c.inScope} (MUST ${c.mustCovered} of ${c.must})`;
}

/**
 * "requirements with a check 79 of 81 (MUST 63 of 65); 2 untestable", with what else is missing: requirements with no
 * check yet, and those outside a partial selection or whose checks an interrupt kept from starting ("not run").
 */
export function coverageText(c: Coverage, s?: Pick<Summary, 'interrupted'>): string {
  const gaps = [
    c.untestable ? `${c.untestable} untestable` : '',
    c.uncovered.length ? `${c.uncovered.length} with no check yet` : '',
    c.notRun.length
      ? `${c.notRun.length} not run: ${s?.interrupted ? 'the interrupt came first' : 'outside the selection'}`
      : '',
  ].filter(Boolean);
  return `requirements with a check ${coverageFigure(c)}${gaps.length ? `; ${gaps.join(', ')}` : ''}`;
}
