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

export function chartSpecs(a: Analysis, previous?: Analysis): Record<string, { title: string; spec: Spec }> {
  const curve = thin(a.search.curve).map((p) => ({ ...p, run: 'this run' }));
  const prevCurve = previous ? thin(previous.search.curve).map((p) => ({ ...p, run: 'baseline' })) : [];
  const operators = Object.entries(a.metrics)
    .filter(([k]) => k.startsWith('recall.operator.'))
    .map(([k, v]) => ({
      operator: k.slice('recall.operator.'.length),
      recall: v.value,
      low: v.low,
      high: v.high,
      pairs: a.breakdownSizes[k] ?? 0,
    }))
    .filter((x) => Number.isFinite(x.recall));
  const tiers = ['easy', 'medium', 'hard']
    .map((t) => ({ tier: t, m: a.metrics[`recall.tier.${t}`], pairs: a.breakdownSizes[`recall.tier.${t}`] ?? 0 }))
    .filter((x) => x.m && Number.isFinite(x.m.value))
    .map((x) => ({ tier: x.tier, recall: x.m!.value, low: x.m!.low, high: x.m!.high, pairs: x.pairs }));
  const hardNegatives = Object.entries(a.metrics)
    .filter(([k]) => k.startsWith('falseLink.'))
    .map(([k, v]) => ({
      kind: k.slice('falseLink.'.length),
      rate: v.value,
      low: v.low,
      high: v.high,
      pairs: a.breakdownSizes[k] ?? 0,
    }))
    .filter((x) => Number.isFinite(x.rate));
  const hist = a.search.histogram
    .flatMap((b) => [
      { from: b.from, to: b.to, truth: 'true match', count: b.match },
      { from: b.from, to: b.to, truth: 'non-match', count: b.nonMatch },
    ])
    .filter((b) => b.count > 0);
  const sizes = a.clusterSizes
    .flatMap((s) => [
      { size: s.size, clustering: 'predicted', clusters: s.predicted },
      { size: s.size, clustering: 'true', clusters: s.true },
    ])
    .filter((s) => s.clusters > 0);

  return {
    pr: {
      title: 'Precision-recall curve over search-score thresholds',
      spec: {
        ...base,
        data: { values: [...prevCurve, ...curve] },
        mark: { type: 'line', point: false },
        encoding: {
          x: { field: 'recall', type: 'quantitative', scale: { domain: [0, 1] } },
          y: { field: 'precision', type: 'quantitative', scale: { domain: [0, 1] } },
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
        data: { values: curve },
        transform: [{ fold: ['precision', 'recall', 'f1', 'fStar'], as: ['metric', 'value'] }],
        mark: 'line',
        encoding: {
          x: { field: 'threshold', type: 'quantitative', scale: { domain: [0, 1] } },
          y: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] } },
          color: { field: 'metric', type: 'nominal' },
        },
      },
    },
    histogram: {
      title: 'Search scores by true match / non-match (log count)',
      spec: {
        ...base,
        data: { values: hist },
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
      spec: {
        ...base,
        height: Math.max(120, operators.length * 14),
        data: { values: operators },
        layer: [
          {
            mark: 'bar',
            encoding: {
              y: { field: 'operator', type: 'nominal', sort: '-x' },
              x: { field: 'recall', type: 'quantitative', scale: { domain: [0, 1] } },
              tooltip: [{ field: 'pairs' }],
            },
          },
          {
            mark: { type: 'rule', color: 'black' },
            encoding: {
              y: { field: 'operator', type: 'nominal', sort: '-x' },
              x: { field: 'low', type: 'quantitative' },
              x2: { field: 'high' },
            },
          },
        ],
      },
    },
    tiers: {
      title: 'Recall by difficulty tier (95% interval)',
      spec: {
        ...base,
        height: 120,
        data: { values: tiers },
        layer: [
          {
            mark: 'bar',
            encoding: {
              y: { field: 'tier', type: 'nominal', sort: ['easy', 'medium', 'hard'] },
              x: { field: 'recall', type: 'quantitative', scale: { domain: [0, 1] } },
            },
          },
          {
            mark: { type: 'rule', color: 'black' },
            encoding: {
              y: { field: 'tier', type: 'nominal', sort: ['easy', 'medium', 'hard'] },
              x: { field: 'low', type: 'quantitative' },
              x2: { field: 'high' },
            },
          },
        ],
      },
    },
    hardNegatives: {
      title: 'False-link rate by hard-negative kind (95% interval)',
      spec: {
        ...base,
        height: Math.max(100, hardNegatives.length * 22),
        data: { values: hardNegatives },
        layer: [
          {
            mark: { type: 'bar', color: '#d62728' },
            encoding: {
              y: { field: 'kind', type: 'nominal', sort: '-x' },
              x: { field: 'rate', type: 'quantitative', scale: { domainMin: 0 } },
            },
          },
          {
            mark: { type: 'rule', color: 'black' },
            encoding: {
              y: { field: 'kind', type: 'nominal', sort: '-x' },
              x: { field: 'low', type: 'quantitative' },
              x2: { field: 'high' },
            },
          },
        ],
      },
    },
    clusterSizes: {
      title: 'Cluster sizes, predicted vs true (log count)',
      spec: {
        ...base,
        data: { values: sizes },
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
