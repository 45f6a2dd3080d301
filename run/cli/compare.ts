/**
 * `npm run compare -- <baseline> <current> [--json out.json] [--markdown out.md] [--csv folder]`: compares two runs
 * (run folders or summary.json files) and prints the comparison as Markdown. When both run folders hold match-quality
 * results (npm run match-quality), it lists the matching decisions that changed too (report/match-quality-compare.ts),
 * and with --csv writes each service's changed pairs as `<service>-changed-pairs.csv`. Exit codes: 0 unchanged or
 * changed without a regression; 1 a MUST requirement newly fails, or the current match-quality run's paired verdict
 * against the baseline is a regression; 2 bad arguments or unreadable input.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareSummaries,
  comparisonHeadline,
  comparisonMarkdown,
  degradedText,
  isDegraded,
  loadSummary,
} from '../../report/compare.js';
import {
  compareMatchQuality,
  matchQualityCsv,
  matchQualityMarkdown,
  matchQualityRegressed,
  matchQualityServices,
} from '../../report/match-quality-compare.js';
import { type MatchVerdict, improvements } from '../../report/match-verdict.js';
import { command, parseArguments, usageError } from '../command.js';

const program = command({
  name: 'compare',
  summary:
    "Compares two runs (before and after a vendor upgrade or configuration change, same seed): each run's gate, " +
    'newly failing and passing checks, requirements whose outcome changed, significant latency shifts (rank test ' +
    'of per-request times) and match-score shifts; only what changed is listed.',
  exitCodes: {
    0: 'unchanged, or changed without a regression',
    1:
      "regressed: a MUST requirement newly fails, or the current match-quality run's paired verdict against the " +
      'baseline is a regression',
    2: 'bad arguments or unreadable input',
  },
  examples: [
    'npm run compare -- reports/20261120-0101-aaaa reports/20261121-0101-bbbb',
    'npm run compare -- before/summary.json after/summary.json --json diff.json --markdown diff.md',
    'npm run compare -- reports/<before run> reports/<after run> --csv changed-pairs/   (match-quality runs: ' +
      'the changed pairs as CSV)',
  ],
})
  .argument('<baseline>', 'baseline run folder or summary.json')
  .argument('<current>', 'current run folder or summary.json')
  .option('--json <file>', 'also write the comparison as JSON')
  .option('--markdown <file>', 'also write the Markdown')
  .option(
    '--csv <folder>',
    "match-quality runs: write each service's changed pairs into this folder as <service>-changed-pairs.csv",
  );
parseArguments(program);
const [baseline, current] = program.args as [string, string];
const options = program.opts<{ json?: string; markdown?: string; csv?: string }>();

const isFolder = (p: string) => existsSync(p) && statSync(p).isDirectory();
// Two run folders of match-quality runs alone hold no summary.json: compare what they hold.
const matchQualityOnly = [baseline, current].every(
  (p) => isFolder(p) && !existsSync(join(p, 'summary.json')) && matchQualityServices(p).length,
);
let comparison: ReturnType<typeof compareSummaries> | undefined;
let matchQuality: ReturnType<typeof compareMatchQuality> = [];
try {
  if (!matchQualityOnly) comparison = compareSummaries(loadSummary(baseline), loadSummary(current));
  if (isFolder(baseline) && isFolder(current)) matchQuality = compareMatchQuality(baseline, current);
} catch (e) {
  usageError(program, (e as Error).message);
}
const md = [
  comparison ? comparisonMarkdown(comparison) : '',
  matchQuality.length ? `${matchQualityMarkdown(matchQuality)}\n` : '',
]
  .filter(Boolean)
  .join('\n');
process.stdout.write(md);
if (options.json) writeFileSync(options.json, JSON.stringify({ ...comparison, matchQuality }, null, 2));
if (options.markdown) writeFileSync(options.markdown, md);
if (options.csv)
  for (const c of matchQuality) {
    const csv = matchQualityCsv(c);
    if (!csv) continue;
    mkdirSync(options.csv, { recursive: true });
    writeFileSync(join(options.csv, `${c.service}-changed-pairs.csv`), csv);
  }
const regressed = comparison?.verdict === 'regressed' || matchQualityRegressed(matchQuality);
const conformance = comparison
  ? `${comparisonHeadline(comparison)}${comparison.mustRegressions.length ? `; ${comparison.mustRegressions.length} MUST requirement(s) newly fail` : ''}` +
    (isDegraded(comparison) ? `; latency not compared: ${degradedText(comparison)}` : '')
  : regressed
    ? 'regressed'
    : undefined;
// On the closing line: REGRESSION, or no regression with the metrics that improved significantly (the Markdown names
// the regressed ones).
const shortVerdict = (v: MatchVerdict) =>
  v.regressions.length
    ? 'REGRESSION'
    : improvements(v).length
      ? `no regression (better in ${improvements(v).join(' and ')})`
      : 'no regression';
const matching = matchQuality.length
  ? `match quality: ${matchQuality
      .map(
        (c) =>
          `${c.service} ` +
          `${c.paired ? shortVerdict(c.paired) : 'no paired verdict'}${c.decisions ? `, ${c.decisions.flips.truePairsNewlyLinked + c.decisions.flips.nonPairsNewlyLinked} pairs newly merged, ${c.decisions.flips.truePairsNewlyUnlinked + c.decisions.flips.nonPairsNewlyUnlinked} newly split` : `, ${c.notComparable}`}`,
      )
      .join('; ')}`
  : undefined;
console.log(`\ncompare: ${[conformance, matching].filter(Boolean).join('; ')}`);
process.exitCode = regressed ? 1 : 0;
