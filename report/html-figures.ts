/**
 * The run's figures in report.html: the pictures (inline SVG charts), latency per operation, match scores of search
 * results, reads that lagged behind writes, how each service's requests were paced, and the cleanup. Each function
 * returns the page's chunks (report/html.ts joins them with line breaks); a section the run has nothing for is left out
 * or says so.
 */
import type { Charts } from './charts.js';
import { e, textTable } from './html-kit.js';
import {
  LAG_COLUMNS,
  LATENCY_COLUMNS,
  TRANSPORT_COLUMNS,
  lagRows,
  latencyRows,
  scoreRows,
  transportRows,
} from './markdown-figures.js';
import type { Summary } from './summary.js';

/** The "Pictures" section (#charts): each chart drawn (report/charts.ts) as a figure with its caption. */
export function chartsHtml(charts: Charts): string[] {
  const figs = [
    ['chart-outcomes', 'Check outcomes per service', charts.outcomes],
    ['chart-latency', 'Latency per operation, p50 to p95 (symmetric log scale)', charts.latency],
    ['chart-scores', 'Match-score distribution of search results (symmetric log scale)', charts.matchScores],
  ].filter((f) => f[2]);
  return [
    `<section id="charts"><h2>Pictures</h2><div ` +
      `class="charts">${figs.map(([id, cap, svg]) => `<figure id="${id}">${svg}<figcaption class="muted">${e(cap)}</figcaption></figure>`).join('')}</div></section>`,
  ];
}

/**
 * The "Latency per operation" (#latency, folded) and "Match scores" (#scores) sections of Summary.stats; both are
 * always there, saying when nothing was recorded.
 */
export function statsHtml(s: Summary): string[] {
  return [
    `<section id="latency"><h2>Latency per operation</h2>`,
    s.stats.latency.length
      ? `<details><summary>${s.stats.latency.length} operations</summary>` +
        `${textTable(LATENCY_COLUMNS, latencyRows(s))}</details>`
      : '<p>No exchange recorded.</p>',
    `</section><section id="scores"><h2>Match scores of search results</h2>`,
    s.stats.matchScores.length
      ? textTable(['service', 'results', 'min', 'median', 'mean', 'max', 'histogram 0.0-0.1 ... 0.9-1.0'], scoreRows(s))
      : '<p>No search result recorded.</p>',
    '</section>',
  ];
}

/** The "Reads that lagged behind writes" section (#lags, folded) of Summary.lags; none when no read lagged. */
export function lagsHtml(s: Summary): string[] {
  if (!s.lags.length) return [];
  return [
    `<section id="lags"><h2>Reads that lagged behind writes</h2><details><summary>${s.lags.length} reads</summary>` +
      `${textTable(LAG_COLUMNS, lagRows(s))}</details></section>`,
  ];
}

/**
 * The "Transport" section (#transport) of Summary.transport: per service its attempts, throttling, pauses, in-flight
 * bound and rate; none without pacing figures.
 */
export function transportHtml(s: Summary): string[] {
  const rows = transportRows(s);
  if (!rows.length) return [];
  return [
    `<section id="transport"><h2>Transport</h2><p>How each service answered "not now": throttled replies (HTTP 429, or 503 with Retry-After) pause its requests; repeated throttling lowers its in-flight bound and rate, which recover after a quiet spell.</p>${textTable(TRANSPORT_COLUMNS, rows)}</section>`,
  ];
}

/**
 * The "Cleanup" section (#cleanup) of Summary.cleanup: what the teardown removed and each removal that failed; none
 * without a cleanup.
 */
export function cleanupHtml(s: Summary): string[] {
  if (!s.cleanup) return [];
  const c = s.cleanup;
  const out = [
    `<section id="cleanup"><h2>Cleanup</h2><p>Sources: ${c.sources.deleted} hard-deleted, ` +
      `${c.sources.alreadyGone} already gone, of ${c.sources.attempted}. Relationships: ${c.relationships.deleted} ` +
      `deleted, ${c.relationships.alreadyGone} already gone, of ${c.relationships.attempted}. Failures: ` +
      `${c.failures.length}.</p>`,
  ];
  if (c.failures.length)
    out.push(`<ul>${c.failures.map((f) => `<li>${e(f.service)} ${e(f.what)}: ${e(f.reason)}</li>`).join('')}</ul>`);
  out.push('</section>');
  return out;
}
