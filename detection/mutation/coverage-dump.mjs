/**
 * Preloaded (`node --import`) into every process of a mutation measure's coverage runs: when the
 * process ends, the mutants its instrumented code reached (Stryker's
 * `globalThis.__stryker__.mutantCoverage`, switch number -> times reached) are written to
 * `.mutation-coverage/<pid>.json` under the working folder (the sandbox). A process that ran no
 * instrumented code writes nothing. Plain JavaScript: it loads before any TypeScript loader.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

process.once('exit', () => {
  const coverage = globalThis.__stryker__?.mutantCoverage;
  if (!coverage) return;
  const reached = { ...coverage.static };
  for (const perTest of Object.values(coverage.perTest ?? {}))
    for (const [id, n] of Object.entries(perTest)) reached[id] = (reached[id] ?? 0) + n;
  const dir = join(process.cwd(), '.mutation-coverage');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(reached));
});
