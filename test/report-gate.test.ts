/**
 * The gate (exit code) from check results and a known-failures file: MUST failures and errors
 * gate, EXPECT-only failures do not, listed failures are expected, listed passes are flagged,
 * pending checks stop being pending once they passed; and the progress line has no control
 * characters when the stream is not a TTY.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../harness/config.js';
import { historyPath, judge, loadKnownFailures, recordPasses } from '../report/known-failures.js';
import ProgressReporter from '../report/progress.js';
import { requirementIndex } from '../specs/services.js';
import { makeRunFolder } from './support/report-fixture.js';

const REQS = requirementIndex();
const level = (id: string) => REQS.get(id)?.level;

function knownFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cf-known-')), 'staging.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('gate', () => {
  const { results } = makeRunFolder();

  it('without a list, MUST failures and errors gate; an EXPECT-only failure does not', () => {
    const g = judge(results, level);
    expect(g.verdict).toBe('fail');
    expect(g.gating.sort()).toEqual(['organization/envelope/echo', 'organization/envelope/unreachable']);
    expect(g.expectOnly).toEqual(['organization/envelope/retryable']);
  });

  it('listed failures are expected, listed passes are flagged, and the gate passes', () => {
    const file = knownFile({ deployment: 'staging', entries: [
      { id: 'ORG-ENV-ECHO', reason: 'vendor ticket 1' },
      { id: 'organization/envelope/unreachable', reason: 'firewall' },
      { id: 'ORG-VIEWS-DEFAULT', reason: 'stale entry' },
    ] });
    const g = judge(results, level, loadKnownFailures({ CONFORMANCE_KNOWN_FAILURES: file }));
    expect(g.verdict).toBe('pass');
    expect(g.expected.map((x) => x.checkId).sort()).toEqual(['organization/envelope/echo', 'organization/envelope/unreachable']);
    expect(g.unexpectedPasses).toEqual([{ checkId: 'organization/envelope/passing', entry: 'ORG-VIEWS-DEFAULT', reason: 'stale entry' }]);
  });

  it('a pending check does not gate until it has passed once, then it gates', () => {
    const file = knownFile({ entries: [{ id: 'organization/envelope/echo', reason: 'new in suite 0.2', pending: true }, { id: 'organization/envelope/unreachable', reason: 'x' }] });
    const known = loadKnownFailures({ CONFORMANCE_KNOWN_FAILURES: file })!;
    expect(judge(results, level, known)).toMatchObject({ verdict: 'pass', pending: [{ checkId: 'organization/envelope/echo' }] });

    const passedNow = results.map((r) => (r.checkId === 'organization/envelope/echo' ? { ...r, verdict: 'pass' as const, failedRequirements: [] } : r));
    const g = judge(passedNow, level, known);
    expect(g.graduated).toEqual(['organization/envelope/echo']);
    recordPasses(known, g, 'run-2');
    expect(JSON.parse(readFileSync(historyPath(file), 'utf8')).passed).toEqual(['organization/envelope/echo']);

    const again = judge(results, level, loadKnownFailures({ CONFORMANCE_KNOWN_FAILURES: file }));
    expect(again.verdict).toBe('fail');
    expect(again.gating).toEqual(['organization/envelope/echo']);
  });

  it('a missing or malformed list is a settings error (exit code 2)', () => {
    expect(() => loadKnownFailures({ CONFORMANCE_KNOWN_FAILURES: '/nonexistent/known.json' })).toThrow(SettingsError);
    expect(() => loadKnownFailures({ CONFORMANCE_KNOWN_FAILURES: knownFile({ entries: [{ id: 'X' }] }) })).toThrow(/CONFORMANCE_KNOWN_FAILURES.*reason/);
  });
});

describe('progress line', () => {
  const fakeTest = (verdict: string) => ({ result: () => ({ state: verdict === 'pass' ? 'passed' : 'failed' }), meta: () => ({ check: { verdict } }) }) as never;
  const fakeModule = (n: number) => ({ children: { allTests: () => Array.from({ length: n }) } }) as never;

  function run(isTTY: boolean): string {
    let out = '';
    let clock = 0;
    const p = new ProgressReporter({ stream: { write: (s: string) => (out += s), isTTY }, intervalMs: 1000, now: () => clock });
    p.onTestRunStart();
    p.onTestModuleCollected(fakeModule(4));
    for (const v of ['pass', 'fail', 'pass', 'error']) {
      clock += 600;
      p.onTestCaseResult(fakeTest(v));
    }
    p.onTestRunEnd();
    return out;
  }

  it('prints plain lines with done/total and failures when not a TTY', () => {
    const out = run(false);
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(out.trim().split('\n')).toEqual(['conformance: 2/4 checks done, 1 failed, 1 s', 'conformance: 4/4 checks done, 2 failed, 2 s']);
  });

  it('rewrites one line on a TTY', () => {
    expect(run(true)).toContain('\r\u001b[2Kconformance: 4/4 checks done, 2 failed');
  });
});
