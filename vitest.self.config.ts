/** The project's own tests (`npm test`): unit tests and end-to-end runs of the suite against the reference. */
import { defineConfig } from 'vitest/config';
import { moduleCache } from './run/vitest/module-cache.js';
import { SelfTestSequencer } from './test/support/self-test-order.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120000,
    hookTimeout: 120000,
    // The longest files first (test/support/self-test-order.ts).
    sequence: { sequencer: SelfTestSequencer },
    // Transformed modules kept between runs where node_modules can be written (run/vitest/module-cache.ts).
    experimental: moduleCache(),
  },
});
