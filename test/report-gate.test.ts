/**
 * The gate (exit code) from check results and a known-failures file: MUST failures and errors
 * gate, EXPECT-only failures do not, listed failures are expected, listed passes are flagged,
 * pending checks stop being pending once they passed; and the progress display: total known
 * from the start, failures as they happen, no control characters when the output is plain.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../harness/config.js';
import type { CleanupResult } from '../harness/cleanup.js';
import { causeLines, consoleSummary } from '../report/console-summary.js';
import { writeRunReports } from '../report/write.js';
import { headline } from '../report/headline.js';
import { historyPath, judge, loadKnownFailures, recordPasses, unknownEntries } from '../report/known-failures.js';
import { buildSummary } from '../report/summary.js';
import { summaryMarkdown } from '../report/markdown.js';
import type { CheckResult } from '../report/results.js';
import { INCOMPLETE_EXIT, LEFTOVERS_EXIT, runOutcome } from '../run/outcome.js';
import ProgressReporter, { ESTIMATE_AFTER_CHECKS, plainOutput } from '../report/progress.js';
import { requirementIndex } from '../specs/services.js';
import { makeRunFolder, resultOf } from './support/report-fixture.js';
import { INTERRUPTED_NOTE } from '../harness/verdict.js';

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
    // The console's per-service line tells the EXPECT-only failure from the gating one.
    const text = consoleSummary(buildSummary(makeRunFolder().run, results, undefined), 'reports/r');
    expect(text).toMatch(/failed requirements: .*ORG-ENV-ECHO(, |\n)/);
    expect(text).toContain('ORG-ERR-NOT-RETRYABLE [EXPECT only, not gating]');
  });

  it('listed failures are expected, listed passes are flagged, and the gate passes', () => {
    const file = knownFile({
      deployment: 'staging',
      entries: [
        { id: 'ORG-ENV-ECHO', reason: 'vendor ticket 1' },
        { id: 'organization/envelope/unreachable', reason: 'firewall' },
        { id: 'ORG-VIEWS-DEFAULT', reason: 'stale entry' },
      ],
    });
    const g = judge(results, level, loadKnownFailures(file));
    expect(g.verdict).toBe('pass');
    expect(g.expected.map((x) => x.checkId).sort()).toEqual([
      'organization/envelope/echo',
      'organization/envelope/unreachable',
    ]);
    expect(g.unexpectedPasses).toEqual([
      { entry: 'ORG-VIEWS-DEFAULT', reason: 'stale entry', checks: ['organization/envelope/passing'] },
    ]);
  });

  it('a pending check does not gate until it has passed once, then it gates', () => {
    const file = knownFile({
      entries: [
        { id: 'organization/envelope/echo', reason: 'new in suite 0.2', pending: true },
        { id: 'organization/envelope/unreachable', reason: 'x' },
      ],
    });
    const known = loadKnownFailures(file)!;
    expect(judge(results, level, known)).toMatchObject({
      verdict: 'pass',
      pending: [{ checkId: 'organization/envelope/echo' }],
    });

    const passedNow = results.map((r) =>
      r.checkId === 'organization/envelope/echo' ? { ...r, verdict: 'pass' as const, failedRequirements: [] } : r,
    );
    const g = judge(passedNow, level, known);
    expect(g.graduated).toEqual(['organization/envelope/echo']);
    recordPasses(known, g, 'run-2');
    expect(JSON.parse(readFileSync(historyPath(file), 'utf8')).passed).toEqual(['organization/envelope/echo']);

    const again = judge(results, level, loadKnownFailures(file));
    expect(again.verdict).toBe('fail');
    expect(again.gating).toEqual(['organization/envelope/echo']);
  });

  it('a missing or malformed list is a settings error (exit code 2)', () => {
    expect(() => loadKnownFailures('/nonexistent/known.json')).toThrow(SettingsError);
    expect(() => loadKnownFailures(knownFile({ entries: [{ id: 'X' }] }))).toThrow(
      /CONFORMANCE_KNOWN_FAILURES.*reason/,
    );
  });
});

describe('known-failures entries: ticket, expiry, and IDs that name nothing', () => {
  const { results } = makeRunFolder();
  const listed = (entry: Record<string, unknown>) =>
    loadKnownFailures(knownFile({ entries: [{ id: 'ORG-ENV-ECHO', reason: 'vendor bug', ...entry }] }))!;

  it('a ticket is kept with the expected failure it excuses', () => {
    const g = judge(results, level, listed({ ticket: 'ACME-123' }), { today: '2026-06-01' });
    expect(g.expected).toContainEqual({
      checkId: 'organization/envelope/echo',
      entry: 'ORG-ENV-ECHO',
      reason: 'vendor bug',
      ticket: 'ACME-123',
    });
    expect(g.expired).toEqual([]);
  });

  it('an entry excuses its failures up to and including its expiry date, and gates again the day after, saying so', () => {
    const known = listed({ ticket: 'ACME-123', expires: '2026-06-01' });
    expect(judge(results, level, known, { today: '2026-06-01' }).gating).not.toContain('organization/envelope/echo');
    const g = judge(results, level, known, { today: '2026-06-02' });
    expect(g.verdict).toBe('fail');
    expect(g.gating).toContain('organization/envelope/echo');
    expect(g.expected.map((x) => x.entry)).not.toContain('ORG-ENV-ECHO');
    expect(g.expired).toEqual([
      {
        entry: 'ORG-ENV-ECHO',
        reason: 'vendor bug',
        expires: '2026-06-01',
        ticket: 'ACME-123',
        checks: ['organization/envelope/echo'],
      },
    ]);
    const s = { ...buildSummary(makeRunFolder().run, results, undefined, { known }), gate: g };
    expect(consoleSummary(s, 'reports/r')).toContain(
      'expired known failure: ORG-ENV-ECHO expired on 2026-06-01 (ticket ACME-123): it excuses nothing now, and the check it covered that failed gate again',
    );
    expect(summaryMarkdown(s, 'reports/r')).toContain('**Expired known failures: they gate again** (1)');
  });

  it('an expiry that is not a date is a settings error (exit code 2)', () => {
    expect(() => listed({ expires: 'next spring' })).toThrow(/CONFORMANCE_KNOWN_FAILURES.*expires/);
  });

  it('an ID that names no requirement and no check is found, with the ID meant', () => {
    const requirements = new Set(REQS.keys());
    const checks = new Set(['organization/search/a-search-with-an-exact-copy-of-a-posted-identity-returns-it']);
    const known = {
      entries: [
        { id: 'ORG-MERGE-EFECT', reason: 'typo' },
        { id: 'ORG-MERGE-EFFECT', reason: 'right' },
        { id: 'organization/search/a-search-wit-an-exact-copy', reason: 'short and misspelt' },
        { id: 'organization/search/a-search-with-an-exact-copy-of-a-posted-identity-returns-it', reason: 'right' },
        { id: 'NOTHING-LIKE-IT-AT-ALL-XYZ', reason: 'x' },
      ],
    };
    expect(unknownEntries(known, requirements, checks)).toEqual([
      { id: 'ORG-MERGE-EFECT', suggestion: 'ORG-MERGE-EFFECT' },
      { id: 'organization/search/a-search-wit-an-exact-copy', suggestion: [...checks][0] },
      { id: 'NOTHING-LIKE-IT-AT-ALL-XYZ' },
    ]);
  });
});

/**
 * The case of issue 28: a known-failures list naming the requirements merge-no-unify breaks, in a
 * run where one check citing ORG-MERGE-EFFECT passed (a walk that never merged) while the others
 * still failed it. Removing ORG-MERGE-EFFECT from the list would fail the next run, so nothing
 * may advise it; and the headline, the gate and the exit code must all say PASS / 0.
 */
