/**
 * Writes every report of a run folder: summary.json (versioned schema, reports/README.md), summary.md, report.html
 * (with SVG charts), junit.xml; updates the pending-check history of the known-failures file and points reports/latest
 * at the folder. Reads results.json's results as given and selection.json (what the run selected) from the folder. A
 * run in which no check ran gets summary.json alone (for the command's exit code) and does not move reports/latest.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CleanupResult } from '../harness/cleanup.js';
import type { PacingFigures } from '../harness/pacing.js';
import { SERVICES } from '../specs/services.js';
import { type Figures, REPORT_FORMATS } from './formats.js';
import { type KnownFailures, loadKnownFailures, recordPasses } from './known-failures.js';
import { pointLatest } from './latest.js';
import { anyCheckRan } from './outcome.js';
import type { CheckResult } from './results.js';
import { computeStats, readExchanges } from './stats.js';
import { type Interruption, type RunDescription, type Summary, buildSummary, readSelection } from './summary.js';

/**
 * Milliseconds each reporting step took (printed by bench/report-overhead.ts): reading the exchanges and computing
 * stats, building and writing summary.json, drawing the charts and state diagrams, each format's writer
 * (report/formats.ts, by name), and the total.
 */
export interface ReportTimings {
  stats: number;
  summary: number;
  charts: number;
  diagrams: number;
  formats: Record<string, number>;
  total: number;
}

/** The charts and state diagrams of a run's reports, with the time they took. */
export type Drawn = Figures & { timings: Pick<ReportTimings, 'charts' | 'diagrams'> };

/** The SVG charts and state diagrams of a summary (they use its checks and stats, never its cleanup). */
async function drawFigures(s: Summary): Promise<Drawn> {
  const t0 = performance.now();
  // Vega and Graphviz are loaded here, when reports are written, never in a test worker (they cost startup time).
  const { renderCharts } = await import('./charts.js');
  const charts = await renderCharts(s.checks, s.stats);
  const t1 = performance.now();
  const { renderStateDiagrams } = await import('./state-diagram.js');
  const drawn = s.run.targets
    .filter((t) => t.status !== 'not configured' && s.coverage[t.service]?.scope !== 'none')
    .map((t) => SERVICES[t.service]);
  const diagrams = await renderStateDiagrams(
    drawn.map((spec) => ({ table: spec.states, requirements: spec.requirements })),
    s.checks,
  );
  return { charts, diagrams, timings: { charts: t1 - t0, diagrams: performance.now() - t1 } };
}

/**
 * Writes the report files of an already built summary (with its figures, when drawn already): every format of
 * REPORT_FORMATS that has a writer.
 */
export async function renderReports(
  folder: string,
  s: Summary,
  figures?: Promise<Drawn>,
): Promise<Omit<ReportTimings, 'stats' | 'summary'>> {
  const t0 = performance.now();
  const drawn = await (figures ?? drawFigures(s));
  const formats: Record<string, number> = {};
  for (const f of REPORT_FORMATS) {
    if (!f.write) continue;
    const started = performance.now();
    f.write(folder, s, drawn);
    formats[f.name] = performance.now() - started;
  }
  return { ...drawn.timings, formats, total: performance.now() - t0 };
}

/**
 * Builds the summary of a finished run and writes every report.
 * @param cleanup the teardown's result, or its promise: the figures (which do not depend on it) are drawn while it is
 *   still under way (against a distant deployment the teardown takes seconds)
 * @param known the known-failures list; read from CONFORMANCE_KNOWN_FAILURES when left undefined
 */
export async function writeRunReports(
  folder: string,
  reportDir: string | undefined,
  run: RunDescription,
  results: CheckResult[],
  cleanup: CleanupResult | undefined | Promise<CleanupResult | undefined>,
  options: {
    known?: KnownFailures | null;
    finishedAt?: Date;
    /** How each service's requests were paced (harness/pacing.ts), or its promise (read once the removals are done). */
    transport?: Record<string, PacingFigures> | undefined | Promise<Record<string, PacingFigures> | undefined>;
    /** The interrupt that stopped the run, if any; asked once the removals are done (it may come during them). */
    interrupted?: () => Interruption | undefined;
    /**
     * The charts and state diagrams of an earlier call for the same checks (they do not depend on the cleanup): the
     * reports written again after an interrupted run's removals (run/vitest/teardown.ts) are not drawn twice.
     */
    figures?: Promise<Drawn>;
  } = {},
): Promise<{ summary: Summary; timings: ReportTimings; figures: Promise<Drawn> }> {
  const t0 = performance.now();
  const stats = computeStats(readExchanges(folder));
  const t1 = performance.now();
  const known = options.known === undefined ? loadKnownFailures() : (options.known ?? undefined);
  const build = (c: CleanupResult | undefined, transport?: Record<string, PacingFigures>, interrupted?: Interruption) =>
    buildSummary(run, results, c, {
      stats,
      known,
      finishedAt: options.finishedAt,
      selection: readSelection(folder),
      ...(transport ? { transport } : {}),
      ...(interrupted ? { interrupted } : {}),
    });
  const figures = options.figures ?? drawFigures(build(undefined));
  figures.catch(() => {}); // awaited below; a cleanup that throws first must not leave it unhandled
  const done = await cleanup;
  const summary = build(done, await Promise.resolve(options.transport).catch(() => undefined), options.interrupted?.());
  writeFileSync(join(folder, 'summary.json'), JSON.stringify(summary, null, 2));
  const t2 = performance.now();
  // A run in which no check ran judged nothing: no report, and reports/latest keeps pointing at the last run that did
  // (the command removes the run folder: run/cli/conformance-finish.ts).
  if (!anyCheckRan(summary)) {
    const none = { charts: 0, diagrams: 0, formats: {} };
    return { summary, timings: { stats: t1 - t0, summary: t2 - t1, ...none, total: performance.now() - t0 }, figures };
  }
  const rest = await renderReports(folder, summary, figures);
  if (known) recordPasses(known, summary.gate, run.runId);
  if (reportDir) pointLatest(reportDir, folder);
  return { summary, timings: { stats: t1 - t0, summary: t2 - t1, ...rest, total: performance.now() - t0 }, figures };
}
