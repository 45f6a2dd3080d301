/**
 * The mutants a coverage run reached: what detection/mutation/coverage-dump.mjs wrote for each
 * process of the run (switch numbers reached at least once), read and cleared for the next run.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The switch numbers the last run in `sandbox` reached, in any of its processes; the records are removed. */
export function readCoverage(sandbox: string): Set<string> {
  const dir = join(sandbox, '.mutation-coverage');
  const reached = new Set<string>();
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return reached;
  }
  for (const name of names) {
    const counts = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, number>;
    for (const [id, n] of Object.entries(counts)) if (n > 0) reached.add(id);
  }
  rmSync(dir, { recursive: true, force: true });
  return reached;
}
