/**
 * `npm run compare -- <baseline> <current> [--json out.json] [--markdown out.md]`: compares two
 * runs (run folders or summary.json files) and prints the comparison as Markdown.
 * Exit codes: 0 unchanged or changed without a MUST regression; 1 a MUST requirement newly
 * fails (regressed); 2 bad arguments or unreadable input.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compareSummaries, comparisonMarkdown, loadSummary } from '../../report/compare.js';

function main(): number {
  let args;
  try {
    args = parseArgs({ allowPositionals: true, options: { json: { type: 'string' }, markdown: { type: 'string' } } });
  } catch (e) {
    console.error(`compare: ${(e as Error).message}`);
    return 2;
  }
  if (args.positionals.length !== 2) {
    console.error('compare: usage: npm run compare -- <baseline run folder or summary.json> <current run folder or summary.json> [--json file] [--markdown file]');
    return 2;
  }
  let comparison;
  try {
    comparison = compareSummaries(loadSummary(args.positionals[0]!), loadSummary(args.positionals[1]!));
  } catch (e) {
    console.error(`compare: ${(e as Error).message}`);
    return 2;
  }
  const md = comparisonMarkdown(comparison);
  process.stdout.write(md);
  if (args.values.json) writeFileSync(args.values.json, JSON.stringify(comparison, null, 2));
  if (args.values.markdown) writeFileSync(args.values.markdown, md);
  console.log(`\ncompare: ${comparison.verdict}${comparison.mustRegressions.length ? ` (${comparison.mustRegressions.length} MUST requirement(s) newly fail)` : ''}`);
  return comparison.verdict === 'regressed' ? 1 : 0;
}

process.exitCode = main();
