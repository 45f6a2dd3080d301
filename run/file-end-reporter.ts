/**
 * Tells the run's main process which scenario files the run holds and when each has ended
 * (run/file-events.ts), so the records of a file whose checks have all ended can be removed while
 * the run goes on (run/early-removal.ts).
 */
import { relative } from 'node:path';
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';
import { fileEnded, filesSelected } from './file-events.js';

const fromRoot = (moduleId: string) => relative(process.cwd(), moduleId);

export default class FileEndReporter implements Reporter {
  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    filesSelected(specifications.map((s) => fromRoot(s.moduleId)));
  }

  onTestModuleEnd(testModule: TestModule): void {
    fileEnded(fromRoot(testModule.moduleId));
  }
}
