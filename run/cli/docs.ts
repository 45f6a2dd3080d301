/**
 * `npm run docs`: writes the documents generated from the specification: docs/state-tables.md, the
 * executable state tables (specs/<service>/state-spec.ts) with every outcome's level, requirement
 * and seed sentence. `npm test` fails when the committed document differs from what this writes.
 * Exit codes: 0 written (or, with --check, up to date); 1 --check found it out of date; 2 bad arguments.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateTablesDoc } from '../../specs/common/state-doc.js';
import { command, parseArguments } from '../command.js';

const program = command({
  name: 'docs',
  summary: 'Writes docs/state-tables.md from the executable state tables (specs/<service>/state-spec.ts).',
  exitCodes: [
    [0, 'written, or with --check up to date'],
    [1, 'with --check: the document is out of date'],
    [2, 'bad arguments'],
  ],
  examples: ['npm run docs', 'npm run docs -- --check'],
}).option('--check', 'only compare: exit 1 when docs/state-tables.md is out of date');
parseArguments(program);
const file = join(import.meta.dirname, '..', '..', 'docs', 'state-tables.md');
const text = `${stateTablesDoc()}\n`;
if (program.opts<{ check?: boolean }>().check) {
  const same = readFileSync(file, 'utf8') === text;
  console.log(same ? 'docs/state-tables.md is up to date' : 'docs/state-tables.md is out of date: run npm run docs');
  process.exit(same ? 0 : 1);
}
writeFileSync(file, text);
console.log(`wrote ${file}`);
