/**
 * The match-quality report of one service: results.json (everything, including the link ID of every record so a later
 * run can be compared with it), report.md and report.html (vega SVG charts, text escaped with `he`). Written to
 * reports/<run>/match-quality/<service>/. With a comparison, also comparison.json and changed-pairs.csv (the record
 * pairs newly merged and newly split, with both records as posted: report/pair-decisions.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import he from 'he';
import type { Interval } from './bootstrap.js';
import type { Analysis } from './analysis.js';
import type { Comparison } from './compare.js';
import { matchVerdictText } from '../report/match-verdict.js';
import type { ResultsFile } from './results.js';
import {
  type DecisionRecords,
  decisionCounts,
  decisionSections,
  decisionsCsv,
  decisionsMarkdown,
  readPostedRecords,
} from '../report/pair-decisions.js';

/** The changed pairs' CSV file in a compared run's folder. */
export const CHANGED_PAIRS_CSV = 'changed-pairs.csv';

const pct = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : `${(x * 100).toFixed(2)}%`;
const ci = (m: Interval | undefined) => (m ? `${pct(m.value)} [${pct(m.low)}, ${pct(m.high)}]` : '–');

const HEADLINE_ROWS: Array<[string, string]> = [
  ['pairwise.precision', 'Pairwise precision'],
  ['pairwise.recall', 'Pairwise recall'],
  ['pairwise.f1', 'Pairwise F1'],
  ['pairwise.f05', 'Pairwise F0.5'],
  ['pairwise.f2', 'Pairwise F2'],
  ['pairwise.fStar', 'Pairwise F*'],
  ['b3.precision', 'B-cubed precision'],
  ['b3.recall', 'B-cubed recall'],
  ['b3.f', 'B-cubed F'],
  ['cluster.precision', 'Exact-cluster precision'],
  ['cluster.recall', 'Exact-cluster recall'],
  ['residualDuplicateRate', 'Residual duplicate rate (merges needed / records)'],
  ['ahimaResidualRate', 'AHIMA-style residual rate (records of split entities / records)'],
  ['overlayRate', 'Overlay rate (clusters holding ≥ 2 entities / clusters)'],
  ['overlayRecordRate', 'Overlay rate (records in such clusters / records)'],
];

const UNMAPPABLE =
  'No search result could be mapped to the posted records: the results named neither their sources ' +
  '(identityGroupedBySource) nor a link ID the records were read back with, so the search-score figures are ' +
  'empty and no chart is drawn.';

