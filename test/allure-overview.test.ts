/**
 * The Allure report says what every other report says (report/allure-run.ts, `npm run
 * report:allure`): its overview gives the run's verdict, exit code and target (the report's
 * title, its variables, and the gate as a global error when the run does not pass), and a failing
 * check that does not gate (EXPECT only) is marked apart from one that gates. Read from the
 * single-file report itself: the data it embeds for its overview and its test results.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeAllureRunInfo } from '../report/allure-run.js';
import { buildSummary } from '../report/summary.js';
import { runCli } from './support/cli.js';
import { makeRunFolder } from './support/report-fixture.js';

/** The files the single-file report embeds (name → decoded content). */
function embedded(html: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of html.matchAll(/d\("([^"]+)",\s*"([A-Za-z0-9+/=]*)"\)/g))
    files.set(m[1]!, Buffer.from(m[2]!, 'base64').toString('utf8'));
  return files;
}

let files: Map<string, string>;
let title: string;

beforeAll(() => {
  const { folder, run, results } = makeRunFolder();
  // The run's Allure results, as allure-vitest writes them with the labels of harness/allure.ts.
  const dir = join(folder, 'allure-results');
  mkdirSync(dir, { recursive: true });
  results.forEach((c, i) => {
    const status =
      c.verdict === 'pass' ? 'passed' : c.verdict === 'fail' ? 'failed' : c.verdict === 'error' ? 'broken' : 'skipped';
    writeFileSync(
      join(dir, `0000000${i}-0000-4000-8000-000000000000-result.json`),
      JSON.stringify({
        uuid: `0000000${i}-0000-4000-8000-000000000000`,
        name: `${c.title} [${c.verifies.join(' ')}]`,
        fullName: `${c.file}#${c.checkId}`,
        historyId: c.checkId,
        status,
        stage: 'finished',
        start: 1,
        stop: 2,
        labels: [
          { name: 'parentSuite', value: 'organization' },
          { name: 'suite', value: 'envelope' },
          { name: 'checkId', value: c.checkId },
        ],
      }),
    );
  });
  const summary = buildSummary(run, results, undefined);
  writeFileSync(join(folder, 'summary.json'), JSON.stringify(summary));
  writeAllureRunInfo(folder, summary);
  const r = runCli('report-allure', [folder]);
  expect(r.code, r.stderr).toBe(0);
  const html = readFileSync(join(folder, 'allure-report', 'index.html'), 'utf8');
  title = /<title>\s*([^<]*?)\s*<\/title>/.exec(html)![1]!;
  files = embedded(html);
}, 120000);

describe('the Allure overview', () => {
  it('names the verdict and exit code in the title', () => {
    expect(title).toBe('Conformance staging.example.com: run fixture-run: FAIL (exit code 1)');
  });

  it('lists verdict, exit code, target and the gate in counts as its variables', () => {
    const variables = JSON.parse(files.get('widgets/variables.json')!);
    expect(variables).toMatchObject({
      verdict: 'FAIL',
      'exit code': '1',
      target: expect.stringMatching(
        /^configured deployment: organization at https:\/\/(\[REDACTED\]@)?staging\.example\.com/,
      ),
      gate: expect.stringMatching(/^2 gating, 1 EXPECT-only \(not gating\), 0 known, 0 pending/),
    });
    expect(JSON.stringify(variables), 'no credential of the target URL').not.toContain('hunter2');
  });

  it('shows the failing gate as a global error, with the checks that fail it', () => {
    const globals = JSON.parse(files.get('widgets/globals.json')!);
    expect(globals.errors).toHaveLength(1);
    expect(globals.errors[0].message).toBe('Conformance run fixture-run: FAIL (exit code 1)');
    expect(globals.errors[0].trace).toContain('organization/envelope/echo');
    expect(globals.errors[0].trace).toContain('2 checks fail the gate (exit code 1).');
  });

  it('marks a gating failure and an EXPECT-only failure apart (tag and severity)', () => {
    const results = [...files.entries()]
      .filter(([name]) => /^data\/test-results\//.test(name))
      .map(([, content]) => JSON.parse(content) as { name: string; labels: Array<{ name: string; value: string }> });
    const labels = (id: string) => {
      const r = results.find((x) =>
        x.labels.some((l) => l.name === 'checkId' && l.value === `organization/envelope/${id}`),
      )!;
      return Object.fromEntries(
        r.labels.filter((l) => ['gate', 'tag', 'severity'].includes(l.name)).map((l) => [l.name, l.value]),
      );
    };
    expect(labels('echo')).toEqual({ gate: 'gating', tag: 'gating', severity: 'critical' });
    expect(labels('retryable')).toEqual({ gate: 'expect-only', tag: 'EXPECT only, not gating', severity: 'minor' });
    expect(labels('passing')).toEqual({});
  });
});
