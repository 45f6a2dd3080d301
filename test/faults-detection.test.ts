/**
 * Detection self-test, one detection run for both halves (detection/runner.ts), on the sample of
 * the catalogues that fits `npm test` (detection/sample.ts); `npm run detection` runs them whole:
 * - faults: the suite runs against the reference once cleanly and once per sampled fault
 *   (reference/faults/catalogue.ts; each fault's run holds only the checks citing its requirement,
 *   bundling at most one fault per service). The clean reference gives zero failures, and every
 *   fault's run (a) fails and (b) has a failing check citing the requirement the fault violates.
 * - variants: the whole suite runs against the sampled legitimate variants (reference/variants,
 *   bundled where compatible, a failing bundle's variants re-run alone). No variant may show a
 *   false positive; a variant judged 'no-fail' counts `fail` verdicts only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DetectionReport } from '../detection/outcomes.js';
import { detect, scenarioFileCount } from '../detection/runner.js';
import { drawnSpecs } from '../detection/drawn.js';
import { SAMPLE_DRAWN_SEEDS, SAMPLE_VARIANTS, sampleFaults } from '../detection/sample.js';
import { plannedVariants } from '../detection/variants.js';
import { FAULT_LIST } from '../reference/faults/catalogue.js';

let report: DetectionReport;
/** Every progress call of the run: pass, files ended, files in the pass. */
const progress: Array<[string, number, number]> = [];
const faults = FAULT_LIST.filter((f) => sampleFaults().includes(f.name));
const variants = plannedVariants(SAMPLE_VARIANTS);

beforeAll(async () => {
  report = await detect({
    concurrency: 2,
    only: faults.map((f) => f.name),
    variants,
    drawn: drawnSpecs(SAMPLE_DRAWN_SEEDS),
    onFiles: (pass, done, total) => progress.push([pass, done, total]),
  });
}, 1500000);

describe('progress', () => {
  it('each pass counts its scenario files up to their number, as they end', () => {
    const passes = [...new Set(progress.map(([pass]) => pass))];
    expect(passes.slice(0, 3)).toEqual(['clean run', 'fault runs', 'variant and drawn runs']);
    for (const pass of passes) {
      const calls = progress.filter(([p]) => p === pass);
      expect(calls.map(([, done]) => done)).toEqual(calls.map((_, i) => i + 1));
      expect(calls.at(-1)![1], pass).toBe(calls.at(-1)![2]);
    }
    expect(progress.find(([p]) => p === 'clean run')![2]).toBe(scenarioFileCount());
  });
});

describe('fault detection', () => {
  it('the catalogue has at least 40 faults, each citing a requirement', () => {
    expect(FAULT_LIST.length).toBeGreaterThanOrEqual(40);
    expect(new Set(FAULT_LIST.map((f) => f.name)).size).toBe(FAULT_LIST.length);
  });

  it('the clean reference gives zero failures (no false positives)', () => {
    expect(report.clean.problem).toBeUndefined();
    expect(report.clean.checks).toBeGreaterThan(0);
    expect(report.clean.falsePositives).toEqual([]);
  });

  it('the sample holds faults of every service', () => {
    expect(new Set(faults.map((f) => f.service))).toEqual(new Set(FAULT_LIST.map((f) => f.service)));
  });

  it.each(faults.map((f) => [f.name, f.requirement]))(
    '%s: the run fails and a failing check cites %s',
    (name, requirement) => {
      const o = report.faults.find((f) => f.fault.name === name)!;
      expect(o.problem).toBeUndefined();
      expect(o.runFailed, `the run with ${name} fails`).toBe(true);
      expect(
        o.caughtBy,
        `failing checks citing ${requirement} (failing: ${o.failing.join(', ') || 'none'})`,
      ).not.toEqual([]);
    },
  );
});

describe('variants: the suite passes legitimate deployments', () => {
  it('every sampled variant ran, with checks', () => {
    expect(report.variants?.outcomes.map((o) => o.variant)).toEqual(variants.map((v) => v.spec));
    for (const o of report.variants!.outcomes) {
      expect(o.problem, o.variant).toBeUndefined();
      expect(o.checks, o.variant).toBeGreaterThan(0);
    }
  });

  it.each(variants.map((v) => [v.spec]))('%s: no false positive', (spec) => {
    const o = report.variants!.outcomes.find((x) => x.variant === spec)!;
    const unexplained = o.falsePositives.map(
      (f) => `${f.checkId} (${f.verdict}: ${f.failedRequirements.join(', ')}) ${(f.message ?? '').slice(0, 300)}`,
    );
    expect(unexplained).toEqual([]);
  });

  it('no bundle fails from combining variants that each pass alone', () => {
    expect(report.variants!.interactions).toEqual([]);
  });
});

describe('drawn deployments: the suite passes legitimate deployments nobody listed', () => {
  it.each(SAMPLE_DRAWN_SEEDS.map((seed) => [seed]))('drawn=%s: no false positive', (seed) => {
    const o = report.variants?.drawn?.outcomes.find((x) => x.seed === seed);
    expect(o, `drawn=${seed} ran`).toBeDefined();
    expect(o!.problem).toBeUndefined();
    expect(o!.falsePositives.map((f) => `${f.checkId} (${f.verdict}) ${(f.message ?? '').slice(0, 300)}`)).toEqual([]);
  });
});