/** Rows of the tables, shared by Markdown and HTML. */
function tables(f: ResultsFile) {
  const a = f.analysis;
  const headline = HEADLINE_ROWS.map(([k, label]) => [label, ci(a.metrics[k])]);
  headline.push(
    ['Merges needed / splits needed', `${a.mergesNeeded} / ${a.splitsNeeded}`],
    ['Adjusted Rand index', a.ari.toFixed(4)],
  );
  const s = a.search;
  // Intervals: the same bootstrap over entities as the clustering metrics (a query's pairs come with its entity).
  const m = (k: string, plain: string) => (a.metrics[k] ? ci(a.metrics[k]) : plain);
  const threshold = a.metrics['search.bestF1Threshold'];
  const search = [
    ['Queries (sampled records searched before posting; one per sampled entity)', String(s.queries)],
    ['True pairs of the queries / returned candidate pairs', `${s.truePairs} / ${s.returnedPairs}`],
    ['Candidate recall (true pairs returned at any score)', m('search.candidateRecall', pct(s.candidateRecall))],
    ['Average precision', m('search.averagePrecision', pct(s.averagePrecision))],
    [
      'Best F1',
      s.bestF1
        ? `${m('search.bestF1', pct(s.bestF1.f1))} (P ${pct(s.bestF1.precision)}, R ${pct(s.bestF1.recall)})`
        : '–',
    ],
    [
      'Best-F1 threshold [95% interval]',
      s.bestF1
        ? threshold
          ? `${threshold.value} [${threshold.low.toFixed(4)}, ${threshold.high.toFixed(4)}]`
          : String(s.bestF1.threshold)
        : '–',
    ],
    ['Recall at precision ≥ 0.99', m('search.recallAtPrecision099', pct(s.recallAtPrecision099))],
    ['Recall at precision ≥ 0.999', m('search.recallAtPrecision0999', pct(s.recallAtPrecision0999))],
  ];
  const breakdown = (prefix: string) =>
    Object.entries(a.metrics)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, m]) => [k.slice(prefix.length), ci(m), String(a.breakdownSizes[k] ?? 0)] as [string, string, string])
      .sort((x, y) => x[0].localeCompare(y[0]));
  const z = a.sampleSizes;
  const sizes = [
    ['Entities / records', `${z.entities} / ${z.records}`],
    ['True pairs / predicted pairs', `${z.truePairs} / ${z.predictedPairs}`],
    ['Predicted clusters', String(z.predictedClusters)],
    ['Bootstrap resamples (entities)', String(z.bootstrapResamples)],
    ['Failed posts / reads / searches', `${f.failures.post} / ${f.failures.read} / ${f.failures.search}`],
    [
      'Time: post / search / read / clean-up (s)',
      [f.timings.postMs, f.timings.searchMs, f.timings.readMs, f.timings.cleanupMs]
        .map((x) => (x / 1000).toFixed(1))
        .join(' / '),
    ],
    [
      'Clean-up: deleted / already gone / failures',
      `${f.cleanup.deleted} / ${f.cleanup.alreadyGone} / ${f.cleanup.failures}`,
    ],
  ];
  // Results that named no known source and no known link ID cannot be scored against the truth: say so instead of
  // drawing empty charts.
  const r = f.searchResults;
  const unmappable = r && r.returned > 0 && r.unmapped === r.returned;
  if (r) search.push(['Search results returned / not mappable to records', `${r.returned} / ${r.unmapped}`]);
  return {
    headline,
    search,
    unmappable,
    operators: breakdown('recall.operator.'),
    tiers: breakdown('recall.tier.'),
    hardNegatives: breakdown('falseLink.'),
    sizes,
  };
}

/** The data a run measured: a generated preset, or a truth set (its key). */
const dataOf = (f: ResultsFile) =>
  f.options.truthSet ? `truth set ${f.options.truthSet.key}` : `preset ${f.options.preset}`;
const runLine = (f: ResultsFile) =>
  `Run ${f.runId}; ${f.options.size} ${f.options.truthSet ? 'clusters' : 'entities'}, seed ${f.options.seed}; ` +
  `target ${f.target.embedded ? 'embedded reference' : f.target.baseUrl + f.target.servicePath}. Intervals: 95% ` +
  `bootstrap over ${f.options.truthSet ? "the truth set's clusters" : 'entities'}.`;

const mdTable = (head: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );

export function markdown(f: ResultsFile, comparison?: Comparison, records?: DecisionRecords): string {
  const t = tables(f);
  const o = f.options;
  return [
    `# Match quality: ${o.service}, ${dataOf(f)}`,
    '',
    runLine(f),
    '',
    '## Clustering (link IDs read back by nativeIdQuery)',
    mdTable(['metric', 'value [95% interval]'], t.headline),
    '',
    '## Search scores (demographicsSearch)',
    ...(t.unmappable ? ['', UNMAPPABLE, ''] : []),
    mdTable(['figure', 'value'], t.search),
    '',
    '## Recall by difficulty tier',
    mdTable(['tier', 'recall [95% interval]', 'true pairs'], t.tiers),
    '',
    '## Recall by corruption operator (a pair counts under every operator applied to either record)',
    mdTable(['operator', 'recall [95% interval]', 'true pairs'], t.operators),
    '',
    '## False-link rate by hard-negative kind',
    mdTable(['kind', 'false-link rate [95% interval]', 'look-alike pairs'], t.hardNegatives),
    '',
    '## Sample sizes and run',
    mdTable(['', ''], t.sizes),
    ...(comparison ? ['', comparisonMarkdown(comparison, records)] : []),
    '',
  ].join('\n');
}

const COMPARISON_HEAD = ['metric', 'baseline', 'this run', 'difference [95%]', 'flag'];
/** One row per metric: both runs' values with intervals, the paired difference and its flag. */
const comparisonRows = (c: Comparison) =>
  c.rows.map((r) => [
    r.metric,
    ci(r.a),
    ci(r.b),
    `${(r.diff.value * 100).toFixed(2)} pp [${(r.diff.low * 100).toFixed(2)}, ${(r.diff.high * 100).toFixed(2)}]`,
    r.regression ? 'REGRESSION' : r.improvement ? 'better' : '',
  ]);

