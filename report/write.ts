/**
 * Writes every report of a run folder: summary.json (versioned schema, reports/README.md),
 * summary.md, report.html (with SVG charts), junit.xml; updates the pending-check history of
 * the known-failures file and points reports/latest at the folder. Reads results.json's results
 * as given and selection.json (what the run selected) from the folder.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CleanupResult } from '../harness/cleanup.js';
import { SERVICES } from '../specs/services.js';
import { writeAllureRunInfo } from './allure-run.js';
import { reportHtml } from './html.js';
import { writeJunit } from './junit.js';
import { type KnownFailures, loadKnownFailures, recordPasses } from './known-failures.js';
import { pointLatest } from './latest.js';
import { summaryMarkdown } from './markdown.js';
import type { CheckResult } from './results.js';
import { computeStats, readExchanges } from './stats.js';
import { type RunDescription, type Summary, buildSummary, readSelection } from './summary.js';

/** Milliseconds each reporting step took (printed by bench/report-overhead.ts). */
export interface ReportTimings {
  stats: number;
  summary: number;
  markdown: number;
  junit: number;
  charts: number;
  diagrams: number;
  html: number;
  total: number;
}

/** Writes the report files of an already built summary. */
export async function renderReports(folder: string, s: Summary): Promise<Omit<ReportTimings, 'stats' | 'summary'>> {
  const t0 = performance.now();
  writeFileSync(join(folder, 'summary.md'), summaryMarkdown(s, folder));
  const t1 = performance.now();
  writeJunit(s, join(folder, 'junit.xml'), folder);
  const t2 = performance.now();
  // Vega and Graphviz are loaded here, when reports are written, never in a test worker (they cost startup time).
  const { renderCharts } = await import('./charts.js');
  const charts = await renderCharts(s.checks, s.stats);
  const t3 = performance.now();
  const { renderStateDiagrams } = await import('./state-diagram.js');
  const drawn = s.run.targets.filter((t) => t.status !== 'not configured' && s.coverage[t.service]?.scope !== 'none').map((t) => SERVICES[t.service]);
  const diagrams = await renderStateDiagrams(drawn.map((spec) => ({ table: spec.states, requirements: spec.requirements })), s.checks);
  const t4 = performance.now();
  writeFileSync(join(folder, 'report.html'), reportHtml(s, folder, charts, diagrams));
  writeAllureRunInfo(folder, s);
  const t5 = performance.now();
  return { markdown: t1 - t0, junit: t2 - t1, charts: t3 - t2, diagrams: t4 - t3, html: t5 - t4, total: t5 - t0 };
}

/**
 * Builds the summary of a finished run and writes every report.
 * @param known the known-failures list; read from CONFORMANCE_KNOWN_FAILURES when left undefined
 */
export async function writeRunReports(
  folder: string,
  reportDir: string | undefined,
  run: RunDescription,
  results: CheckResult[],
  cleanup: CleanupResult | undefined,
  options: { known?: KnownFailures | null; finishedAt?: Date } = {},
): Promise<{ summary: Summary; timings: ReportTimings }> {
  const t0 = performance.now();
  const stats = computeStats(readExchanges(folder));
  const t1 = performance.now();
  const known = options.known === undefined ? loadKnownFailures() : (options.known ?? undefined);
  const summary = buildSummary(run, results, cleanup, { stats, known, finishedAt: options.finishedAt, selection: readSelection(folder) });
  writeFileSync(join(folder, 'summary.json'), JSON.stringify(summary, null, 2));
  const t2 = performance.now();
  const rest = await renderReports(folder, summary);
  if (known) recordPasses(known, summary.gate, run.runId);
  if (reportDir) pointLatest(reportDir, folder);
  return { summary, timings: { stats: t1 - t0, summary: t2 - t1, ...rest, total: performance.now() - t0 } };
}
