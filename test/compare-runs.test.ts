/**
 * `npm run compare`: two clean runs with the same seed compare as unchanged (exit 0), listing
 * nothing that did not change; a change of gate is a change, in the headline; a clean
 * run versus a run with one injected reference fault shows exactly the checks that newly fail,
 * the MUST requirement that broke, and exits 1. Bad input exits 2. A degraded run (INCOMPLETE, circuit open,
 * throttled, or started after the current one) is named, and no latency shift is called then.
 * The fault comes from REFERENCE_FAULTS (reference/faults/catalogue.ts); where that catalogue is
 * absent the faulted summary is fabricated from a copy of a clean one (one check flipped).
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareSummaries, comparisonMarkdown, loadSummary } from '../report/compare.js';
import { CIRCUIT_OPEN_LINE, computeStats } from '../report/stats.js';
import { CIRCUIT_OPEN } from '../harness/transport.js';
import type { Summary } from '../report/summary.js';
import { runCli } from './support/cli.js';
import { runSuite } from './support/run-suite.js';

const FAULT = 'default-view-empty';
const FAULTED_REQUIREMENT = 'ORG-VIEWS-DEFAULT';
const SCOPE = ['scenarios/organization/envelope.test.ts'];
const realFaults =
  existsSync('reference/faults/catalogue.ts') &&
  readFileSync('reference/faults/catalogue.ts', 'utf8').includes(`'${FAULT}'`);

const folderOf = (r: { reportDir: string; runId: string }) => join(r.reportDir, r.runId);
let clean1: string;
let clean2: string;
let faulted: string;

beforeAll(async () => {
  const [a, b] = [await runSuite(SCOPE), await runSuite(SCOPE)];
  clean1 = folderOf(a);
  clean2 = folderOf(b);
  if (realFaults) {
    faulted = folderOf(await runSuite(SCOPE, { REFERENCE_FAULTS: FAULT }));
  } else {
    const s = JSON.parse(readFileSync(join(clean2, 'summary.json'), 'utf8')) as Summary;
    const target = s.checks.find((c) => c.verifies.includes(FAULTED_REQUIREMENT))!;
    Object.assign(target, { verdict: 'fail', failedRequirements: [FAULTED_REQUIREMENT], message: 'fabricated' });
    s.requirements.find((r) => r.id === FAULTED_REQUIREMENT)!.outcome = 'fail';
    faulted = join(mkdtempSync(join(tmpdir(), 'cf-faulted-')), 'summary.json');
    writeFileSync(faulted, JSON.stringify(s));
  }
}, 240000);

describe(`compare (fault ${realFaults ? 'injected by REFERENCE_FAULTS' : 'fabricated'})`, () => {
  it('two clean runs compare as unchanged and exit 0', () => {
    const c = compareSummaries(loadSummary(clean1), loadSummary(clean2));
    expect(c.verdict).toBe('unchanged');
    expect(c.newlyFailing).toEqual([]);
    const cli = runCli('compare', [clean1, join(clean2, 'summary.json')]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('# Comparison: UNCHANGED: gate PASS (exit code 0) in both runs');
    // Only what changed is listed: no table of checks, and no latency row that did not shift.
    expect(cli.stdout).not.toMatch(/^## (Newly|Other|Checks only)/m);
    expect(cli.stdout).not.toMatch(/\| steady \|/);
    expect(cli.stdout).toMatch(/operations tested on their per-request times \(Mann-Whitney U/);
  });

  it('a change of gate alone (here a run whose gate failed although its checks are the same) is a change, and the headline says it', () => {
    const base = loadSummary(clean1);
    const failed = { ...base, gate: { ...base.gate, verdict: 'fail' as const, gating: [base.checks[0]!.checkId] } };
    const c = compareSummaries(failed, base);
    expect(c.gate).toMatchObject({
      baseline: { verdict: 'fail', exitCode: 1 },
      current: { verdict: 'pass', exitCode: 0 },
      changed: true,
    });
    expect(c.verdict).toBe('changed');
    expect(comparisonMarkdown(c)).toMatch(/^# Comparison: CHANGED: gate FAIL \(exit code 1\) → PASS \(exit code 0\)$/m);
  });

  it('a clean run against a faulted run lists exactly the newly failing checks and exits 1', () => {
    const base = loadSummary(clean1);
    const cur = loadSummary(faulted);
    const failingNow = cur.checks
      .filter((x) => x.verdict === 'fail' || x.verdict === 'error')
      .map((x) => x.checkId)
      .sort();
    expect(base.checks.filter((x) => x.verdict === 'fail' || x.verdict === 'error')).toEqual([]);
    expect(failingNow.length).toBeGreaterThan(0);
    const c = compareSummaries(base, cur);
    expect(c.newlyFailing.map((x) => x.checkId).sort()).toEqual(failingNow);
    for (const x of c.newlyFailing) expect(x.failedRequirements).toContain(FAULTED_REQUIREMENT);
    expect(c.mustRegressions).toEqual([FAULTED_REQUIREMENT]);
    expect(c.requirements.find((r) => r.id === FAULTED_REQUIREMENT)).toMatchObject({
      from: 'pass',
      to: 'fail',
      regression: true,
    });
    expect(c.verdict).toBe('regressed');

    const out = join(mkdtempSync(join(tmpdir(), 'cf-compare-')), 'comparison.json');
    const cli = runCli('compare', [clean1, faulted, '--json', out]);
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.stdout).toContain('## Newly failing checks');
    expect(JSON.parse(readFileSync(out, 'utf8')).verdict).toBe('regressed');
  });

  it('the reverse direction reports newly passing checks and exits 0', () => {
    const c = compareSummaries(loadSummary(faulted), loadSummary(clean1));
    expect(c.newlyPassing.length).toBeGreaterThan(0);
    expect(c.verdict).toBe('changed');
  });

  it('exits 2 on a missing or unreadable input', () => {
    const bogus = join(mkdtempSync(join(tmpdir(), 'cf-bogus-')), 'summary.json');
    copyFileSync('package.json', bogus);
    expect(runCli('compare', [clean1, '/nonexistent/run']).code).toBe(2);
    expect(runCli('compare', [clean1, bogus]).code).toBe(2);
    expect(runCli('compare', [clean1]).code).toBe(2);
  });
});

/**
 * `compare` with a degraded run: an INCOMPLETE baseline whose replies came five times as slow with its circuit breaker
 * open (a clean run's summary as such a deployment would have left it), a baseline the reference's `throttled`
 * variant throttled, and a baseline that started after the current run (the arguments swapped). Each time it says why
 * the figures are no measure of the deployment and calls no latency shift.
 */
