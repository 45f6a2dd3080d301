/**
 * Vitest reporter that collects every check's verdict and metadata into `results.json` in the
 * run's folder; the global teardown turns it into the summary, JUnit and Markdown reports.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import type { CheckMeta, Verdict } from '../harness/verdict.js';
import type { CheckResult } from './results.js';

export const RUN_FOLDER_ENV = 'CONFORMANCE_ACTIVE_RUN_FOLDER';

export default class ConformanceReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const folder = process.env[RUN_FOLDER_ENV];
    if (!folder) return;
    const results: CheckResult[] = [];
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const meta = (test.meta() as { check?: CheckMeta }).check;
        const r = test.result();
        const verdict: Verdict = meta?.verdict ?? (r.state === 'passed' ? 'pass' : r.state === 'skipped' ? 'skip' : 'error');
        const error = r.state === 'failed' ? r.errors?.[0] : undefined;
        results.push({
          checkId: meta?.checkId ?? `${relative(process.cwd(), mod.moduleId)}/${test.fullName}`,
          title: test.name,
          file: relative(process.cwd(), mod.moduleId),
          service: meta?.service ?? 'unknown',
          area: meta?.area ?? 'unknown',
          verifies: meta?.verifies ?? [],
          verdict,
          failedRequirements: meta?.failedRequirements ?? [],
          message: error ? String(error.message ?? error) : undefined,
          note: meta?.note ?? (r.state === 'skipped' ? (r as { note?: string }).note : undefined),
          durationMs: Math.round(test.diagnostic()?.duration ?? 0),
          operations: meta?.operations ?? [],
          exchangesFile: meta?.exchangesFile ? relative(folder, meta.exchangesFile) : undefined,
          lags: meta?.lags,
          ...(meta?.retries ? { retries: meta.retries } : {}),
        });
      }
    }
    writeFileSync(join(folder, 'results.json'), JSON.stringify(results, null, 2));
  }
}
