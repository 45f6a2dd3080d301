/**
 * Allure results of a conformance run, written as each scenario file ends instead of all at the end. allure-vitest's
 * reporter writes every result in its onTestRunEnd, one file at a time with an fsync each, and vitest starts the global
 * teardown (the last removals, the reports) only after it: about 0.2 s of every run's wind-down for 310 checks
 * (docs/performance.md, item 30). The results are the same: the same reporter's handleTask turns the same finished
 * tasks into results; a file's results are written once its module has ended, and whatever did not end (an interrupted
 * run) is written at the end, as before.
 *
 * Each check's result, container and attachment is written without an fsync (ResultsWriter): allure-js-commons' writer
 * syncs every file to disk, on the vitest process's thread, which also serves the test worker's modules and sends the
 * run's removals (about 0.7 s of its CPU in a run of 300 checks here, more on a slower disk: docs/performance.md, item
 * 39).
 *
 * Options: allure-vitest's (`resultsDir`, `links`, ...).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestResult, TestResultContainer } from 'allure-js-commons';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { TestModule, Vitest } from 'vitest/node';
import writeFileAtomic from 'write-file-atomic';

/**
 * allure-js-commons' file writer, with a check's result, container and attachment written to a temporary file and
 * renamed into place without syncing it to disk first: a reader (Allure's own watch mode, `npm run report:allure`)
 * still never sees half a file. What a crash of the machine may lose is the report of a run that did not end, which is
 * no evidence either way. The files written once per run (environment, categories) keep the library's fsync.
 */
export class ResultsWriter extends FileSystemWriter {
  constructor(private readonly dir: string) {
    super({ resultsDir: dir });
    mkdirSync(dir, { recursive: true });
  }

  override writeResult(result: TestResult): void {
    this.publish(`${result.uuid}-result.json`, JSON.stringify(result));
  }

  override writeGroup(result: TestResultContainer): void {
    this.publish(`${result.uuid}-container.json`, JSON.stringify(result));
  }

  override writeAttachment(distFileName: string, content: Buffer): void {
    this.publish(distFileName, content);
  }

  private publish(name: string, content: string | Buffer): void {
    writeFileAtomic.sync(join(this.dir, name), content, { fsync: false });
  }
}

export default class AllureReporterPerFile extends AllureVitestReporter {
  /** Modules whose results are written already, by id. */
  private readonly written = new Set<string>();
  private readonly resultsDir: string;

  constructor(config: ConstructorParameters<typeof AllureVitestReporter>[0] = {}) {
    super(config);
    this.resultsDir = config.resultsDir ?? './allure-results';
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    // allure-vitest makes its runtime's writer itself; under ALLURE_TEST_MODE it is a message writer, left as it is.
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: unknown } }).allureReporterRuntime;
    if (runtime && runtime.writer instanceof FileSystemWriter) runtime.writer = new ResultsWriter(this.resultsDir);
  }

  onTestModuleEnd(module: TestModule): void {
    this.written.add(module.id);
    // The runner task behind the module, as allure-vitest's own onTestRunEnd reads it (vitest's types keep `task`
    // internal).
    this.handleTask((module as unknown as { task: Parameters<AllureVitestReporter['handleTask']>[0] }).task);
  }

  override onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    super.onTestRunEnd(modules.filter((m) => !this.written.has(m.id)));
  }
}