describe('compare with a degraded run', () => {
  let throttled: string;
  beforeAll(async () => {
    throttled = folderOf(await runSuite(SCOPE, { REFERENCE_VARIANTS: 'throttled=10' }));
  }, 240000);

  it('an INCOMPLETE, slow baseline with its circuit open: says so, and calls no operation faster', () => {
    const base = loadSummary(clean1);
    const slow = (l: Summary['stats']['latency'][number]) => ({
      ...l,
      p50: l.p50 * 5 + 500,
      p95: l.p95 * 5 + 500,
      max: l.max * 5 + 500,
      ...(l.durations ? { durations: l.durations.map((d) => d * 5 + 500) } : {}),
    });
    const degraded: Summary = {
      ...base,
      gate: { ...base.gate, verdict: 'incomplete', incomplete: [base.checks[0]!.checkId] },
      stats: {
        ...base.stats,
        latency: base.stats.latency.map(slow),
        noReply: [{ service: 'organization', circuitOpen: 40, timeout: 3, other: 0 }],
      },
    };
    const c = compareSummaries(degraded, loadSummary(clean2));
    expect(c.degraded).toEqual({
      baseline: [
        'INCOMPLETE: 1 check could not judge',
        'circuit open: 40 organization requests not sent',
        '3 organization requests timed out',
      ],
      current: [],
    });
    expect(c.latency.filter((l) => l.shift === 'faster' || l.shift === 'slower')).toEqual([]);
    expect(
      c.latency.filter((l) => l.shift === 'withheld').length,
      'operations that differ but are not called',
    ).toBeGreaterThan(0);
    const md = comparisonMarkdown(c);
    expect(md).toContain(
      '**Degraded:** the baseline was degraded (INCOMPLETE: 1 check could not judge; circuit open: 40 organization ' +
        'requests not sent; 3 organization requests timed out). Latency shifts are not called while a run is degraded.',
    );
    expect(md).toMatch(/^## Latency per operation: not compared$/m);
    expect(md).not.toMatch(/\| (faster|slower|withheld) \|/);
  });

  it("a baseline the reference's throttled variant throttled: degraded, on the console's last line too", () => {
    const c = compareSummaries(loadSummary(throttled), loadSummary(clean2));
    expect(c.degraded.baseline).toContainEqual(
      expect.stringMatching(/^throttled: \d+ of \d+ organization attempts answered "not now", paused \d+\.\d s$/),
    );
    expect(c.latency.filter((l) => l.shift === 'faster' || l.shift === 'slower')).toEqual([]);
    const cli = runCli('compare', [throttled, clean2]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^compare: .*; latency not compared: the baseline was degraded \(throttled: /m);
  });

  it('a baseline that started after the current run (the arguments swapped) calls no shift either', () => {
    const c = compareSummaries(loadSummary(clean2), loadSummary(clean1));
    expect(c.degraded.order).toMatch(/^the baseline \(started \S+\) started after the current run \(\S+\)$/);
    expect(c.latency.filter((l) => l.shift === 'faster' || l.shift === 'slower')).toEqual([]);
    expect(comparisonMarkdown(c)).toContain('started after the current run');
  });

  it("counts the circuit breaker's refusals by the text a transport exchange line keeps", () => {
    expect(CIRCUIT_OPEN_LINE).toBe(CIRCUIT_OPEN);
    const line = { service: 'person', operation: 'postIdentity', startedAt: '', durationMs: 0, error: CIRCUIT_OPEN };
    expect(computeStats([line, { ...line, error: 'timeout' }]).noReply).toEqual([
      { service: 'person', circuitOpen: 1, timeout: 1, other: 0 },
    ]);
  });
});
