/**
 * The sandbox a mutation measure runs the conformance command in: a copy of the project's files
 * (tracked and untracked, not ignored: what `git ls-files` lists) with the behaviour files
 * replaced by their instrumented text, and `node_modules` a folder of links to the project's
 * packages with caches of its own. The sandbox never runs the project's own compiled code nor the
 * project the sandbox's: run/cli/compiled.mjs names a compiled file after its source's absolute
 * path, vitest's module cache keys a module by its content and the project root, and the caches
 * are the sandbox's (linkPackages): they are made by the measure's first runs and go with it.
 *
 * One sandbox per checkout and label, at a fixed path under the system's temporary folder, held by
 * a lock file while a measure uses it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

export interface Sandbox {
  root: string;
  /** Removes the sandbox and its lock. */
  remove(): void;
}

const SKIPPED = new Set(['node_modules', 'reports', '.git']);

/** The project's files relative to `root`: git's list where it is a checkout, else every file but node_modules and reports. */
function projectFiles(root: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    });
    return out.split('\0').filter(Boolean);
  } catch {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        SKIPPED.has(d.name) ? [] : d.isDirectory() ? walk(join(dir, d.name)) : [relative(root, join(dir, d.name))],
      );
    return walk(root);
  }
}

/** True when a process with this id is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock file of the sandbox `dir`, or throws naming the live process that holds it. */
function lock(dir: string): void {
  const path = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(readFileSync(path, 'utf8'));
      if (holder && holder !== process.pid && alive(holder))
        throw new Error(
          `the sandbox ${dir} is in use by process ${holder} (another npm run mutation of this checkout; --sandbox <name> gives a measure a sandbox of its own)`,
        );
      rmSync(path, { force: true });
    }
  }
}

/** Folders of node_modules that hold caches, not packages: the sandbox keeps its own. */
const CACHES = new Set(['.cache', '.experimental-vitest-cache', '.vite', '.vitest']);

/**
 * The sandbox's node_modules: a folder of its own whose entries link to the checkout's packages, so
 * that the caches the commands keep there (compiled commands, compiled validators, vitest's module
 * cache) are the sandbox's alone: no other process of the checkout (a test, a command) writes them
 * while a measure runs.
 */
function linkPackages(root: string, dir: string): void {
  const own = join(dir, 'node_modules');
  mkdirSync(own);
  for (const entry of readdirSync(join(root, 'node_modules'), { withFileTypes: true })) {
    if (CACHES.has(entry.name)) continue;
    symlinkSync(join(root, 'node_modules', entry.name), join(own, entry.name), entry.isDirectory() ? 'dir' : 'file');
  }
}

/** The sandbox's path for the checkout at `root` and a label ("" for the command's own). */
export function sandboxPath(root: string, label = ''): string {
  const key = createHash('sha256').update(root).digest('hex').slice(0, 12);
  return join(tmpdir(), 'identity-conformance-mutation', `${key}${label ? `-${label}` : ''}`);
}

/**
 * Makes the sandbox of the checkout at `root`: its files copied, `instrumented` (relative path ->
 * text) written over them, node_modules linked.
 * @throws Error when another measure holds the sandbox
 */
export function makeSandbox(root: string, instrumented: Map<string, string>, label = ''): Sandbox {
  const dir = sandboxPath(root, label);
  mkdirSync(dirname(dir), { recursive: true });
  lock(dir);
  rmSync(dir, { recursive: true, force: true });
  for (const file of projectFiles(root)) {
    if (SKIPPED.has(file.split('/')[0]!)) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      copyFileSync(join(root, file), join(dir, file));
    } catch (e) {
      // A file git lists but the checkout deleted is no part of the project as it is.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  for (const [file, text] of instrumented) writeFileSync(join(dir, file), text);
  linkPackages(root, dir);
  return {
    root: dir,
    remove() {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.lock`, { force: true });
    },
  };
}
