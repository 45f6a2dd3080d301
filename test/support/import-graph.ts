/**
 * The project's import graph as dependency-cruiser resolves it: what a module loads by its static
 * imports (type-only and dynamic imports left out), for tests of what a process loads at start.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** Every module reachable by static imports from `entries`, as dependency-cruiser resolves them. */
export function reachable(entries: string[]): Set<string> {
  const r = spawnSync(
    process.execPath,
    [
      BIN,
      '--no-config',
      '--ts-config',
      'tsconfig.json',
      '--ts-pre-compilation-deps',
      '--output-type',
      'json',
      '--do-not-follow',
      'node_modules',
      ...entries,
    ],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  expect(r.status, r.stderr).toBe(0);
  const modules = (
    JSON.parse(r.stdout) as {
      modules: Array<{
        source: string;
        dependencies: Array<{ resolved: string; dynamic: boolean; dependencyTypes: string[] }>;
      }>;
    }
  ).modules;
  const edges = new Map(
    modules.map((m) => [
      m.source,
      m.dependencies.filter((d) => !d.dynamic && !d.dependencyTypes.includes('type-only')).map((d) => d.resolved),
    ]),
  );
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const m = stack.pop()!;
    if (seen.has(m)) continue;
    seen.add(m);
    stack.push(...(edges.get(m) ?? []));
  }
  return seen;
}
