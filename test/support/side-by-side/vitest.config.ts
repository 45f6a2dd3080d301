/**
 * Fixture of test/side-by-side-runner.test.ts: three files whose checks meet at a barrier, run by
 * run/side-by-side-runner.mjs with the conformance run's pool settings; FILES_AT_ONCE files at once.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

declare module 'vitest' {
  export interface ProvidedContext {
    filesAtOnce: number;
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['*.side.ts'],
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    runner: fileURLToPath(new URL('../../../run/side-by-side-runner.mjs', import.meta.url)),
    provide: { filesAtOnce: Number(process.env.FILES_AT_ONCE) },
    maxConcurrency: 1,
    sequence: { concurrent: true },
    testTimeout: 20000,
  },
});
