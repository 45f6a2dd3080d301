/**
 * `npm run detection -- [--only a,b] [--concurrency N] [--list] [--json file]`: runs the
 * conformance suite against the embedded reference cleanly and once per catalogued fault, and
 * prints the detection table (fault, requirement, the checks that caught it) with the score
 * (faults caught / faults) and the clean run's false positives. Exit code 0 when every fault is
 * caught and the clean run has no failure; 1 otherwise; 2 for bad arguments.
 * See docs/detection.md.
 */
import { writeFileSync } from 'node:fs';
import { FAULT_LIST, applied } from '../reference/faults/catalogue.js';
import { command, parseArguments, usageError } from '../run/command.js';
import { detect } from './runner.js';

const program = command({
  name: 'detection',
  summary: 'Runs the conformance suite against the embedded reference cleanly and once per catalogued fault, and prints which checks caught each fault, the score and the false positives (docs/detection.md).',
  exitCodes: [
    [0, 'every fault caught and no failure on the clean reference'],
    [1, 'a fault was not caught, or the clean run failed a check'],
    [2, 'bad arguments'],
  ],
  examples: ['npm run detection', 'npm run detection -- --list', 'npm run detection -- --only merge-no-unify,search-unsorted --json detection.json'],
})
  .option('--only <faults>', 'comma list of faults to run (default: all)')
  .option('--concurrency <n>', 'fault runs at a time, 1-16', '2')
  .option('--list', 'list the faults and exit')
  .option('--json <file>', 'also write the results as JSON');
parseArguments(program);
const values = program.opts<{ only?: string; concurrency: string; list?: boolean; json?: string }>();
if (values.list) {
  for (const f of FAULT_LIST) console.log(`${f.name.padEnd(34)} ${f.requirement.padEnd(28)} ${applied(f).padEnd(40)} ${f.description}`);
  console.log(`${FAULT_LIST.length} faults`);
  process.exit(0);
}
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) usageError(program, `--concurrency: expected an integer from 1 to 16, got ${JSON.stringify(values.concurrency)}`);
const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
const unknown = only?.filter((n) => !FAULT_LIST.some((f) => f.name === n)) ?? [];
if (unknown.length) usageError(program, `--only: unknown fault(s) ${unknown.join(', ')} (npm run detection -- --list)`);

const total = only?.length ?? FAULT_LIST.length;
let done = 0;
console.log(`Detection: clean run, then ${total} fault runs (${concurrency} at a time)...`);
const report = await detect({ concurrency, only, onProgress: () => process.stderr.write(`\r  ${++done}/${total} fault runs done`) });
process.stderr.write('\n');
if (report.clean.problem) {
  console.error(`detection: ${report.clean.problem}`);
  process.exit(1);
}
const rows = report.faults.map((o) => ({
  fault: o.fault.name,
  requirement: o.fault.requirement,
  caught: o.caughtBy.length && o.runFailed ? 'yes' : 'NO',
  by: o.caughtBy.length ? o.caughtBy.join(', ') : (o.problem ?? (o.failing.length ? `failing checks cite other requirements: ${o.failing.join(', ')}` : 'no check failed')),
}));
const w = (k: 'fault' | 'requirement') => Math.max(k.length, ...rows.map((r) => r[k].length));
console.log(`\n${'fault'.padEnd(w('fault'))}  ${'requirement'.padEnd(w('requirement'))}  caught  caught by`);
for (const r of rows) console.log(`${r.fault.padEnd(w('fault'))}  ${r.requirement.padEnd(w('requirement'))}  ${r.caught.padEnd(6)}  ${r.by}`);
const pct = report.faults.length ? ((100 * report.caught) / report.faults.length).toFixed(1) : '0';
console.log(`\nScore: ${report.caught}/${report.faults.length} faults caught (${pct}%)`);
console.log(`False positives on the clean reference: ${report.clean.falsePositives.length} of ${report.clean.checks} checks${report.clean.falsePositives.length ? `: ${report.clean.falsePositives.map((f) => `${f.checkId} (${f.verdict})`).join(', ')}` : ''}`);
console.log(`Time: clean run ${(report.clean.ms / 1000).toFixed(1)} s, all runs ${(report.ms / 1000).toFixed(1)} s`);
if (values.json) writeFileSync(values.json, JSON.stringify({ ...report, faults: report.faults.map((o) => ({ ...o, fault: { name: o.fault.name, requirement: o.fault.requirement, description: o.fault.description } })) }, null, 2));
process.exit(report.caught === report.faults.length && report.clean.falsePositives.length === 0 ? 0 : 1);
