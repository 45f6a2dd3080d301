/**
 * Charts of the match-quality report as Vega-Lite specs, rendered to static SVG on the server (vega View with renderer
 * 'none', toSVG), as Splink does (linkage/README.md, "Charts").
 */
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { Analysis } from './analysis.js';

type Spec = vl.TopLevelSpec;

export async function renderSvg(spec: Spec): Promise<string> {
  const silent = {
    level: () => silent,
    info: () => silent,
    debug: () => silent,
    warn: () => silent,
    error: () => silent,
  } as unknown as NonNullable<Parameters<typeof vl.compile>[1]>['logger'];
  const compiled = vl.compile(spec, { logger: silent }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const base = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', width: 420, height: 260 } as const;

/** Keeps at most `n` points of a curve (evenly spaced), always the first and last. */
const thin = <T>(points: T[], n = 300) =>
  points.length <= n
    ? points
    : points.filter((_, i) => i % Math.ceil(points.length / n) === 0 || i === points.length - 1);

/** The rows each chart draws: curves, recall by operator and tier, false-link rate by kind, histograms. */
function chartData(a: Analysis, previous?: Analysis) {
  const interval = (v: { low: number; high: number }, pairs: number | undefined) => ({
    low: v.low,
    high: v.high,
    pairs: pairs ?? 0,
  });
  const byPrefix = (prefix: string, name: string, value: 'recall' | 'rate') =>
    Object.entries(a.metrics)
      .filter(([k, v]) => k.startsWith(prefix) && Number.isFinite(v.value))
      .map(([k, v]) => ({ [name]: k.slice(prefix.length), [value]: v.value, ...interval(v, a.breakdownSizes[k]) }));
  return {
    curve: thin(a.search.curve).map((p) => ({ ...p, run: 'this run' })),
    prevCurve: previous ? thin(previous.search.curve).map((p) => ({ ...p, run: 'baseline' })) : [],
    operators: byPrefix('recall.operator.', 'operator', 'recall'),
    tiers: ['easy', 'medium', 'hard'].flatMap((tier) => {
      const m = a.metrics[`recall.tier.${tier}`];
      return m && Number.isFinite(m.value)
        ? [{ tier, recall: m.value, ...interval(m, a.breakdownSizes[`recall.tier.${tier}`]) }]
        : [];
    }),
    hardNegatives: byPrefix('falseLink.', 'kind', 'rate'),
    hist: a.search.histogram
      .flatMap((b) => [
        { from: b.from, to: b.to, truth: 'true match', count: b.match },
        { from: b.from, to: b.to, truth: 'non-match', count: b.nonMatch },
      ])
      .filter((b) => b.count > 0),
    sizes: a.clusterSizes
      .flatMap((s) => [
        { size: s.size, clustering: 'predicted', clusters: s.predicted },
        { size: s.size, clustering: 'true', clusters: s.true },
      ])
      .filter((s) => s.clusters > 0),
  };
}

/** A bar per row of `values` along `y`, its 95% interval (`low` to `high`) drawn as a black rule over it. */
const intervalBars = (
  values: object[],
  height: number,
  y: { field: string; sort: string | string[] },
  bar: { mark: 'bar' | { type: 'bar'; color: string }; encoding: object },
): Spec => ({
  ...base,
  height,
  data: { values },
  layer: [
    { mark: bar.mark, encoding: { y: { ...y, type: 'nominal' }, ...bar.encoding } },
    {
      mark: { type: 'rule', color: 'black' },
      encoding: {
        y: { ...y, type: 'nominal' },
        x: { field: 'low', type: 'quantitative' },
        x2: { field: 'high' },
      },
    },
  ],
});

/** A quantitative axis from 0 to 1. */
const unit = () => ({ type: 'quantitative' as const, scale: { domain: [0, 1] } });

export function chartSpecs(a: Analysis, previous?: Analysis): Record<string, { title: string; spec: Spec }> {
  return chartsOver(chartData(a, previous));
}

/** The report's charts, one entry a chart, over the rows chartData gives. */
function chartsOver(r: ReturnType<typeof chartData>): Record<string, { title: string; spec: Spec }> {
  return {
    pr: {
      title: 'Precision-recall curve over search-score thresholds',
      spec: {
        ...base,
        data: { values: [...r.prevCurve, ...r.curve] },
        mark: { type: 'line', point: false },
        encoding: {
          x: { field: 'recall', ...unit() },
          y: { field: 'precision', ...unit() },
          color: {
            field: 'run',
            type: 'nominal',
            scale: { domain: ['this run', 'baseline'], range: ['#1f77b4', '#aaaaaa'] },
          },
          order: { field: 'threshold', type: 'quantitative', sort: 'descending' },
        },
      },
    },
    threshold: {
      title: 'Precision, recall, F1 and F* by threshold',
      spec: {
        ...base,
        data: { values: r.curve },
        transform: [{ fold: ['precision', 'recall', 'f1', 'fStar'], as: ['metric', 'value'] }],
        mark: 'line',
        encoding: {
          x: { field: 'threshold', ...unit() },
          y: { field: 'value', ...unit() },
          color: { field: 'metric', type: 'nominal' },
        },
      },
    },
    histogram: {
      title: 'Search scores by true match / non-match (log count)',
      spec: {
        ...base,
        data: { values: r.hist },
        mark: { type: 'bar', opacity: 0.7 },
        encoding: {
          x: { field: 'from', type: 'quantitative', bin: { binned: true, step: 0.05 }, title: 'match score' },
          x2: { field: 'to' },
          y: { field: 'count', type: 'quantitative', scale: { type: 'symlog' }, stack: null },
          color: {
            field: 'truth',
            type: 'nominal',
            scale: { domain: ['true match', 'non-match'], range: ['#2ca02c', '#d62728'] },
          },
        },
      },
    },
    operators: {
      title: 'Recall of true pairs by corruption operator (95% interval)',
      spec: intervalBars(
        r.operators,
        Math.max(120, r.operators.length * 14),
        { field: 'operator', sort: '-x' },
        {
          mark: 'bar',
          encoding: { x: { field: 'recall', ...unit() }, tooltip: [{ field: 'pairs' }] },
        },
      ),
    },
    tiers: {
      title: 'Recall by difficulty tier (95% interval)',
      spec: intervalBars(
        r.tiers,
        120,
        { field: 'tier', sort: ['easy', 'medium', 'hard'] },
        {
          mark: 'bar',
          encoding: { x: { field: 'recall', ...unit() } },
        },
      ),
    },
    hardNegatives: {
      title: 'False-link rate by hard-negative kind (95% interval)',
      spec: intervalBars(
        r.hardNegatives,
        Math.max(100, r.hardNegatives.length * 22),
        { field: 'kind', sort: '-x' },
        {
          mark: { type: 'bar', color: '#d62728' },
          encoding: { x: { field: 'rate', type: 'quantitative', scale: { domainMin: 0 } } },
        },
      ),
    },
    clusterSizes: {
      title: 'Cluster sizes, predicted vs true (log count)',
      spec: {
        ...base,
        data: { values: r.sizes },
        mark: 'bar',
        encoding: {
          x: { field: 'size', type: 'ordinal', title: 'records per cluster' },
          xOffset: { field: 'clustering' },
          y: { field: 'clusters', type: 'quantitative', scale: { type: 'symlog' } },
          color: { field: 'clustering', type: 'nominal' },
        },
      },
    },
  };
}
