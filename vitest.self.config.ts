/** The project's own tests (`npm test`): unit tests and end-to-end runs of the suite against the reference. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120000,
    hookTimeout: 120000,
    // Transformed modules kept between runs (as in vitest.config.ts).
    experimental: { fsModuleCache: true },
  },
});
