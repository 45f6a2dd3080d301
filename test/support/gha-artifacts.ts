/**
 * actions/upload-artifact@v4 and actions/download-artifact@v4 as they lay files out, for running a workflow's steps
 * on this machine (test/ci-examples.test.ts). What they do, from their documentation and source:
 *
 * - upload: `path` is one pattern or path a line (`!` excludes). A pattern's search path is its part before the
 *   first segment holding a wildcard; a plain path is its own search path. The artifact's root is the search path
 *   (a file's: its folder), or with several the least common ancestor of all; "the path hierarchy is preserved after
 *   the first wildcard". A matched folder brings every file under it. Hidden files (a name starting with a dot) stay
 *   out unless `include-hidden-files: true` (from v4.4).
 * - download: with `name`, the artifact's files go into `path`; without (all artifacts, or those `pattern` matches,
 *   minimatch), each artifact goes into `path/<artifact name>/`, unless `merge-multiple: true` puts them all into
 *   `path`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { minimatch } from 'minimatch';

/** One uploaded artifact: its name and each file, by its path inside the artifact, with the file it came from. */
export interface Artifact {
  name: string;
  files: Map<string, string>;
}

const MAGIC = /[*?[{]/;
const posix = (p: string) => p.split(sep).join('/');

/** Every file under `path` (itself when it is a file). */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((n) => filesUnder(join(path, n)));
}

/** A pattern's search path: its segments before the first one holding a wildcard. */
function searchPath(pattern: string, cwd: string): string {
  const segments = pattern.replace(/\/+$/, '').split('/');
  const plain = segments.findIndex((s) => MAGIC.test(s));
  const kept = plain < 0 ? segments : segments.slice(0, plain);
  const p = kept.join('/') || '.';
  return isAbsolute(p) ? p : resolve(cwd, p);
}

/** The least common ancestor of some absolute paths. */
function commonAncestor(paths: string[]): string {
  const split = paths.map((p) => p.split(sep));
  const first = split[0]!;
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return first.slice(0, n).join(sep) || sep;
}

/**
 * What upload-artifact@v4 uploads for `with: { name, path }`, run in `cwd`.
 * @throws Error when nothing matches (the action's `if-no-files-found: error`; its default only warns, and then
 *   uploads no artifact, which a later download misses just the same)
 */
export function uploadArtifact(
  inputs: { name: string; path: string; 'include-hidden-files'?: boolean },
  cwd: string,
): Artifact {
  const lines = inputs.path
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const includes = lines.filter((l) => !l.startsWith('!'));
  const excludes = lines.filter((l) => l.startsWith('!')).map((l) => l.slice(1));
  const matches = (pattern: string, file: string) => {
    const rel = posix(relative(cwd, file));
    const p = pattern.replace(/\/+$/, '');
    // A pattern that names a folder brings what is under it: the file, or one of its folders, matches.
    const parts = rel.split('/');
    return parts.some((_, i) => minimatch(parts.slice(0, i + 1).join('/'), p, { dot: true }));
  };
  const roots = includes.map((i) => searchPath(i, cwd));
  const files = new Set<string>();
  includes.forEach((pattern, i) => {
    for (const f of filesUnder(roots[i]!))
      if (matches(pattern, f) && !excludes.some((x) => matches(x, f))) files.add(f);
  });
  if (!files.size) throw new Error(`upload-artifact: no files were found with the provided path: ${inputs.path}`);
  const single = roots.length === 1 ? roots[0]! : commonAncestor(roots);
  const root = existsSync(single) && !statSync(single).isDirectory() ? dirname(single) : single;
  const shown = (path: string) => inputs['include-hidden-files'] || !path.split('/').some((s) => s.startsWith('.'));
  const entries = [...files].map((f) => [posix(relative(root, f)), f] as const).filter(([path]) => shown(path));
  return { name: inputs.name, files: new Map(entries) };
}

/** What download-artifact@v4 writes for `with: { name | pattern, path, merge-multiple }`, run in `cwd`. */
export function downloadArtifacts(
  artifacts: Artifact[],
  inputs: { name?: string; pattern?: string; path?: string; 'merge-multiple'?: boolean },
  cwd: string,
): void {
  const into = resolve(cwd, inputs.path ?? '.');
  const chosen = inputs.name
    ? artifacts.filter((a) => a.name === inputs.name)
    : artifacts.filter((a) => !inputs.pattern || minimatch(a.name, inputs.pattern));
  if (inputs.name && !chosen.length) throw new Error(`download-artifact: artifact not found: ${inputs.name}`);
  for (const a of chosen) {
    const base = inputs.name || inputs['merge-multiple'] ? into : join(into, a.name);
    for (const [path, from] of a.files) {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      cpSync(from, join(base, path));
    }
  }
}
