/**
 * Allure results of a conformance run, written as each scenario file ends instead of all at the
 * end. allure-vitest's reporter writes every result in its onTestRunEnd, one file at a time with
 * an fsync each, and vitest starts the global teardown (the last removals, the reports) only
 * after it: about 0.2 s of every run's wind-down for 310 checks (docs/performance.md, item 30).
 * The results are the same: the same reporter's handleTask turns the same finished tasks into
 * results; a file's results are written once its module has ended, and whatever did not end
 * (an interrupted run) is written at the end, as before.
 *
 * Options: allure-vitest's (`resultsDir`, `links`, ...).
 */
import AllureVitestReporter from 'allure-vitest/reporter';
import type { TestModule } from 'vitest/node';

export default class AllureReporterPerFile extends AllureVitestReporter {
  /** Modules whose results are written already, by id. */
  private readonly written = new Set<string>();

  onTestModuleEnd(module: TestModule): void {
    this.written.add(module.id);
    // The runner task behind the module, as allure-vitest's own onTestRunEnd reads it (vitest's
    // types keep `task` internal).
    this.handleTask((module as unknown as { task: Parameters<AllureVitestReporter['handleTask']>[0] }).task);
  }

  override onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    super.onTestRunEnd(modules.filter((m) => !this.written.has(m.id)));
  }
}
