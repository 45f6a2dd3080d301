/**
 * report/allure-reporter.ts against allure-vitest as installed: a scenario file's Allure results
 * are on disk once its module has ended, and the end of the run writes only the files not written
 * yet (each check's result once). Vitest's TestModule is stood in for by what the reporter reads:
 * its id and its runner task tree. Each check's result is written without an fsync (the
 * library's writer syncs every file), into place by a rename, leaving no temporary file.
 */
import fs, { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import AllureReporterPerFile from '../report/allure-reporter.js';

/** A module of one passed check, as the reporter sees it. */
function moduleOf(file: string, check: string): TestModule {
  const task: Record<string, unknown> = {
    type: 'suite',
    mode: 'run',
    name: file,
    filepath: join(process.cwd(), file),
    meta: {},
    result: { state: 'pass' },
    tasks: [],
  };
  const test = {
    type: 'test',
    mode: 'run',
    name: check,
    file: task,
    meta: {},
    result: { state: 'pass', startTime: Date.now(), duration: 5 },
  };
  (task.tasks as unknown[]).push(test);
  return { id: file, task } as unknown as TestModule;
}

const resultNames = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { name: string }).name)
    .sort();

describe('Allure results per file', () => {
  it("writes a file's results when its module ends, and only the rest at the end of the run", () => {
    const resultsDir = mkdtempSync(join(tmpdir(), 'allure-per-file-'));
    const reporter = new AllureReporterPerFile({ resultsDir });
    reporter.onInit({ projects: [] } as unknown as Vitest);
    const first = moduleOf('scenarios/a.test.ts', 'check of a');
    const second = moduleOf('scenarios/b.test.ts', 'check of b');

    reporter.onTestModuleEnd(first);
    expect(resultNames(resultsDir)).toEqual(['check of a']);

    reporter.onTestRunEnd([first, second]);
    expect(resultNames(resultsDir)).toEqual(['check of a', 'check of b']);
  });
});

describe('Allure results without an fsync each', () => {
  const fsyncSync = fs.fsyncSync;
  afterEach(() => {
    fs.fsyncSync = fsyncSync;
    syncBuiltinESMExports();
  });

  it("writes a check's result without syncing it to disk, and leaves no temporary file", () => {
    const resultsDir = mkdtempSync(join(tmpdir(), 'allure-no-fsync-'));
    const reporter = new AllureReporterPerFile({ resultsDir });
    reporter.onInit({ projects: [] } as unknown as Vitest);
    const synced: number[] = [];
    // allure-js-commons imports fsyncSync by name: the named export follows the default object once synced.
    fs.fsyncSync = (fd: number) => {
      synced.push(fd);
      fsyncSync(fd);
    };
    syncBuiltinESMExports();
    reporter.onTestModuleEnd(moduleOf('scenarios/a.test.ts', 'check of a'));
    reporter.onTestRunEnd([]);
    expect(resultNames(resultsDir)).toEqual(['check of a']);
    expect(synced, 'fsync calls while writing the results').toEqual([]);
    // Nothing but the results and the run's two files: no temporary file left, whatever its name.
    expect(
      readdirSync(resultsDir).filter((f) => !/-result\.json$|^categories\.json$|^environment\.properties$/.test(f)),
    ).toEqual([]);
  });
});
