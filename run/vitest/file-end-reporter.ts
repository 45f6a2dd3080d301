/**
 * Tells the run's main process which scenario files each vitest project holds, when the first check has ended and when
 * each file has ended
 * (run/vitest/file-events.ts), so the records of a file whose checks have all ended can be removed while the run goes
 * on (run/vitest/early-removal.ts).
 */
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { checkEnded, fileEnded, filesSelected } from './file-events.js';

const fromRoot = (moduleId: string) => relative(process.cwd(), moduleId);

export default class FileEndReporter implements Reporter {
  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    const byProject = new Map<string, string[]>();
    for (const s of specifications)
      byProject.set(s.project.name, [...(byProject.get(s.project.name) ?? []), fromRoot(s.moduleId)]);
    for (const [project, files] of byProject) filesSelected(project, files);
  }

  onTestCaseResult(test: TestCase): void {
    checkEnded(test.project.name);
  }

  onTestModuleEnd(testModule: TestModule): void {
    fileEnded(testModule.project.name, fromRoot(testModule.moduleId), testModule.state() !== 'failed');
  }
}