export function comparisonMarkdown(c: Comparison, records?: DecisionRecords): string {
  return [
    `## Comparison with baseline ${c.baselineRunId}`,
    '',
    `Verdict: **${matchVerdictText(c)}**. A metric regresses when it is worse by more than max(0.5 pp, the ` +
      `baseline's interval half-width) and the interval of the paired difference excludes 0; it is better when it ` +
      `improves by as much.`,
    '',
    mdTable(COMPARISON_HEAD, comparisonRows(c)),
    '',
    `True pairs newly linked: ${c.flips.truePairsNewlyLinked}; newly unlinked: ` +
      `${c.flips.truePairsNewlyUnlinked}; non-pairs newly linked: ${c.flips.nonPairsNewlyLinked}; newly unlinked: ` +
      `${c.flips.nonPairsNewlyUnlinked}${c.flips.truncated ? ' (non-pair counts truncated)' : ''}.`,
    ...(records && c.decisions ? ['', decisionsMarkdown(c.decisions, records, 20, CHANGED_PAIRS_CSV)] : []),
  ].join('\n');
}

const esc = (s: unknown) => he.escape(String(s));
const cells = (row: string[], tag: 'th' | 'td') => row.map((c) => `<${tag}>${esc(c)}</${tag}>`).join('');
const htmlTable = (head: string[], rows: string[][], cls?: string) =>
  `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${cells(head, 'th')}</tr></thead>` +
  `<tbody>${rows.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('')}</tbody></table>`;

/** The changed pairs as HTML: the counts, then each kind's pairs with both records. */
function decisionsHtml(c: Comparison, records: DecisionRecords): string {
  const counts = decisionCounts(c.decisions);
  return `<h3>Matching decisions that changed</h3>${htmlTable(counts.head, counts.rows)}${decisionSections(
    c.decisions,
    records,
    20,
    CHANGED_PAIRS_CSV,
  )
    .map((s) => `<h4>${esc(s.title)}</h4>${htmlTable(s.head, s.rows, 'pairs')}${s.more ? `<p>${esc(s.more)}</p>` : ''}`)
    .join('')}`;
}

// A changed pair's identities are JSON without spaces: their cells (from the fifth column of a pairs table on) may
// break anywhere, so the table is never wider than the page, and the other columns keep their words whole.
const STYLE =
  'body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:.5em 0 ' +
  '1.5em;max-width:100%}.pairs td:nth-child(n+5){overflow-wrap:anywhere}td,th{border:1px solid #ccc;padding:3px ' +
  '8px;text-align:left}figure{display:inline-block;margin:1em}figcaption{font-weight:600}' +
  '.bad{color:#b00;font-weight:700}.good{color:#070;font-weight:700}';

/** The comparison as HTML: verdict, paired differences, pair flips and, with the records, the changed pairs. */
function comparisonHtml(comparison: Comparison, records?: DecisionRecords): string {
  const f = comparison.flips;
  return (
    `<h2>Comparison with baseline ${esc(comparison.baselineRunId)}</h2>` +
    `<p class="${comparison.regressions.length ? 'bad' : 'good'}">${esc(matchVerdictText(comparison))}</p>` +
    htmlTable(COMPARISON_HEAD, comparisonRows(comparison)) +
    `<p>True pairs newly linked ${f.truePairsNewlyLinked}, newly unlinked ${f.truePairsNewlyUnlinked}; ` +
    `non-pairs newly linked ${f.nonPairsNewlyLinked}, newly unlinked ${f.nonPairsNewlyUnlinked}.</p>` +
    (records && comparison.decisions ? decisionsHtml(comparison, records) : '')
  );
}

