/**
 * A mutation measure as a mutation testing report (mutation-testing-report-schema 3, the JSON
 * Stryker's json reporter writes; mutation-testing-elements renders it): per file its source and
 * its measured mutants with their status (Killed, Timeout, Survived, NoCoverage), the reason and
 * the services run; `config` holds the measure's seeds and sample.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { Measure } from './measure.js';
import type { Status } from './result.js';

const STATUS: Record<Status, string> = {
  killed: 'Killed',
  timeout: 'Timeout',
  survived: 'Survived',
  'no-coverage': 'NoCoverage',
};

/** Writes the report of `m` (files read from `root`) to `path`. */
export function writeSchemaReport(path: string, root: string, m: Measure, o: { seed: number; runSeed: number }): void {
  const files: Record<string, { language: string; source: string; mutants: unknown[] }> = {};
  for (const r of m.results) {
    const f = (files[r.mutant.file] ??= {
      language: 'typescript',
      source: readFileSync(join(root, r.mutant.file), 'utf8'),
      mutants: [],
    });
    f.mutants.push({
      id: r.mutant.id,
      mutatorName: r.mutant.mutator,
      replacement: r.mutant.replacement,
      location: {
        start: { line: r.mutant.line, column: r.mutant.column },
        end: { line: r.mutant.endLine, column: r.mutant.endColumn },
      },
      status: STATUS[r.status],
      statusReason: r.reason,
      duration: r.ms,
      ...(r.services.length ? { coveredBy: r.services.map((s) => `scenarios/${s}`) } : {}),
    });
  }
  const report = {
    schemaVersion: '2',
    thresholds: { high: 90, low: 70 },
    files,
    config: {
      sampleSeed: o.seed,
      runSeed: o.runSeed,
      selected: m.selected.length,
      total: m.total,
      notRun: m.notRun.length,
      wallMs: m.wallMs,
    },
    framework: { name: 'identity-conformance npm run mutation (Stryker instrumenter)' },
  };
  writeFileAtomic.sync(path, `${JSON.stringify(report, null, 2)}\n`, { fsync: false });
}
