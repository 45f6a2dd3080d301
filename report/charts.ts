/**
 * The report's pictures, drawn with Vega-Lite and rendered to SVG on the server (vega View.toSVG), so the HTML report
 * needs no script: outcome per service, latency per operation (p50 and p95), and the match-score distribution of the
 * run's search results.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Verdict } from '../harness/verdict.js';
import { OUTCOME_COLOURS } from './palette.js';
import type { RunStats } from './stats.js';

/** Renders a Vega-Lite spec to a standalone SVG string. */
export async function toSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const base = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  config: { font: 'sans-serif', view: { stroke: null } },
  background: 'white',
} as const;

export function outcomeSpec(checks: Array<{ service: string; verdict: Verdict }>): TopLevelSpec | undefined {
  if (!checks.length) return undefined;
  const counts = new Map<string, number>();
  for (const c of checks) counts.set(`${c.service}|${c.verdict}`, (counts.get(`${c.service}|${c.verdict}`) ?? 0) + 1);
  const values = [...counts.entries()].map(([k, n]) => ({
    service: k.split('|')[0],
    outcome: k.split('|')[1],
    checks: n,
  }));
  const domain = Object.keys(OUTCOME_COLOURS);
  return {
    ...base,
    title: 'Check outcomes per service',
    width: 420,
    height: { step: 28 },
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'service', type: 'nominal', title: null },
      x: { field: 'checks', type: 'quantitative', title: 'checks', stack: 'zero' },
      color: {
        field: 'outcome',
        type: 'nominal',
        scale: { domain, range: domain.map((d) => OUTCOME_COLOURS[d as Verdict]) },
      },
      order: { field: 'outcome', sort: 'ascending' },
    },
  };
}

/**
 * Latency per operation: p50 (dark dot) to p95 (light dot) on one line per operation, full "service operation" names,
 * on a symmetric-log scale (values span decades: a local reference answers in 1 ms, a remote deployment in hundreds).
 */
export function latencySpec(stats: RunStats): TopLevelSpec | undefined {
  if (!stats.latency.length) return undefined;
  const values = stats.latency.map((l) => ({
    operation: `${l.service} ${l.operation}`,
    p50: l.p50,
    p95: l.p95,
    n: l.n,
  }));
  const y = {
    field: 'operation',
    type: 'nominal' as const,
    title: null,
    sort: null,
    axis: { labelLimit: 400, labelFontSize: 11 },
  };
  const x = { type: 'quantitative' as const, scale: { type: 'symlog' as const }, title: 'ms (symmetric log scale)' };
  return {
    ...base,
    title: 'Latency per operation: p50 to p95 (ms)',
    width: 420,
    height: { step: 16 },
    data: { values },
    layer: [
      {
        mark: { type: 'rule', color: '#90caf9', strokeWidth: 3 },
        encoding: { y, x: { ...x, field: 'p50' }, x2: { field: 'p95' } },
      },
      {
        mark: { type: 'point', filled: true, color: '#1565c0', size: 50 },
        encoding: {
          y,
          x: { ...x, field: 'p50' },
          tooltip: [{ field: 'operation' }, { field: 'p50' }, { field: 'p95' }, { field: 'n', title: 'replies' }],
        },
      },
      { mark: { type: 'point', filled: true, color: '#64b5f6', size: 50 }, encoding: { y, x: { ...x, field: 'p95' } } },
    ],
  };
}

/**
 * Match scores of the run's search results: counts per 0.1 bin and service, on a symmetric-log scale (one bin often
 * holds most).
 */
export function scoreSpec(stats: RunStats): TopLevelSpec | undefined {
  if (!stats.matchScores.length) return undefined;
  const values = stats.matchScores.flatMap((s) =>
    s.histogram.map((count, i) => ({
      service: s.service,
      bin: `${(i / 10).toFixed(1)}-${((i + 1) / 10).toFixed(1)}`,
      results: count,
    })),
  );
  return {
    ...base,
    title: 'Match scores of search results',
    width: 420,
    height: 180,
    data: { values },
    mark: 'bar',
    encoding: {
      x: { field: 'bin', type: 'ordinal', title: 'match score', axis: { labelAngle: -40 } },
      xOffset: { field: 'service', type: 'nominal' },
      y: {
        field: 'results',
        type: 'quantitative',
        title: 'search results (symmetric log scale)',
        scale: { type: 'symlog' },
      },
      color: { field: 'service', type: 'nominal' },
      tooltip: [{ field: 'service' }, { field: 'bin' }, { field: 'results' }],
    },
  };
}

export interface Charts {
  outcomes?: string;
  latency?: string;
  matchScores?: string;
}

/** Every chart of a run as SVG (a chart with no data is left out). */
export async function renderCharts(
  checks: Array<{ service: string; verdict: Verdict }>,
  stats: RunStats,
): Promise<Charts> {
  const [outcomes, latency, matchScores] = await Promise.all(
    [outcomeSpec(checks), latencySpec(stats), scoreSpec(stats)].map((s) => (s ? toSvg(s) : Promise.resolve(undefined))),
  );
  return { outcomes, latency, matchScores };
}
