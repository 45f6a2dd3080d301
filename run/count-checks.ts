/**
 * Counts the checks a conformance run will start, so the progress display has its total from the
 * run's first seconds on: `vitest list` with the run's own filters (files,
 * `-t`, `--shard`) in the config's list mode (CONFORMANCE_LIST=1: no global setup, no reporters,
 * one worker that loads the modules once; 2 to 4 s for the whole suite on two cores).
 *
 * The count runs while the run itself starts: `npm run conformance` starts it (startCount) with
 * the run, and the run's global setup hands it to the progress display when it arrives (awaitCount)
 * without holding the checks back (waiting cost about 2 s of every run without a cached count).
 * The result travels through a small JSON file named by CONFORMANCE_COUNT_FILE.
 *
 * Counts are cached in node_modules/.cache/identity-conformance/.check-counts.json (COUNT_CACHE_DIR),
 * keyed by the run's filters and the size and modification time of every source file that
 * registers checks (scenarios/, harness/, specs/, generators/, vitest.config.ts): a repeated run
 * with unchanged sources costs no listing at all, whichever report folder it writes to (which
 * checks are registered depends on no setting; the profile acts when a check runs). Where the
 * cache cannot be written, every run counts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VITEST_NODE_FLAGS } from './node-flags.js';

export const COUNT_FILE_ENV = 'CONFORMANCE_COUNT_FILE';

/** Run options that make no sense for a listing (vitest list rejects or ignores them); those in VALUED take a value. */
const NOT_FOR_LIST = /^--(reporter|outputFile|bail|retry|coverage|ui|watch|silent)(=|$)/;
const VALUED = /^--(reporter|outputFile|bail|retry)$/;

/** The run's arguments without those NOT_FOR_LIST (and the value after a valued one). */
export function listArgs(args: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!NOT_FOR_LIST.test(args[i]!)) kept.push(args[i]!);
    else if (VALUED.test(args[i]!)) i++;
  }
  return kept;
}

/** Source folders and files whose content decides which checks are registered. */
const SOURCES = ['scenarios', 'harness', 'specs', 'generators', 'vitest.config.ts'];
const CACHE_FILE = '.check-counts.json';
/** Where `npm run conformance` keeps its counts: beside the other caches of the installation. */
export const COUNT_CACHE_DIR = join(import.meta.dirname, '..', 'node_modules', '.cache', 'identity-conformance');
const CACHE_ENTRIES = 20;

/** The cache key of a listing: its arguments and the size and mtime of every registering source. */
export function countKey(args: string[], root = process.cwd()): string {
  const hash = createHash('sha256').update(JSON.stringify(args));
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const st = statSync(path);
    if (st.isDirectory()) for (const name of readdirSync(path).sort()) visit(join(path, name));
    else if (/\.(ts|json)$/.test(path)) hash.update(`${path}\0${st.size}\0${st.mtimeMs}\n`);
  };
  for (const s of SOURCES) visit(join(root, s));
  return hash.digest('hex');
}

const readCache = (dir: string): Record<string, number> => {
  try {
    return JSON.parse(readFileSync(join(dir, CACHE_FILE), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
};

/**
 * Starts counting (or takes the count from the cache in `cacheDir`, when given). `file` receives `{ "total": n }` (or `{ "total": null }` when listing failed)
 * once the count is known; `done` resolves with the same number.
 */
export function startCount(vitestBin: string, args: string[], env: NodeJS.ProcessEnv, cacheDir?: string): { file: string; done: Promise<number | undefined>; stop: () => void } {
  let child: ChildProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'cf-count-'));
  const list = join(dir, 'list.json');
  const file = join(dir, 'count.json');
  const key = cacheDir ? countKey(listArgs(args)) : undefined;
  const done = new Promise<number | undefined>((resolve) => {
    const finish = (total: number | undefined, store = true) => {
      writeFileSync(`${file}.tmp`, JSON.stringify({ total: total ?? null }));
      renameSync(`${file}.tmp`, file); // whole or absent: the reader never sees half a file
      if (store && cacheDir && key && total !== undefined) {
        const entries = Object.entries({ ...readCache(cacheDir), [key]: total }).slice(-CACHE_ENTRIES);
        try {
          mkdirSync(cacheDir, { recursive: true });
          writeFileSync(join(cacheDir, CACHE_FILE), JSON.stringify(Object.fromEntries(entries)));
        } catch {
          // an unwritable cache only means the next run counts again
        }
      }
      resolve(total);
    };
    const cached = cacheDir && key ? readCache(cacheDir)[key] : undefined;
    if (typeof cached === 'number') return finish(cached, false);
    child = spawn(process.execPath, [...VITEST_NODE_FLAGS, vitestBin, 'list', '--config', 'vitest.config.ts', `--json=${list}`, ...listArgs(args)], { env: { ...env, CONFORMANCE_LIST: '1' }, stdio: 'ignore' });
    child.on('error', () => finish(undefined));
    child.on('exit', (code) => {
      try {
        const parsed = JSON.parse(readFileSync(list, 'utf8')) as unknown[];
        finish(code === 0 && Array.isArray(parsed) ? parsed.length : undefined);
      } catch {
        finish(undefined);
      }
    });
  });
  // A run shorter than its own count (one check against a fast target) must not leave the listing running after it.
  const stop = () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill();
  };
  return { file, done, stop };
}

/**
 * Waits for the count started by `npm run conformance` (the file named by CONFORMANCE_COUNT_FILE),
 * at most `timeoutMs`, and removes it.
 * @returns the number of checks, or undefined when no count was started, it failed or took too long
 */
export async function awaitCount(file: string | undefined, timeoutMs = 60000): Promise<number | undefined> {
  if (!file) return undefined;
  const until = Date.now() + timeoutMs;
  while (!existsSync(file) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  try {
    const total = (JSON.parse(readFileSync(file, 'utf8')) as { total: number | null }).total;
    return typeof total === 'number' && total > 0 ? total : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(join(file, '..'), { recursive: true, force: true });
  }
}
