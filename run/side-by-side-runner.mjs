/**
 * The vitest runner of a conformance run: one test worker runs several scenario files side by
 * side, instead of vitest's one file after another. Against a distant deployment a file's checks
 * mostly wait on the network, so files must overlap; doing it inside one worker instead of one
 * worker per file keeps one copy of the modules, compiled validators and Faker locales instead
 * of one per worker (docs/performance.md, item 23).
 *
 * How, in vitest 4.1's terms (both pinned by test/side-by-side-runner.test.ts):
 * - With `isolate: false` and one worker, vitest hands the worker all its files at once, and the
 *   worker calls startTests once per file, in order. A file's run goes through
 *   `runner.trace('run.spec', ...)`: this runner queues it there instead of running it.
 * - Once the batch's last file (the worker state's `ctx.files`) has been collected, the queued
 *   files run, `filesAtOnce` at a time (provided by vitest.config.ts), in the sequencer's order.
 *   Every file is collected before any check starts: vitest refuses to register a test while
 *   another test runs.
 * - Checks per file stay at `maxConcurrency`; the worker-wide bound on checks (vitest creates it
 *   once, at the first file) is `filesAtOnce × maxConcurrency`.
 * - If the worker state does not name the batch (a vitest that works otherwise), every file runs
 *   at once when handed over: one after another, as vitest does, slower but the same verdicts.
 *
 * Plain JavaScript: allure-vitest's reporter runs its own runner, which imports this one with
 * Node's import, which cannot load TypeScript. Files side by side share one thread's globals:
 * allure-vitest's test plan (ALLURE_TESTPLAN_PATH), which each file's setup sets and clears, would
 * not hold (the suite uses none). With --maxWorkers above 1 or --isolate, vitest hands each worker
 * one file at a time, and this runner runs it at once (run/global-setup.ts says so).
 */
import { TestRunner } from 'vitest';

/** Files of the worker's batch, in the order it runs them (vitest's worker state), or undefined. */
function batchFiles() {
  const files = globalThis.__vitest_worker__?.ctx?.files;
  return Array.isArray(files) && files.length ? files.map((f) => f.filepath) : undefined;
}

export default class SideBySideRunner extends TestRunner {
  /** @param {import('vitest').SerializedConfig} config */
  constructor(config) {
    super(config);
    /** @type {Array<() => Promise<unknown>>} files collected and waiting to run */
    this.queued = [];
    this.checksPerFile = config.maxConcurrency;
    const trace = this.trace;
    this.trace = (name, attributes, run) => {
      if (name !== 'run.spec') return trace(name, attributes, run);
      this.config.maxConcurrency = this.checksPerFile;
      this.queued.push(() => trace(name, attributes, run));
      const last = batchFiles()?.at(-1);
      if (last !== undefined && attributes?.['code.file.path'] !== last) return Promise.resolve();
      return this.runQueued();
    };
  }

  /** Scenario files run side by side (vitest.config.ts provides it; at least 1). */
  filesAtOnce() {
    const n = Number(this.injectValue('filesAtOnce'));
    return Number.isInteger(n) && n >= 1 ? n : 1;
  }

  onBeforeRunFiles(files) {
    // Read by vitest once, at the worker's first file, for its bound on checks across files.
    this.config.maxConcurrency = this.checksPerFile * this.filesAtOnce();
    return super.onBeforeRunFiles?.(files);
  }

  async runQueued() {
    const queue = this.queued.splice(0);
    let next = 0;
    let failure;
    // vitest's file run records its own failures; anything else thrown waits for the other files,
    // so that the batch never ends while a file still runs.
    const lane = async () => {
      while (next < queue.length) await queue[next++]().catch((e) => void (failure ??= { e }));
    };
    await Promise.all(Array.from({ length: Math.min(this.filesAtOnce(), queue.length) }, lane));
    if (failure) throw failure.e;
  }

  onAfterRunFiles(files) {
    // A file still queued: the batch's last file runs it and ends the batch.
    if (this.queued.length) return;
    return super.onAfterRunFiles(files);
  }
}
