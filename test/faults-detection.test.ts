/**
 * Detection self-test: the conformance suite runs against the reference once cleanly and once per
 * catalogued fault (reference/faults/catalogue.ts; each fault's run holds only the checks citing
 * its requirement, in vitest projects bundling at most one fault per service). Asserts the clean reference gives zero
 * failures, and that every fault's run (a) fails and (b) has a failing check citing the
 * requirement the fault violates.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FAULT_LIST } from '../reference/faults/catalogue.js';
import { type DetectionReport, detect } from '../detection/runner.js';

let report: DetectionReport;

beforeAll(async () => {
  report = await detect({ concurrency: 2 });
}, 900000);

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

  it.each(FAULT_LIST.map((f) => [f.name, f.requirement]))('%s: the run fails and a failing check cites %s', (name, requirement) => {
    const o = report.faults.find((f) => f.fault.name === name)!;
    expect(o.problem).toBeUndefined();
    expect(o.runFailed, `the run with ${name} fails`).toBe(true);
    expect(o.caughtBy, `failing checks citing ${requirement} (failing: ${o.failing.join(', ') || 'none'})`).not.toEqual([]);
  });
});
