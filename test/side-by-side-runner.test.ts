/**
 * run/vitest/side-by-side-runner.mjs against vitest as installed: files of one worker run side by side,
 * in `filesAtOnce × maxConcurrency` places for checks, each file taking as many as it has checks
 * (at most maxConcurrency), each keeping vitest's maxConcurrency for its own checks. The fixture
 * (test/support/side-by-side) has three files of three checks whose first checks wait for one
 * another: they pass only when the three run at once; its other checks count how many of a file's
 * checks ran together. A file gives back the places of its ended checks, so the barrier is also
 * met when the places hold two whole files but the third fits beside their barrier checks. An
 * isolated file (bad input) waits for the other files of its isolation group only (groups/), and
 * a file of a service whose requests wait for places starts after other services' files (load/).
 * Allure's runner wraps this one there, as in a conformance run. A vitest or allure-vitest upgrade
 * that changes what the runner hooks into turns this red.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

interface Outcome {
  passed: string[];
  failed: string[];
}

function runFixture(filesAtOnce: number, checksPerFile = 1, phase = false, env: Record<string, string> = {}): Outcome {
  const r = spawnSync(process.execPath, [VITEST, 'run', '--config', 'test/support/side-by-side/vitest.config.ts'], {
    encoding: 'utf8',
    env: {
      ...process.env,
      FILES_AT_ONCE: String(filesAtOnce),
      CHECKS_PER_FILE: String(checksPerFile),
      ...(phase ? { PHASE: '1' } : {}),
      ...env,
      FORCE_COLOR: '0',
      ALLURE_RESULTS_DIR: mkdtempSync(join(tmpdir(), 'side-by-side-allure-')),
    },
  });
  if (!r.stdout.includes('{'))
    throw new Error(`the fixture run printed no results (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as {
    testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>;
  };
  const all = json.testResults.flatMap((f) => f.assertionResults);
  return {
    passed: all.filter((t) => t.status === 'passed').map((t) => t.title),
    failed: all.filter((t) => t.status === 'failed').map((t) => t.title),
  };
}

/** The first two files to run (in vitest's order) wait alone at the barrier; the last finds both arrived. */
function expectOneAfterAnother(r: Outcome): void {
  expect(r.failed.filter((t) => t.includes('meets the other files'))).toHaveLength(2);
  expect(r.passed.filter((t) => t.includes('meets the other files'))).toHaveLength(1);
  expect(r.failed.filter((t) => !t.includes('meets the other files'))).toEqual([]);
}

describe('side-by-side runner', () => {
  it('runs an isolated area (bad input) only once every other file has ended, though places were free', () => {
    const r = runFixture(4, 1, true);
    expect(r.failed).toEqual([]);
    expect(r.passed).toContain('the isolated file runs after every other file');
  });

  it("runs an isolated file once its own isolation group's other files have ended, beside another group's files", () => {
    const apart = runFixture(4, 1, false, { GROUPS: '1' });
    expect(apart.failed).toEqual([]);
    expect(apart.passed).toContain('west bad input starts after west and as its group requires');
    // One group (services at one service URL): west's isolated file waits for east's long check too.
    const together = runFixture(4, 1, false, { GROUPS: '1', SAME_GROUP: '1' });
    expect(together.failed).toEqual([]);
    expect(together.passed).toHaveLength(3);
  });

  it('starts a later file of a service with room before the next file of a saturated service (whose requests wait for places)', () => {
    const order = (saturated: boolean) => {
      const file = join(mkdtempSync(join(tmpdir(), 'side-by-side-order-')), 'order');
      writeFileSync(file, '');
      const r = runFixture(2, 1, false, { LOAD: '1', ORDER_FILE: file, ...(saturated ? { EAST_SATURATED: '1' } : {}) });
      expect(r.failed).toEqual([]);
      return readFileSync(file, 'utf8');
    };
    // In path order east/a, east/b, west/c, two files at once: a and b first, c in the first free place.
    expect(order(false)).toBe('abc');
    // East saturated: west's c goes first; east's files start only when nothing else runs (a, then b).
    expect(order(true)).toBe('cab');
  });

  it("runs the worker's files at once, each file's checks still one at a time under maxConcurrency 1", () => {
    const r = runFixture(3);
    expect(r.failed).toEqual([]);
    expect(r.passed).toHaveLength(9);
  });

  it('runs them one after another with filesAtOnce 1 (the fixture can fail)', () => {
    expectOneAfterAnother(runFixture(1));
    // Three places (maxConcurrency 3), and each file can use all three: still one file at a time.
    expectOneAfterAnother(runFixture(1, 3));
  });

  it("gives back the places of a file's ended checks: in six places, the third file starts once the first two have only their barrier check left", () => {
    // Each file takes three places; once its two short checks end it holds one, and the third file's three fit.
    const r = runFixture(2, 3);
    expect(r.failed).toEqual([]);
    expect(r.passed).toHaveLength(9);
  });

  it('gives the places a file cannot use to the next files: three files of three checks in the nine places of one file', () => {
    const r = runFixture(1, 9);
    expect(r.failed).toEqual([]);
    expect(r.passed).toHaveLength(9);
  });
});
