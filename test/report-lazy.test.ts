/**
 * Startup cost: the chart (vega, vega-lite) and Graphviz (@viz-js/viz) libraries are loaded only
 * when reports are written (report/write.ts imports report/charts.ts and report/state-diagram.ts
 * with import(), and the global setup's teardown imports report/write.ts so), never by what the
 * run loads before its first check: the vitest config, its reporters, the global setup, or
 * anything a test worker imports (scenarios/, harness/, specs/).
 * Checked on the import graph as dependency-cruiser resolves it (static imports only).
 */
import { describe, expect, it } from 'vitest';
import { reachable } from './support/import-graph.js';

const HEAVY = /^node_modules\/(vega|vega-lite|@viz-js\/viz)\//;

describe('chart and Graphviz libraries', () => {
  it('are not reachable by static imports from the config, reporters, global setup or scenarios', () => {
    const loaded = reachable([
      'vitest.config.ts',
      'report/progress.ts',
      'report/reporter.ts',
      'run/vitest/global-setup.ts',
      'scenarios',
    ]);
    // The walk follows the global setup's static imports (so the check below can see what they load)...
    expect(loaded.has('harness/config.ts'), 'the global setup reaches the settings').toBe(true);
    // ...and the report writer is not among them: the teardown loads it when it writes the reports.
    expect(loaded.has('report/write.ts'), 'the report writer is loaded only at teardown').toBe(false);
    expect([...loaded].filter((m) => HEAVY.test(m))).toEqual([]);
  }, 120000);

  it('are reachable from the modules that draw (so the check above can see them)', () => {
    const loaded = reachable(['report/charts.ts', 'report/state-diagram.ts']);
    expect(
      [...loaded]
        .filter((m) => HEAVY.test(m))
        .map((m) =>
          m
            .split('/')
            .slice(1, m.includes('@') ? 3 : 2)
            .join('/'),
        )
        .sort(),
    ).toEqual(expect.arrayContaining(['vega', 'vega-lite']));
  }, 120000);
});
