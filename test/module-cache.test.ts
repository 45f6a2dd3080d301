/** Vitest's module cache is asked for only where its folder can be written (run/vitest/module-cache.ts): vitest fails to start otherwise. */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_CACHE_DIR, moduleCache } from '../run/vitest/module-cache.js';

describe('module cache', () => {
  it('is turned on, in the folder made for it, where it can be written', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'module-cache-')), 'nested', 'cache');
    expect(moduleCache(dir)).toEqual({ fsModuleCache: true, fsModuleCachePath: dir });
    expect(existsSync(dir)).toBe(true);
    expect(MODULE_CACHE_DIR.endsWith(join('node_modules', '.experimental-vitest-cache'))).toBe(true);
  });

  it('is left off where its folder cannot be made', () => {
    const blocker = join(mkdtempSync(join(tmpdir(), 'module-cache-')), 'a-file');
    writeFileSync(blocker, '');
    expect(moduleCache(join(blocker, 'cache'))).toEqual({});
  });
});
