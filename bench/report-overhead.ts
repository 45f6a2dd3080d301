/**
 * What reporting adds to a run, in ms: rebuilds every report of an existing run folder (default reports/latest) several
 * times and prints the time of each step (reading exchanges and computing stats, summary.json, the vega charts, the
 * Graphviz state diagrams, and each format of report/formats.ts with a writer: summary.md, junit.xml, report.html, the
 * Allure run facts), the total, and the total as a share of the run's own duration. Usage: npm run bench:report -- [run
 * folder] [repeats]
 */
import { mkdtempSync, cpSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { command, parseArguments, usageError } from '../run/command.js';
import type { RunDescription, Summary } from '../report/summary.js';
import { readResults } from '../report/summary.js';
import { REPORT_FORMATS } from '../report/formats.js';
import { type ReportTimings, writeRunReports } from '../report/write.js';

const program = command({
  name: 'bench:report',
  summary:
    'Time each reporting step adds to a run: rebuilds every report of an existing run folder several times and ' +
    'prints the median of each step.',
  exitCodes: { 0: 'measured', 2: 'bad arguments' },
  examples: ['npm run bench:report', 'npm run bench:report -- reports/20261121-071425-61c6 10'],
})
  .argument('[run folder]', 'a finished run folder (default reports/latest)')
  .argument('[repeats]', 'rebuilds to time (default 5)');
parseArguments(program);
const source = program.args[0] ?? 'reports/latest';
const repeats = program.args[1] === undefined ? 5 : Number(program.args[1]);
if (!Number.isInteger(repeats) || repeats < 1)
  usageError(program, `repeats: expected a positive integer, got ${JSON.stringify(program.args[1])}`);
const work = mkdtempSync(join(tmpdir(), 'cf-bench-report-'));
cpSync(source, work, { recursive: true, dereference: true });
const run = JSON.parse(readFileSync(join(work, 'run.json'), 'utf8')) as RunDescription;
const original = JSON.parse(readFileSync(join(work, 'summary.json'), 'utf8')) as Summary;
const results = readResults(work) ?? [];

const all: ReportTimings[] = [];
for (let i = 0; i < repeats + 1; i++) {
  const { timings } = await writeRunReports(work, undefined, run, results, original.cleanup, { known: null });
  if (i > 0) all.push(timings); // the first round warms up module loading
}
const medianOf = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const median = (k: Exclude<keyof ReportTimings, 'formats'>) => medianOf(all.map((t) => t[k]));
const exchanges = readFileSync(join(work, 'summary.json'), 'utf8').length;
console.log(
  `report overhead for ${source}: ${results.length} checks, summary.json ${(exchanges / 1024).toFixed(0)} KiB, ` +
    `run took ${original.run.durationMs} ms; median of ${repeats} rebuilds:`,
);
for (const k of ['stats', 'summary', 'charts', 'diagrams'] as const)
  console.log(`  ${k.padEnd(10)} ${median(k).toFixed(1).padStart(8)} ms`);
for (const f of REPORT_FORMATS.filter((x) => x.write))
  console.log(
    `  ${f.name.padEnd(10)} ${medianOf(all.map((t) => t.formats[f.name] ?? 0))
      .toFixed(1)
      .padStart(8)} ms  (${f.files.join(', ')})`,
  );
console.log(`  ${'total'.padEnd(10)} ${median('total').toFixed(1).padStart(8)} ms`);
console.log(`  share of the run's duration: ${((median('total') / original.run.durationMs) * 100).toFixed(1)} %`);
rmSync(work, { recursive: true, force: true });