describe('known failures judged per check and per requirement', () => {
  const { run } = makeRunFolder();
  const mk = resultOf;
  const WALK = ['ORG-POST-ADDS', 'ORG-MERGE-EFFECT', 'ORG-MERGE-REPLY', 'ORG-UNMERGE-EFFECT', 'ORG-UNMERGE-REPLY'];
  const faulty = [
    mk('merge-link/after-merge', 'fail', ['ORG-MERGE-EFFECT'], ['ORG-MERGE-EFFECT']),
    mk('merge-link/unmerge-reply', 'fail', ['ORG-UNMERGE-REPLY'], ['ORG-MERGE-EFFECT']),
    mk('merge-link/after-unmerge', 'fail', ['ORG-UNMERGE-EFFECT'], ['ORG-MERGE-EFFECT']),
    mk('merge-link/merge-reply', 'pass', ['ORG-MERGE-REPLY']),
    mk('envelope/unmerge', 'fail', ['ORG-ENV-REPLY', 'ORG-OP-UNMERGEIDENTITIES'], ['ORG-OP-UNMERGEIDENTITIES']),
    mk('walks/part-1', 'pass', WALK),
    mk('walks/part-2', 'fail', WALK, ['ORG-MERGE-EFFECT']),
    mk('walks/tours', 'fail', WALK, ['ORG-MERGE-EFFECT']),
  ];
  const list = knownFile({
    deployment: 'staging',
    entries: ['ORG-MERGE-EFFECT', 'ORG-OP-UNMERGEIDENTITIES', 'ORG-UNMERGE-EFFECT', 'ORG-UNMERGE-REPLY'].map((id) => ({
      id,
      reason: 'merge-no-unify, vendor ticket 7',
    })),
  });
  const known = () => loadKnownFailures(list)!;
  const summaryOf = (results: CheckResult[]) => buildSummary(run, results, undefined, { known: known() });

  it('a requirement that one passing check cites while others still fail it is no unexpected pass; headline, gate and exit code say PASS / 0', () => {
    const s = summaryOf(faulty);
    expect(s.gate.verdict).toBe('pass');
    expect(s.gate.unexpectedPasses).toEqual([]);
    expect(new Set(s.gate.expected.map((x) => x.checkId)).size).toBe(6);
    expect(headline(s)).toBe('PASS (6 known failures)');
    expect(runOutcome(s, [], 'r').code).toBe(0);
    const text = consoleSummary(s, 'reports/r');
    expect(text).toContain(': PASS (6 known failures)\n');
    expect(text).toContain('gate: PASS (exit code 0); 0 gating, 6 known failures');
    expect(text, 'the per-service line marks what does not gate').toContain(
      'failed requirements: ORG-MERGE-EFFECT [known], ORG-OP-UNMERGEIDENTITIES [known]\n',
    );
    expect(text).not.toMatch(/unexpected pass:|remove/);
    const md = summaryMarkdown(s, 'reports/r');
    expect(md).toMatch(/^# Conformance run fixture-run: PASS \(6 known failures\)$/m);
    expect(md).toContain('Every MUST requirement checked held (exit code 0).');
    expect(md).not.toContain('Unexpected passes');
  });

  it('once every check covering an entry passed, the entry is an unexpected pass, with the checks that show it', () => {
    const fixed = faulty.map((c) => ({ ...c, verdict: 'pass' as const, failedRequirements: [] }));
    const s = summaryOf(fixed);
    expect(s.gate.unexpectedPasses.map((x) => x.entry)).toEqual([
      'ORG-MERGE-EFFECT',
      'ORG-OP-UNMERGEIDENTITIES',
      'ORG-UNMERGE-EFFECT',
      'ORG-UNMERGE-REPLY',
    ]);
    expect(s.gate.unexpectedPasses[0]!.checks).toEqual([
      'organization/merge-link/after-merge',
      'organization/walks/part-1',
      'organization/walks/part-2',
      'organization/walks/tours',
    ]);
    expect(headline(s)).toBe('PASS');
    expect(consoleSummary(s, 'reports/r')).toContain(
      `unexpected pass: ORG-MERGE-EFFECT: every check covering it passed (4); remove it from ${list}`,
    );
  });

  it('with the merge fixed but one check still failing a listed requirement, only the entries every covering check passed are flagged', () => {
    // The unmerge envelope check still fails: ORG-OP-UNMERGEIDENTITIES stays; the merge requirements go.
    const half = faulty.map((c) =>
      c.checkId === 'organization/envelope/unmerge' ? c : { ...c, verdict: 'pass' as const, failedRequirements: [] },
    );
    const s = summaryOf(half);
    expect(s.gate.unexpectedPasses.map((x) => x.entry)).toEqual([
      'ORG-MERGE-EFFECT',
      'ORG-UNMERGE-EFFECT',
      'ORG-UNMERGE-REPLY',
    ]);
    expect(runOutcome(s, [], 'r').code).toBe(0);
  });

  it('a run that selected part of a service never calls a requirement entry an unexpected pass (the checks left out may fail it)', () => {
    const fixed = faulty.map((c) => ({ ...c, verdict: 'pass' as const, failedRequirements: [] }));
    const selection = {
      suiteFiles: [
        'scenarios/organization/merge-link.test.ts',
        'scenarios/organization/walks.test.ts',
        'scenarios/organization/envelope.test.ts',
      ],
      selectedFiles: ['scenarios/organization/merge-link.test.ts'],
      notRun: [],
    };
    const s = buildSummary(run, fixed, undefined, { known: known(), selection });
    expect(s.coverage.organization!.scope).toBe('part');
    expect(s.gate.unexpectedPasses).toEqual([]);
    // A listed check ID that passed is an unexpected pass whatever the selection.
    const byCheck = knownFile({ entries: [{ id: 'organization/merge-link/after-merge', reason: 'x' }] });
    const t = buildSummary(run, fixed, undefined, { known: loadKnownFailures(byCheck), selection });
    expect(t.gate.unexpectedPasses).toEqual([
      { entry: 'organization/merge-link/after-merge', reason: 'x', checks: ['organization/merge-link/after-merge'] },
    ]);
  });

  it('records left behind make the headline say so, with the exit code the run ends with (4)', () => {
    const left: CleanupResult = {
      sources: { attempted: 1, deleted: 0, alreadyGone: 0 },
      relationships: { attempted: 0, deleted: 0, alreadyGone: 0 },
      failures: [{ service: 'organization', what: 'source cf_test_a/x', reason: 'HTTP 503' }],
    };
    const s = buildSummary(run, faulty, left, { known: known() });
    expect(headline(s)).toBe('PASS, but 1 record left on the deployment (exit code 4)');
    expect(runOutcome(s, [], 'r').code).toBe(LEFTOVERS_EXIT);
  });
});

describe('INCOMPLETE: checks that could not judge', () => {
  const { run, results } = makeRunFolder();
  // The fixture's error is a connection refused: a could-not-judge (harness/verdict.ts CouldNotJudge).
  const unjudged = results.map((r) => (r.verdict === 'error' ? { ...r, couldNotJudge: true } : r));
  const withoutFailure = unjudged.filter((r) => r.verdict !== 'fail');
  const summaryOf = (rs: typeof results, cleanup?: CleanupResult) =>
    buildSummary(run, rs, cleanup, { known: undefined });

  it('with nothing failed, a could-not-judge error makes the gate, the headline and the exit code INCOMPLETE (5), not 1', () => {
    const g = judge(withoutFailure, level);
    expect(g.verdict).toBe('incomplete');
    expect(g.incomplete).toEqual(['organization/envelope/unreachable']);
    expect(g.gating).toEqual([]);
    const s = summaryOf(withoutFailure);
    expect(s.overall).toBe('incomplete');
    expect(headline(s)).toBe('INCOMPLETE');
    expect(consoleSummary(s, 'reports/x')).toContain(': INCOMPLETE\n');
    const outcome = runOutcome(s, [], 'fixture-run');
    expect(outcome.code).toBe(INCOMPLETE_EXIT);
    expect(INCOMPLETE_EXIT).toBe(5);
    expect(outcome.lines.join('\n')).toMatch(/INCOMPLETE: nothing failed, but 1 check\(s\) could not judge/);
  });

  it('a check that could not judge a MUST requirement is marked "could not judge", never "EXPECT only", on the console, in summary.md and report.html', async () => {
    const f = makeRunFolder();
    // The fixture's error, as a check of a MUST requirement the deployment did not answer.
    const rs = f.results
      .map((r) => (r.verdict === 'error' ? { ...r, verifies: ['ORG-SEARCH-THRESHOLD'], couldNotJudge: true } : r))
      .filter((r) => r.verdict !== 'fail');
    expect(level('ORG-SEARCH-THRESHOLD')).toBe('MUST');
    const { summary } = await writeRunReports(f.folder, undefined, f.run, rs, undefined, { known: null });
    const causes = causeLines(summary).join('\n');
    expect(causes).toMatch(/1\. organization ORG-SEARCH-THRESHOLD \[could not judge\]: unreachable/);
    const md = readFileSync(join(f.folder, 'summary.md'), 'utf8');
    expect(md).toMatch(/### Cause 1: ORG-SEARCH-THRESHOLD \(1 failing check, could not judge\)/);
    expect(md).toMatch(/#### ERROR \(could not judge\): organization/);
    const html = readFileSync(join(f.folder, 'report.html'), 'utf8').replace(/<style>[\s\S]*?<\/style>/, '');
    expect(html).toMatch(/<span class="badge could-not-judge">could not judge<\/span> organization/);
    for (const text of [causes, md, html]) expect(text).not.toMatch(/EXPECT only|expect-only/);
  });

  it('a MUST failure still wins (exit 1), and records left behind still win over both (exit 4)', () => {
    const failing = summaryOf(unjudged);
    expect(failing.gate.verdict).toBe('fail');
    expect(headline(failing)).toBe('FAIL');
    expect(runOutcome(failing, [], 'fixture-run').code).toBe(1);
    const left: CleanupResult = {
      sources: { attempted: 1, deleted: 0, alreadyGone: 0 },
      relationships: { attempted: 0, deleted: 0, alreadyGone: 0 },
      failures: [{ service: 'organization', what: 'source cf_test_a/x', reason: 'HTTP 503' }],
    };
    expect(runOutcome(summaryOf(withoutFailure, left), [], 'fixture-run').code).toBe(LEFTOVERS_EXIT);
  });

  it('an error that is not could-not-judge (a guard refusal, a bug of ours) still gates: exit 1', () => {
    const s = summaryOf(results.filter((r) => r.verdict !== 'fail'));
    expect(s.gate.verdict).toBe('fail');
    expect(runOutcome(s, [], 'fixture-run').code).toBe(1);
  });

  it('checks that could not verify (skip) alone leave the gate passing: PASS with how many, exit 0', () => {
    const s = summaryOf(withoutFailure.filter((r) => r.verdict !== 'error'));
    expect(s.totals.skip).toBe(1);
    expect(s.gate.verdict).toBe('pass');
    expect(headline(s)).toBe('PASS (1 check could not verify)');
    expect(runOutcome(s, [], 'fixture-run').code).toBe(0);
  });
});

describe('progress display', () => {
  const fakeTest = (verdict: string, n: number, id = 'ORG-ENV-ECHO') =>
    ({
      name: `check ${n} [${id}]`,
      options: { mode: 'run' },
      module: { moduleId: 'scenarios/organization/envelope.test.ts' },
      result: () => ({ state: verdict === 'pass' ? 'passed' : 'failed' }),
      meta: () => ({
        declared: {
          checkId: `organization/envelope/check-${n}`,
          service: 'organization',
          area: 'envelope',
          verifies: [id],
          title: `check ${n}`,
        },
        check: {
          checkId: `organization/envelope/check-${n}`,
          verdict,
          service: 'organization',
          verifies: [id],
          failedRequirements: verdict === 'fail' ? [id] : [],
        },
      }),
    }) as never;
  const fakeModule = (n: number) =>
    ({
      children: { allTests: () => Array.from({ length: n }, () => ({ options: { mode: 'run' } })) },
      errors: () => [],
    }) as never;

  /** A run of two files of two checks each; `files` is what vitest says the run holds, `collectFirst` collects both before any result (one worker, run/vitest/side-by-side-runner.mjs). */
  function run(options: {
    live: boolean;
    total?: number;
    tty?: boolean;
    files?: number;
    collectFirst?: boolean;
  }): string {
    let out = '';
    let clock = 0;
    const stream = Object.assign(
      {
        write: (s: string) => {
          out += s;
          return true;
        },
        isTTY: options.tty ?? options.live,
        columns: 100,
      },
      {
        cursorTo: () => true,
        moveCursor: () => true,
        clearLine: () => true,
        clearScreenDown: () => true,
        on: () => stream,
        removeListener: () => stream,
      },
    );
    const p = new ProgressReporter({
      stream,
      live: options.live,
      total: options.total,
      intervalMs: 1000,
      now: () => clock,
      known: null,
      estimateAfter: 2,
    });
    p.onTestRunStart(
      Array.from(
        { length: options.files ?? 0 },
        (_, i) => ({ moduleId: `scenarios/organization/f${i}.test.ts` }) as never,
      ),
    );
    p.onTestModuleCollected(fakeModule(2));
    if (options.collectFirst) p.onTestModuleCollected(fakeModule(2));
    for (const [i, v] of ['pass', 'fail', 'pass', 'error'].entries()) {
      clock += 600;
      p.onTestCaseResult(fakeTest(v, i));
      if (i === 1 && !options.collectFirst) p.onTestModuleCollected(fakeModule(2));
    }
    p.onTestRunEnd([], []);
    return out;
  }

  it('knows the total once every file of the run is collected, before the first check when one worker collects them all first', () => {
    const out = run({ live: false, files: 2, collectFirst: true });
    expect(out).toContain('conformance: 2/4 (50%) checks done, 1 failed, 1 s, about 1 s left\n');
    expect(out).not.toContain('total still growing');
    // Files collected as the run goes (several workers): growing until the last one, then known.
    const late = run({ live: false, files: 2 });
    expect(late).toContain('conformance: 2/2 (total still growing) checks done, 1 failed, 1 s\n');
    expect(late).toContain('conformance: 4/4 (100%) checks done, 2 failed, 2 s\n');
    // The live bar, drawn when the first file was collected (2 checks then), takes the whole total.
    const live = run({ live: true, files: 2 });
    expect(live).toContain('4/4 checks');
    expect(live).not.toMatch(/\d\/2 checks/);
  });

  it('prints plain lines with the total known from the start, an estimate of the time left, and each failure', () => {
    const out = run({ live: false, total: 4 });
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(out.trim().split('\n')).toEqual([
      'FAIL  organization ORG-ENV-ECHO: check 1',
      'conformance: 2/4 (50%) checks done, 1 failed, 1 s, about 1 s left',
      'ERROR organization ORG-ENV-ECHO: check 3',
      'conformance: 4/4 (100%) checks done, 2 failed, 2 s',
    ]);
  });

  it('counts the checks an interrupt cut short apart from those done, as the summary headline does', () => {
    let out = '';
    const p = new ProgressReporter({
      stream: { write: (s: string) => (out += s) },
      live: false,
      intervalMs: 0,
      now: () => 0,
      known: null,
    });
    p.onTestRunStart([]);
    p.onTestCaseResult(fakeTest('pass', 0));
    const cut = fakeTest('skip', 1) as unknown as { meta: () => { check: Record<string, unknown> } };
    const meta = cut.meta();
    meta.check = { ...meta.check, verdict: 'skip', note: INTERRUPTED_NOTE };
    p.onTestCaseResult({ ...cut, meta: () => meta, result: () => ({ state: 'skipped' }) } as never);
    p.onTestRunEnd([], [], 'interrupted');
    expect(out).toContain('conformance: interrupted: 1/1 checks done, 1 cut short, 0 failed');
  });

  it('does not count a check vitest marked skipped when a cancelled run had not begun it (the summary lists it as not run)', () => {
    let out = '';
    const p = new ProgressReporter({
      stream: { write: (s: string) => (out += s) },
      live: false,
      intervalMs: 0,
      now: () => 0,
      known: null,
    });
    p.onTestRunStart([]);
    p.onTestCaseResult(fakeTest('pass', 0));
    const never = fakeTest('pass', 1) as unknown as { meta: () => Record<string, unknown> };
    const declared = never.meta().declared;
    p.onTestCaseResult({ ...never, meta: () => ({ declared }), result: () => ({ state: 'skipped' }) } as never);
    p.onTestRunEnd([], [], 'interrupted');
    expect(out.trim().split('\n').at(-1)).toBe('conformance: interrupted: 1/1 checks done, 0 failed, 0 s');
  });

  it('plain output says how many checks the run holds as soon as they are collected, before any check ends', () => {
    const out = run({ live: false, files: 2, collectFirst: true });
    expect(out.split('\n')[0]).toBe('conformance: 0/4 (0%) checks done, 0 failed, 0 s');
  });

  it('the live bar reads "time left: estimating" until enough checks have ended, never "0s left" before any did', () => {
    let out = '';
    let clock = 0;
    const stream = {
      write: (s: string) => {
        out += s;
        return true;
      },
      isTTY: true,
      columns: 120,
      cursorTo: () => true,
      moveCursor: () => true,
      clearLine: () => true,
      clearScreenDown: () => true,
      on: () => stream,
      removeListener: () => stream,
    };
    const p = new ProgressReporter({
      stream,
      live: true,
      intervalMs: 1000,
      now: () => clock,
      known: null,
      estimateAfter: 2,
    });
    p.onTestRunStart([1, 2].map((i) => ({ moduleId: `scenarios/organization/f${i}.test.ts` }) as never));
    p.onTestModuleCollected(fakeModule(2));
    p.onTestModuleCollected(fakeModule(2));
    clock += 5000;
    expect(p.leftText()).toBe('time left: estimating');
    p.onTestCaseResult(fakeTest('pass', 0));
    expect(p.leftText()).toBe('time left: estimating');
    clock += 1000;
    p.onTestCaseResult(fakeTest('pass', 1));
    expect(p.leftText()).toBe('about 6 s left');
    // Interrupted before the rest: the last frame gives no time left at all.
    p.onTestRunEnd([], [], 'interrupted');
    expect(out).toMatch(/2\/4 checks \| 0 failed \| \d+s \| \u001b/);
    expect(out).not.toMatch(/\ds left/);
  });

  it('says so while the total is still growing (no count before the run), and gives no estimate then', () => {
    const out = run({ live: false });
    expect(out).toContain('conformance: 2/2 (total still growing) checks done, 1 failed, 1 s\n');
    expect(out).toContain('conformance: 4/4 checks done, 2 failed, 2 s\n');
  });

  it('draws one live bar on a terminal, with the failure lines above it', () => {
    const out = run({ live: true, total: 4 });
    expect(out).toContain('4/4 checks | 2 failed');
    expect(out).toContain('FAIL  organization ORG-ENV-ECHO: check 1');
    expect(out).toMatch(/\u001b\[/);
  });

  /** The plain lines of a run of `verdicts` (one check each, `ids[i]` its requirement), with `options`. */
  function lines(
    verdicts: string[],
    ids: string[],
    options: ConstructorParameters<typeof ProgressReporter>[0] = {},
  ): string[] {
    let out = '';
    let clock = 0;
    const p = new ProgressReporter({
      stream: { write: (s: string) => (out += s) },
      live: false,
      intervalMs: 1000,
      now: () => clock,
      known: null,
      ...options,
    });
    p.onTestRunStart([]);
    verdicts.forEach((v, i) => {
      clock += 1000;
      p.onTestCaseResult(fakeTest(v, i, ids[i % ids.length]));
    });
    return out.trim().split('\n');
  }

  it('marks a known failure, a pending check and an EXPECT-only failure as the gate will treat them; a gating one stays plain', () => {
    const expectId = [...REQS.values()].find((r) => r.level === 'EXPECT' && r.id.startsWith('ORG-'))!.id;
    const known = loadKnownFailures(
      knownFile({
        entries: [
          { id: 'ORG-ENV-ECHO', reason: 'vendor bug' },
          { id: 'organization/envelope/check-2', reason: 'new check', pending: true },
        ],
      }),
    );
    const out = lines(['fail', 'fail', 'fail', 'fail'], ['ORG-ENV-ECHO', expectId, 'ORG-ENV-REPLY', 'ORG-ENV-REPLY'], {
      known,
      total: 4,
    });
    expect(out.filter((l) => l.startsWith('FAIL'))).toEqual([
      'FAIL  organization ORG-ENV-ECHO [known]: check 0',
      `FAIL  organization ${expectId} [EXPECT only, not gating]: check 1`,
      'FAIL  organization ORG-ENV-REPLY [pending]: check 2',
      'FAIL  organization ORG-ENV-REPLY: check 3',
    ]);
  });

  it('gives no estimate of the time left before a handful of checks are done (the first to end are the quick ones)', () => {
    const out = lines(Array(30).fill('pass'), ['ORG-ENV-ECHO'], { total: 200 });
    const estimated = out.map((l, i) => [i + 1, /about \d+ s left/.test(l)] as const).filter(([, e]) => e);
    expect(estimated.length).toBeGreaterThan(0);
    expect(
      estimated[0]![0],
      'the first line with an estimate: after ESTIMATE_AFTER_CHECKS checks and 5 % of the run',
    ).toBe(Math.max(ESTIMATE_AFTER_CHECKS, 10));
  });

  it('is plain when stdout is not a terminal, NO_COLOR or CI is set, or the terminal is dumb', () => {
    expect(plainOutput({ isTTY: false }, {})).toBe(true);
    expect(plainOutput({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(plainOutput({ isTTY: true }, { CI: 'true' })).toBe(true);
    expect(plainOutput({ isTTY: true }, { TERM: 'dumb' })).toBe(true);
    expect(plainOutput({ isTTY: true }, { TERM: 'xterm' })).toBe(false);
  });
});
