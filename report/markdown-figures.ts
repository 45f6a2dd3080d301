/**
 * The run's figures in summary.md: how each service's requests were paced, latency per operation, match scores of
 * search results, reads that lagged behind writes, and the cleanup. Each section is left out when the run has nothing
 * for it.
 */
import { mdCell as cell, mdTable } from './md-table.js';
import type { Summary } from './summary.js';

/** The columns of the transport table, in the Markdown and the HTML report alike. */
export const TRANSPORT_COLUMNS = [
  'service',
  'attempts',
  'failed transiently (throttled)',
  'paused',
  'in flight: ceiling / lowest / final',
  'rate: lowest / final',
];

/** Each service's pacing figures as a TRANSPORT_COLUMNS row of plain text (Summary.transport). */
export const transportRows = (s: Summary) =>
  Object.entries(s.transport ?? {}).map(([service, f]) => [
    service,
    String(f.attempts),
    `${f.transientFailures} (${f.throttled})`,
    `${(f.pausedMs / 1000).toFixed(1)} s`,
    `${f.bound.ceiling} / ${f.bound.lowest} / ${f.bound.final}`,
    f.rate.lowest === undefined
      ? 'no limit'
      : `${f.rate.lowest}/s / ${f.rate.final === undefined ? 'no limit' : `${f.rate.final}/s`}`,
  ]);
export const LATENCY_COLUMNS = ['service', 'operation', 'replies', 'p50 (ms)', 'p95 (ms)', 'max (ms)'];
/** Latency per operation as LATENCY_COLUMNS rows (Summary.stats.latency). */
export const latencyRows = (s: Summary) =>
  s.stats.latency.map((l) => [l.service, l.operation, l.n, l.p50, l.p95, l.max]);
/** Match scores per service as rows: service, results, min, median, mean, max, histogram (Summary.stats). */
export const scoreRows = (s: Summary) =>
  s.stats.matchScores.map((m) => [m.service, m.n, m.min, m.p50, m.mean, m.max, m.histogram.join(' ')]);
export const LAG_COLUMNS = ['check', 'read', 'lag (ms)'];
/** Reads that lagged as LAG_COLUMNS rows (Summary.lags). */
export const lagRows = (s: Summary) => s.lags.map((l) => [l.checkId, l.what, l.ms]);

/** The "Transport" section (Summary.transport) as lines; none when no service's pacing was recorded. */
export function transportMarkdown(s: Summary): string[] {
  const rows = transportRows(s);
  if (!rows.length) return [];
  return [
    '',
    '## Transport',
    '',
    'How each service answered "not now": throttled replies pause its requests; repeated throttling lowers its ' +
      'in-flight bound and rate.',
    '',
    mdTable(TRANSPORT_COLUMNS, rows),
  ];
}

/**
 * Latency per operation, match scores and lagging reads (Summary.stats, Summary.lags) as lines, each section only when
 * it has rows. The latency heading has no blank line before it: the requirements section above ends with one.
 */
export function statsMarkdown(s: Summary): string[] {
  const L: string[] = [];
  if (s.stats.latency.length) L.push('## Latency per operation', '', mdTable(LATENCY_COLUMNS, latencyRows(s)));
  if (s.stats.matchScores.length)
    L.push(
      '',
      '## Match scores of search results',
      '',
      mdTable(['service', 'results', 'min', 'median', 'mean', 'max', 'histogram (0.0-0.1 ... 0.9-1.0)'], scoreRows(s)),
    );
  if (s.lags.length) L.push('', '## Reads that lagged behind writes', '', mdTable(LAG_COLUMNS, lagRows(s)));
  return L;
}

/**
 * The "Cleanup" section (Summary.cleanup) as lines: what the teardown removed and each removal that failed; none
 * without a cleanup.
 */
export function cleanupMarkdown(s: Summary): string[] {
  if (!s.cleanup) return [];
  const c = s.cleanup;
  return [
    '',
    '## Cleanup',
    '',
    `Sources: ${c.sources.deleted} hard-deleted, ${c.sources.alreadyGone} already gone, of ` +
      `${c.sources.attempted}. Relationships: ${c.relationships.deleted} deleted, ${c.relationships.alreadyGone} ` +
      `already gone, of ${c.relationships.attempted}. Failures: ${c.failures.length}.`,
    ...c.failures.map((f) => `- ${f.service} ${f.what}: ${cell(f.reason)}`),
  ];
}
