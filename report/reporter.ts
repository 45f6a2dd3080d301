/**
 * Vitest reporter that collects every check's verdict and metadata into `results.json` in the run's folder, and what
 * the run selected into `selection.json` (report/results.ts RunSelection); the global teardown turns them into the
 * summary, JUnit and Markdown reports. A test a name filter left out (declared skipped, never started), or one an
 * interrupt kept from starting, is not a check of this run: it is listed in selection.json as not run, not counted as a
 * skip.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { HANDOFF } from '../harness/handoff.js';
import { INTERRUPTED_NOTE, type Verdict } from '../harness/verdict.js';
import type { CheckResult, RunSelection } from './results.js';

/** True for a test that was filtered out at collection (never run, no check metadata). */
export const leftOut = (test: TestCase): boolean =>
  !test.meta().check && test.result().state === 'skipped' && test.options.mode === 'skip';

export default class ConformanceReporter implements Reporter {
  private vitest?: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors?: unknown, reason?: string): Promise<void> {
    const folder = HANDOFF.runFolder.read();
    if (!folder) return;
    const rel = (file: string) => relative(process.cwd(), file);
    const results: CheckResult[] = [];
    const notRun: RunSelection['notRun'] = [];
    for (const mod of modules) {
      // A scenario file that could not load (an error while collecting its checks) ran none of them: an error of the
      // run, which gates, never a quietly smaller PASS.
      for (const e of mod.errors())
        results.push({
          checkId: `${rel(mod.moduleId)}/could-not-load`,
          title: `the scenario file loads and declares its checks`,
          file: rel(mod.moduleId),
          service: /scenarios\/(organization|person|provider)\//.exec(rel(mod.moduleId))?.[1] ?? 'unknown',
          area: 'load',
          verifies: [],
          verdict: 'error',
          failedRequirements: [],
          message: `the file could not run: ${String(e.message ?? e)}`,
          durationMs: 0,
          operations: [],
        });
      for (const test of mod.children.allTests()) {
        const declared = test.meta().declared;
        // A run cancelled by an interrupt (run/interrupt.ts) never started the checks it had not begun: not run, like
        // those a filter left out.
        if (leftOut(test) || (reason === 'interrupted' && !test.meta().check)) {
          notRun.push({
            title: declared?.title ?? test.name,
            file: rel(mod.moduleId),
            verifies: declared?.verifies ?? [],
          });
          continue;
        }
        const meta = test.meta().check;
        const r = test.result();
        // A check the interrupt cut short may end after vitest marked it skipped: its own verdict never arrives.
        const cut = reason === 'interrupted' && meta && !meta.verdict;
        const verdict: Verdict =
          meta?.verdict ?? (cut || r.state === 'skipped' ? 'skip' : r.state === 'passed' ? 'pass' : 'error');
        const error = r.state === 'failed' ? r.errors?.[0] : undefined;
        results.push({
          checkId: meta?.checkId ?? `${rel(mod.moduleId)}/${test.fullName}`,
          title: declared?.title ?? test.name,
          file: rel(mod.moduleId),
          service: meta?.service ?? 'unknown',
          area: meta?.area ?? 'unknown',
          verifies: meta?.verifies ?? [],
          verdict,
          failedRequirements: meta?.failedRequirements ?? [],
          message: error ? String(error.message ?? error) : undefined,
          ...(meta?.failure ? { failure: meta.failure } : {}),
          note:
            meta?.note ?? (cut ? INTERRUPTED_NOTE : r.state === 'skipped' ? (r as { note?: string }).note : undefined),
          durationMs: Math.round(test.diagnostic()?.duration ?? 0),
          operations: meta?.operations ?? [],
          exchangesFile: meta?.exchangesFile ? relative(folder, meta.exchangesFile) : undefined,
          lags: meta?.lags,
          ...(meta?.retries ? { retries: meta.retries } : {}),
          ...(meta?.requests !== undefined ? { requests: meta.requests } : {}),
          ...(meta?.categories?.length ? { categories: meta.categories } : {}),
          ...(meta?.situations ? { situations: meta.situations } : {}),
          ...(meta?.couldNotJudge && verdict === 'error' ? { couldNotJudge: true } : {}),
        });
      }
    }
    writeFileSync(join(folder, 'results.json'), JSON.stringify(results, null, 2));
    const suiteFiles = new Set<string>();
    for (const project of this.vitest?.projects ?? [])
      for (const f of (await project.globTestFiles()).testFiles) suiteFiles.add(rel(f));
    const selection: RunSelection = {
      suiteFiles: [...suiteFiles].sort(),
      selectedFiles: [...new Set(modules.map((m) => rel(m.moduleId)))].sort(),
      notRun,
    };
    writeFileSync(join(folder, 'selection.json'), JSON.stringify(selection, null, 2));
  }
}
