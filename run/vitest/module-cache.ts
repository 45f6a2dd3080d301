/**
 * Vitest's cache of transformed modules (`experimental.fsModuleCache`), for the conformance, detection and self-test
 * configurations: a run after the first takes each TypeScript module as an earlier run transformed it (keyed by the
 * file's content) instead of transforming the suite again (docs/performance.md, item 19). Vitest fails to start when it
 * cannot write its cache, so the cache is asked for only where the folder can be made and written (a read-only
 * installation runs as before, transforming every time).
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Vitest's default folder for the cache, at the project root. */
export const MODULE_CACHE_DIR = join(import.meta.dirname, '..', '..', 'node_modules', '.experimental-vitest-cache');

/** The `experimental` settings that turn the cache on, or none when its folder cannot be written. */
export function moduleCache(dir = MODULE_CACHE_DIR): { fsModuleCache?: true; fsModuleCachePath?: string } {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return { fsModuleCache: true, fsModuleCachePath: dir };
  } catch {
    return {};
  }
}
