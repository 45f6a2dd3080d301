/**
 * The report's pictures, drawn with Vega-Lite and rendered to SVG on the server (vega View.toSVG),
 * so the HTML report needs no script: outcome per service, latency per operation (p50 and p95),
 * and the match-score distribution of the run's search results.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Verdict } from '../harness/verdict.js';
import type { RunStats } from './stats.js';

const OUTCOME_COLOURS: Record<Verdict, string> = { pass: '#2e7d32', fail: '#c62828', error: '#ef6c00', skip: '#9e9e9e', omit: '#cfd8dc' };

/** Renders a Vega-Lite spec to a standalone SVG string. */
export async function toSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const base = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', config: { font: 'sans-serif', view: { stroke: null } }, background: 'white' } as const;

export function outcomeSpec(checks: Array<{ service: string; verdict: Verdict }>): TopLevelSpec | undefined {
  if (!checks.length) return undefined;
  const counts = new Map<string, number>();
  for (const c of checks) counts.set(`${c.service}|${c.verdict}`, (counts.get(`${c.service}|${c.verdict}`) ?? 0) + 1);
  const values = [...counts.entries()].map(([k, n]) => ({ service: k.split('|')[0], outcome: k.split('|')[1], checks: n }));
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
      color: { field: 'outcome', type: 'nominal', scale: { domain, range: domain.map((d) => OUTCOME_COLOURS[d as Verdict]) } },
      order: { field: 'outcome', sort: 'ascending' },
    },
  };
}

export function latencySpec(stats: RunStats): TopLevelSpec | undefined {
  if (!stats.latency.length) return undefined;
  const values = stats.latency.flatMap((l) => [
    { operation: `${l.service}: ${l.operation}`, percentile: 'p50', ms: l.p50 },
    { operation: `${l.service}: ${l.operation}`, percentile: 'p95', ms: l.p95 },
  ]);
  return {
    ...base,
    title: 'Latency per operation (ms)',
    width: 420,
    height: { step: 12 },
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'operation', type: 'nominal', title: null, sort: null, axis: { labelLimit: 260 } },
      yOffset: { field: 'percentile', type: 'nominal' },
      x: { field: 'ms', type: 'quantitative', title: 'ms' },
      color: { field: 'percentile', type: 'nominal', scale: { domain: ['p50', 'p95'], range: ['#1565c0', '#90caf9'] } },
    },
  };
}

export function scoreSpec(stats: RunStats): TopLevelSpec | undefined {
  if (!stats.matchScores.length) return undefined;
  const values = stats.matchScores.flatMap((s) => s.histogram.map((count, i) => ({ service: s.service, bin: i / 10, binEnd: (i + 1) / 10, results: count })));
  return {
    ...base,
    title: 'Match scores of search results',
    width: 420,
    height: 160,
    data: { values },
    mark: 'bar',
    encoding: {
      x: { field: 'bin', type: 'quantitative', bin: { binned: true, step: 0.1 }, scale: { domain: [0, 1] }, title: 'match score' },
      x2: { field: 'binEnd' },
      y: { field: 'results', type: 'quantitative', title: 'search results', stack: 'zero' },
      color: { field: 'service', type: 'nominal' },
    },
  };
}

export interface Charts {
  outcomes?: string;
  latency?: string;
  matchScores?: string;
}

/** Every chart of a run as SVG (a chart with no data is left out). */
export async function renderCharts(checks: Array<{ service: string; verdict: Verdict }>, stats: RunStats): Promise<Charts> {
  const [outcomes, latency, matchScores] = await Promise.all([outcomeSpec(checks), latencySpec(stats), scoreSpec(stats)].map((s) => (s ? toSvg(s) : Promise.resolve(undefined))));
  return { outcomes, latency, matchScores };
}
