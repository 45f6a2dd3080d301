/**
 * An interrupted run the command had to end hard before the run wrote its report (its wind-down took longer than the
 * command waits, as on a machine whose cores are busy): the command writes the report itself, marked INTERRUPTED, from
 * the results the checks that ended left (run/cli/conformance-finish.ts), instead of "no report: the run was ended
 * before it wrote one". Seen at nice 19 on two cores loaded ten times over: a Ctrl-C 25 s into an organization run
 * ended with no report and results.json holding the checks that had ended.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Summary } from '../report/summary.js';
import { finish } from '../run/cli/conformance-finish.js';
import type { RunPlan } from '../run/cli/conformance-prepare.js';
import { folderBefore } from '../run/run-folder.js';
import { makeRunFolder } from './support/report-fixture.js';

afterEach(() => vi.restoreAllMocks());

describe('a run ended hard before it wrote its report', () => {
  it('gets its report from the command, marked INTERRUPTED, with the checks that ended (exit 130)', async () => {
    const f = makeRunFolder();
    const run = {
      ...f.run,
      embedded: true,
      targets: f.run.targets.map((t) => ({ ...t, status: 'embedded' as const })),
    };
    writeFileSync(join(f.folder, 'run.json'), JSON.stringify(run));
    writeFileSync(join(f.folder, 'results.json'), JSON.stringify(f.results.filter((r) => r.verdict === 'pass')));
    const plan: RunPlan = {
      runId: run.runId,
      summaryFile: join(f.folder, 'summary.json'),
      vitestArgs: [],
      nodeArgs: [],
      before: { ...folderBefore(f.reportDir, run.runId), reportDirExisted: true, folderExisted: false },
      set: {},
      unset: [],
      stopPipe: { fd: -1, env: {} },
    };
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    const code = await finish(plan, {
      code: null,
      signal: 'SIGKILL',
      interrupted: 'SIGINT',
      reason: 'SIGINT to npm run conformance',
      hard: 'the run did not wind down within 20 s',
    });
    expect(code, lines.join('\n')).toBe(130);
    expect(lines.join('\n')).not.toContain('no report');
    expect(lines).toContain(`conformance: its report, marked INTERRUPTED: ${join(f.folder, 'report.html')}`);
    const summary = JSON.parse(readFileSync(plan.summaryFile, 'utf8')) as Summary;
    expect(summary.interrupted).toMatchObject({ signal: 'SIGINT', reason: 'SIGINT to npm run conformance' });
    expect(summary.totals.checks).toBe(1);
    expect(existsSync(join(f.folder, 'report.html'))).toBe(true);
    expect(readFileSync(join(f.folder, 'report.html'), 'utf8')).toMatch(/<h1>Conformance run fixture-run: INTERRUPTED/);
  });
});
