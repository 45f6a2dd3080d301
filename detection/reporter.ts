/**
 * Reporter of a detection run: one row per check with its project (the fault), verdict and failed requirements, written
 * to results.json in HANDOFF.detectionDir; and a FILE_DONE line on stdout as each scenario file ends (all its runs),
 * from which the runner tells the user how far it is.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { HANDOFF } from '../harness/handoff.js';
import { planName } from './isolated-phase.js';

export interface DetectionRow {
  project: string;
  file: string;
  checkId: string;
  verdict: string;
  failedRequirements: string[];
  verifies: string[];
  /**
   * The check's test name as a conformance run registers it (`<title> [<requirements>]`, without the detection run's
   * suffix): what `-t` replays.
   */
  name?: string;
  /** Duration of the check, ms. */
  ms?: number;
  message?: string;
  /**
   * Set on an error the check raised because it could not judge (harness/verdict.ts CouldNotJudge): INCOMPLETE, not
   * failed.
   */
  couldNotJudge?: boolean;
}

/** Start of the stdout line that says a scenario file has ended (detection/runner.ts reads it). */
export const FILE_DONE = '[detection] file done: ';

export default class DetectionReporter implements Reporter {
  onTestModuleEnd(mod: TestModule): void {
    process.stdout.write(`${FILE_DONE}${relative(process.cwd(), mod.moduleId)}\n`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows: DetectionRow[] = [];
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const meta = test.meta().check;
        const r = test.result();
        // Checks filtered out by RunInfo.only never ran: not a row.
        if (!meta && r.state === 'skipped') continue;
        const error = r.state === 'failed' ? r.errors?.[0] : undefined;
        rows.push({
          project: test.meta().variant ?? planName(mod.project.name),
          file: relative(process.cwd(), mod.moduleId),
          checkId: meta?.checkId ?? test.fullName,
          verdict: meta?.verdict ?? (r.state === 'passed' ? 'pass' : r.state === 'skipped' ? 'skip' : 'error'),
          failedRequirements: meta?.failedRequirements ?? [],
          verifies: meta?.verifies ?? [],
          name: test.name.replace(/ \{[^{}]*\}$/, ''),
          ms: Math.round(test.diagnostic()?.duration ?? 0),
          ...(error ? { message: String(error.message ?? error).slice(0, 500) } : {}),
          ...(meta?.couldNotJudge && meta.verdict === 'error' ? { couldNotJudge: true } : {}),
        });
      }
    }
    writeFileSync(join(HANDOFF.detectionDir.need(), 'results.json'), JSON.stringify(rows));
  }
}
