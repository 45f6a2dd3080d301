/**
 * Vitest configuration of a detection run: one project per fault (plus "clean"), each with its own embedded reference
 * (detection-setup.ts) and only the scenario files named in the plan (plan.json in HANDOFF.detectionDir: [{ name,
 * include }]). One vitest process tests every fault.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { HANDOFF } from '../harness/handoff.js';
import { moduleCache } from '../run/vitest/module-cache.js';
import { ISOLATED_SUFFIX, isolatedExclude, isolatedInclude, onlyIsolated } from './isolated-phase.js';

const plan = JSON.parse(readFileSync(join(HANDOFF.detectionDir.need(), 'plan.json'), 'utf8')) as Array<{
  name: string;
  include: string[];
  variants?: unknown[];
}>;
/**
 * Checks of one file at once: vitest's 5 per run, times the runs (variants, drawn deployments) a project holds, at most
 * MAX_CHECKS_PER_FILE. Most of a variant run's time is waiting (lags, throttling, restarts, slow tails), so checks of
 * many runs side by side keep the cores busy.
 */
const MAX_CHECKS_PER_FILE = HANDOFF.detectionChecksPerFile.read() ?? 40;
const checksPerFile = (p: (typeof plan)[number]) =>
  Math.min(5 * Math.max(1, p.variants?.length ?? 1), MAX_CHECKS_PER_FILE);

export default defineConfig({
  test: {
    pool: 'threads',
    maxWorkers: HANDOFF.detectionWorkers.read() ?? 2,
    // The file-end reporter tells the clean and variant runs when a file's records may go (detection/setup.ts).
    reporters: [
      join(import.meta.dirname, 'reporter.ts'),
      join(import.meta.dirname, '..', 'run', 'vitest', 'file-end-reporter.ts'),
    ],
    // Transformed modules kept between runs where node_modules can be written (run/vitest/module-cache.ts).
    experimental: moduleCache(),
    // Each plan entry's files that send stored invalid input run in a later group of their own
    // (detection/isolated-phase.ts), as a conformance run runs them after every other file.
    projects: plan.flatMap((p) => {
      const test = {
        root: process.cwd(),
        globalSetup: [join(import.meta.dirname, 'setup.ts')],
        setupFiles: ['allure-vitest/setup'],
        maxConcurrency: checksPerFile(p),
        // Workers keep modules (Faker, schemas, compiled validators) across files and projects; each project's checks
        // still get its own RunInfo (harness/targets.ts starts afresh per run id).
        isolate: HANDOFF.detectionIsolate.read() ?? false,
        // Many runs' checks side by side share the cores: a check of a project of many runs gets longer.
        testTimeout: p.variants && p.variants.length > 5 ? 600000 : 150000,
        hookTimeout: 150000,
      };
      const isolated = isolatedInclude(p.include);
      // An entry of isolated files only (a fault judged by bad input alone) has no first group.
      const others = onlyIsolated(p.include)
        ? []
        : [
            {
              test: {
                ...test,
                name: p.name,
                include: p.include,
                exclude: [...configDefaults.exclude, ...isolatedExclude()],
                sequence: { concurrent: true, groupOrder: 0 },
              },
            },
          ];
      return [
        ...others,
        ...(isolated.length
          ? [
              {
                test: {
                  ...test,
                  name: `${p.name}${ISOLATED_SUFFIX}`,
                  include: isolated,
                  sequence: { concurrent: true, groupOrder: 1 },
                },
              },
            ]
          : []),
      ];
    }),
  },
});