export async function html(
  f: ResultsFile,
  comparison?: Comparison,
  baseline?: Analysis,
  records?: DecisionRecords,
): Promise<string> {
  const t = tables(f);
  const o = f.options;
  // Vega and Vega-Lite (about 30 MB) are loaded only now: a run holds them only while it draws.
  const { chartSpecs, renderSvg } = await import('./charts.js');
  const charts = chartSpecs(f.analysis, baseline);
  const svgs: string[] = [];
  for (const { title, spec } of Object.values(charts)) {
    let svg: string;
    try {
      svg = await renderSvg(spec);
    } catch (e) {
      svg = `<p>chart not rendered: ${esc((e as Error).message)}</p>`;
    }
    svgs.push(`<figure><figcaption>${esc(title)}</figcaption>${svg}</figure>`);
  }
  const cmp = comparison ? comparisonHtml(comparison, records) : '';
  const heading = esc(`Match quality: ${o.service} (${dataOf(f)})`);
  const unmappable = t.unmappable ? `<p class="bad">${esc(UNMAPPABLE)}</p>` : '';
  const hardNegatives = htmlTable(['kind', 'false-link rate [95% interval]', 'look-alike pairs'], t.hardNegatives);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${heading}</title>
<style>${STYLE}</style></head><body>
<h1>${esc(`Match quality: ${o.service}, ${dataOf(f)}`)}</h1>
<p>${esc(runLine(f))}</p>
${cmp}
<h2>Clustering</h2>${htmlTable(['metric', 'value [95% interval]'], t.headline)}
<h2>Search scores</h2>${unmappable}${htmlTable(['figure', 'value'], t.search)}
${t.unmappable ? '' : svgs.join('\n')}
<h2>Recall by difficulty tier</h2>${htmlTable(['tier', 'recall [95% interval]', 'true pairs'], t.tiers)}
<h2>Recall by corruption operator</h2>${htmlTable(['operator', 'recall [95% interval]', 'true pairs'], t.operators)}
<h2>False-link rate by hard-negative kind</h2>${hardNegatives}
<h2>Largest predicted clusters</h2>${htmlTable(
    ['records', 'entities'],
    f.analysis.largestClusters.map((c) => [String(c.size), String(c.entities)]),
  )}
<h2>Sample sizes and run</h2>${htmlTable(['', ''], t.sizes)}
</body></html>`;
}

/**
 * What the decision tables show of the compared records: IDs, ground truth, link IDs before (`before`) and after (this
 * run), and identities as posted (records.jsonl.gz in `folder`).
 */
function decisionRecords(folder: string, f: ResultsFile, before: Array<string | null>): DecisionRecords | undefined {
  const posted = readPostedRecords(folder);
  if (!posted || posted.length !== f.records.length) return undefined;
  return {
    ids: f.records,
    truth: posted.map((r) => r.cluster),
    before,
    after: f.linkIds,
    identity: (i) => posted[i]!.identity,
  };
}

/**
 * Writes results.json, report.md and report.html into `folder`; with a comparison against `baseline`, comparison.json
 * and changed-pairs.csv too.
 */
export async function writeReport(
  folder: string,
  f: ResultsFile,
  comparison?: Comparison,
  baseline?: ResultsFile,
): Promise<void> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'results.json'), JSON.stringify(f));
  const records = comparison && baseline ? decisionRecords(folder, f, baseline.linkIds) : undefined;
  if (comparison) writeFileSync(join(folder, 'comparison.json'), JSON.stringify(comparison, null, 2));
  if (comparison && records)
    writeFileSync(join(folder, CHANGED_PAIRS_CSV), decisionsCsv(comparison.decisions, records));
  writeFileSync(join(folder, 'report.md'), markdown(f, comparison, records));
  writeFileSync(join(folder, 'report.html'), await html(f, comparison, baseline?.analysis, records));
}

/**
 * Writes the comparison of two clusterings given as keys (no deployment, so no run results): comparison.json,
 * changed-pairs.csv, report.md and report.html.
 */
export async function writeKeyComparison(
  folder: string,
  service: string,
  c: Comparison,
  records: DecisionRecords,
): Promise<void> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'comparison.json'), JSON.stringify(c, null, 2));
  writeFileSync(join(folder, CHANGED_PAIRS_CSV), decisionsCsv(c.decisions, records));
  const title = `Match quality: ${service}, ${c.runId} compared with ${c.baselineRunId}`;
  writeFileSync(
    join(folder, 'report.md'),
    `# ${title}\n\nIntervals: 95% paired bootstrap over the ground truth's ` +
      `clusters.\n\n${comparisonMarkdown(c, records)}\n`,
  );
  writeFileSync(
    join(folder, 'report.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style>` +
      `</head><body><h1>${esc(title)}</h1>${comparisonHtml(c, records)}</body></html>`,
  );
}
