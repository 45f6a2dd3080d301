/**
 * Scope: coverage counts only what the run selected (selection.json). A run limited to one
 * service reports the others as "not run", not as requirements with no check; a run limited to
 * some files of a service, or by a name filter, reports what it did not select as "not run"; the
 * console summary says so instead of "covered 0/84".
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleSummary } from '../report/console-summary.js';
import { summaryMarkdown } from '../report/markdown.js';
import type { CheckResult, RunSelection } from '../report/results.js';
import { type RunDescription, buildSummary } from '../report/summary.js';
import { SERVICES } from '../specs/services.js';

const run: RunDescription = {
  runId: 'scope-run',
  seed: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  embedded: true,
  targets: (['organization', 'person', 'provider'] as const).map((service) => ({
    service,
    status: 'embedded' as const,
    baseUrl: 'http://127.0.0.1:9',
    servicePath: SERVICES[service].servicePath,
  })),
  profile: {},
};
const check = (file: string, verifies: string[], verdict: CheckResult['verdict'] = 'pass'): CheckResult => ({
  checkId: `organization/x/${verifies.join('-')}`,
  title: `t [${verifies.join(' ')}]`,
  file,
  service: 'organization',
  area: 'x',
  verifies,
  verdict,
  failedRequirements: verdict === 'fail' ? verifies : [],
  durationMs: 1,
  operations: [],
});
const SUITE = [
  'scenarios/organization/envelope.test.ts',
  'scenarios/organization/merge-link.test.ts',
  'scenarios/person/envelope.test.ts',
  'scenarios/provider/envelope.test.ts',
];
const ORG = SERVICES.organization.requirements.length;

describe('coverage within the selection', () => {
  it('a run of one service reports the others as not run, not as gaps', () => {
    const selection: RunSelection = { suiteFiles: SUITE, selectedFiles: SUITE.slice(0, 2), notRun: [] };
    const results = [check(SUITE[0]!, ['ORG-ENV-ECHO']), check(SUITE[1]!, ['ORG-MERGE-EFFECT'], 'fail')];
    const s = buildSummary(run, results, undefined, { selection });
    expect(s.coverage.organization).toMatchObject({ scope: 'all', covered: 2, notRun: [] });
    expect(s.coverage.organization!.uncovered.length).toBe(ORG - 2 - s.coverage.organization!.untestable);
    for (const service of ['person', 'provider']) {
      expect(s.coverage[service]).toMatchObject({ scope: 'none', inScope: 0, covered: 0, uncovered: [] });
      expect(s.requirements.filter((r) => r.service === service).every((r) => r.outcome === 'not-run')).toBe(true);
    }
    const text = consoleSummary(s, 'reports/scope-run');
    expect(text).toContain('  person: not run (no test file of it selected)');
    expect(text).not.toMatch(/with a check 0 of/);
    expect(text).toContain('    failed requirements: ORG-MERGE-EFFECT');
  });

  it('a run of some files of a service counts what it did not select as not run', () => {
    const selection: RunSelection = { suiteFiles: SUITE, selectedFiles: [SUITE[0]!], notRun: [] };
    const s = buildSummary(run, [check(SUITE[0]!, ['ORG-ENV-ECHO'])], undefined, { selection });
    expect(s.coverage.organization).toMatchObject({ scope: 'part', covered: 1, uncovered: [] });
    expect(s.coverage.organization!.notRun.length).toBe(ORG - 1 - s.coverage.organization!.untestable);
    expect(s.requirements.find((r) => r.id === 'ORG-MERGE-EFFECT')!.outcome).toBe('not-run');
    const untestable = s.coverage.organization!.untestable;
    expect(consoleSummary(s, 'r')).toContain(
      `requirements with a check 1 of ${1 + untestable} (MUST 1 of ${s.coverage.organization!.must}); ${untestable} untestable, ${s.coverage.organization!.notRun.length} not run: outside the selection`,
    );
  });

  it('a name filter over every file: what it left out is not run, what no check cites is still a gap', () => {
    const selection: RunSelection = {
      suiteFiles: SUITE,
      selectedFiles: SUITE,
      notRun: [{ title: 'u [ORG-UNMERGE-EFFECT]', file: SUITE[1]!, verifies: ['ORG-UNMERGE-EFFECT'] }],
    };
    const s = buildSummary(run, [check(SUITE[1]!, ['ORG-MERGE-EFFECT'])], undefined, { selection });
    expect(s.coverage.organization!.scope).toBe('part');
    expect(s.requirements.find((r) => r.id === 'ORG-UNMERGE-EFFECT')!.outcome).toBe('not-run');
    expect(s.requirements.find((r) => r.id === 'ORG-LINK-EFFECT')!.outcome).toBe('uncovered');
    expect(s.scope).toEqual({ suiteFiles: 4, selectedFiles: SUITE, notRunChecks: 1 });
  });

  it('without a selection (an older run folder) every configured service counts as wholly selected', () => {
    const s = buildSummary(run, [check(SUITE[0]!, ['ORG-ENV-ECHO'])], undefined, {});
    expect(s.coverage.person!.scope).toBe('all');
    expect(s.requirements.find((r) => r.id === 'PERSON-MERGE-SHARED-LINK')!.outcome).toBe('uncovered');
  });
});

describe('the report line of the console summary', () => {
  it('names only the files the run folder holds: no exchanges/ or allure-results/ when none were written', () => {
    const s = buildSummary(run, [check('scenarios/organization/envelope.test.ts', ['ORG-ENV-ECHO'])], undefined);
    const folder = mkdtempSync(join(tmpdir(), 'cf-report-line-'));
    for (const f of ['summary.md', 'summary.json', 'junit.xml']) writeFileSync(join(folder, f), '');
    expect(consoleSummary(s, folder)).toContain(
      `  report: ${folder}/report.html (also summary.md, summary.json, junit.xml)\n`,
    );
    mkdirSync(join(folder, 'exchanges'));
    expect(consoleSummary(s, folder)).toContain(
      `  report: ${folder}/report.html (also summary.md, summary.json, junit.xml, exchanges/)\n`,
    );
  });
});

describe("a requirement's outcome from its checks", () => {
  const failedOn = (verifies: string[], failed: string[]): CheckResult => ({
    ...check(SUITE[1]!, verifies, 'fail'),
    failedRequirements: failed,
  });
  const outcome = (results: CheckResult[], id: string) =>
    buildSummary(run, results, undefined).requirements.find((r) => r.id === id)!.outcome;

  it('is never pass when its only check failed (on another requirement it verifies): skip, not verified', () => {
    const only = failedOn(['ORG-MERGE-REPLY', 'ORG-MERGE-EFFECT'], ['ORG-MERGE-EFFECT']);
    expect(outcome([only], 'ORG-MERGE-EFFECT')).toBe('fail');
    expect(outcome([only], 'ORG-MERGE-REPLY')).toBe('skip');
    const s = buildSummary(run, [only], undefined);
    const md = summaryMarkdown(s, mkdtempSync(join(tmpdir(), 'cf-outcome-')));
    expect(md).toMatch(/\| ORG-MERGE-REPLY +\| MUST +\| skip +\| fail: /);
  });

  it('a check that failed another requirement does not hide the one that passed it, nor a failure', () => {
    const other = failedOn(['ORG-MERGE-REPLY', 'ORG-MERGE-EFFECT'], ['ORG-MERGE-EFFECT']);
    expect(outcome([other, check(SUITE[1]!, ['ORG-MERGE-REPLY'])], 'ORG-MERGE-REPLY')).toBe('pass');
    expect(outcome([other, failedOn(['ORG-MERGE-REPLY'], ['ORG-MERGE-REPLY'])], 'ORG-MERGE-REPLY')).toBe('fail');
    expect(
      outcome(
        [check(SUITE[1]!, ['ORG-MERGE-REPLY'], 'skip'), check(SUITE[1]!, ['ORG-MERGE-REPLY'])],
        'ORG-MERGE-REPLY',
      ),
    ).toBe('skip');
  });
});
