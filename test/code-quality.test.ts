/**
 * House rules a reviewer should not have to check by eye: the formatter and linter (Biome,
 * biome.json: line width 120, no unused variables, imports or parameters) find nothing, and the
 * whole project type-checks (tsconfig.json, noUnusedLocals and noUnusedParameters on).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const bin = (pkg: string, path: string) => join(dirname(require.resolve(`${pkg}/package.json`)), path);

const run = (args: string[]) =>
  spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

describe('code quality', () => {
  it('biome check finds no formatting or lint problem', () => {
    const r = run([bin('@biomejs/biome', 'bin/biome'), 'check', '.']);
    expect(r.status, (r.stdout + r.stderr).slice(-4000)).toBe(0);
  }, 120000);

  it('tsc --noEmit finds no type error', () => {
    const r = run([bin('typescript', 'bin/tsc'), '--noEmit', '-p', ROOT]);
    expect(r.status, (r.stdout + r.stderr).slice(-4000)).toBe(0);
  }, 300000);
});
