/**
 * report/allure-reporter.ts against allure-vitest as installed: a scenario file's Allure results
 * are on disk once its module has ended, and the end of the run writes only the files not written
 * yet (each check's result once). Vitest's TestModule is stood in for by what the reporter reads:
 * its id and its runner task tree.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
