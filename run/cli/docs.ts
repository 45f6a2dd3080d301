/**
 * `npm run docs`: writes the documents generated from the specification: docs/state-tables.md, the
 * executable state tables (specs/<service>/state-spec.ts) with every outcome's level, requirement
 * and seed sentence, and docs/clauses.md, the clauses of the single checks (specs/clauses/) with
 * the requirement and forbidding sentence each cites. `npm test` fails when a committed document
 * differs from what this writes.
 * Exit codes: 0 written (or, with --check, up to date); 1 --check found it out of date; 2 bad arguments.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clausesDoc } from '../../specs/clauses/doc.js';
import { stateTablesDoc } from '../../specs/common/state-doc.js';
import { command, parseArguments } from '../command.js';

const program = command({
  name: 'docs',
  summary:
    'Writes docs/state-tables.md from the executable state tables (specs/<service>/state-spec.ts) and docs/clauses.md from the clauses of the single checks (specs/clauses/).',
  exitCodes: [
    [0, 'written, or with --check up to date'],
    [1, 'with --check: a document is out of date'],
    [2, 'bad arguments'],
  ],
  examples: ['npm run docs', 'npm run docs -- --check'],
}).option('--check', 'only compare: exit 1 when docs/state-tables.md or docs/clauses.md is out of date');
parseArguments(program);
const docs = join(import.meta.dirname, '..', '..', 'docs');
const written: Array<[string, string]> = [
  ['state-tables.md', `${stateTablesDoc()}\n`],
  ['clauses.md', `${clausesDoc()}\n`],
];
if (program.opts<{ check?: boolean }>().check) {
  const stale = written.filter(([name, text]) => readFileSync(join(docs, name), 'utf8') !== text).map(([name]) => `docs/${name}`);
  console.log(
    stale.length ? `${stale.join(', ')} out of date: run npm run docs` : 'docs/state-tables.md and docs/clauses.md are up to date',
  );
  process.exit(stale.length ? 1 : 0);
}
for (const [name, text] of written) {
  writeFileSync(join(docs, name), text);
  console.log(`wrote ${join(docs, name)}`);
}
