/**
 * `npm run compare -- <baseline> <current> [--json out.json] [--markdown out.md]`: compares two
 * runs (run folders or summary.json files) and prints the comparison as Markdown.
 * Exit codes: 0 unchanged or changed without a MUST regression; 1 a MUST requirement newly
 * fails (regressed); 2 bad arguments or unreadable input.
 */
import { writeFileSync } from 'node:fs';
import { compareSummaries, comparisonHeadline, comparisonMarkdown, loadSummary } from '../../report/compare.js';
import { command, parseArguments, usageError } from '../command.js';

const program = command({
  name: 'compare',
  summary:
    "Compares two runs (before and after a vendor upgrade or configuration change, same seed): each run's gate, newly failing and passing checks, requirements whose outcome changed, significant latency shifts (rank test of per-request times) and match-score shifts; only what changed is listed.",
  exitCodes: [
    [0, 'unchanged, or changed without a MUST regression'],
    [1, 'regressed: a MUST requirement newly fails'],
    [2, 'bad arguments or unreadable input'],
  ],
  examples: [
    'npm run compare -- reports/20261120-0101-aaaa reports/20261121-0101-bbbb',
    'npm run compare -- before/summary.json after/summary.json --json diff.json --markdown diff.md',
  ],
})
  .argument('<baseline>', 'baseline run folder or summary.json')
  .argument('<current>', 'current run folder or summary.json')
  .option('--json <file>', 'also write the comparison as JSON')
  .option('--markdown <file>', 'also write the Markdown');
parseArguments(program);
const [baseline, current] = program.args as [string, string];
const options = program.opts<{ json?: string; markdown?: string }>();

let comparison: ReturnType<typeof compareSummaries>;
try {
  comparison = compareSummaries(loadSummary(baseline), loadSummary(current));
} catch (e) {
  usageError(program, (e as Error).message);
}
const md = comparisonMarkdown(comparison);
process.stdout.write(md);
if (options.json) writeFileSync(options.json, JSON.stringify(comparison, null, 2));
if (options.markdown) writeFileSync(options.markdown, md);
console.log(
  `\ncompare: ${comparisonHeadline(comparison)}${comparison.mustRegressions.length ? `; ${comparison.mustRegressions.length} MUST requirement(s) newly fail` : ''}`,
);
process.exitCode = comparison.verdict === 'regressed' ? 1 : 0;
