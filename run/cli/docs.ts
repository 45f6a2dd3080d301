/**
 * `npm run docs`: writes the documents generated from the specification: docs/state-tables.md, the executable state
 * tables (specs/<service>/state-spec.ts) with every outcome's level, requirement and seed sentence, docs/open-cells.md,
 * every open cell and "not shown" with what the seeds still forbid there, and docs/clauses.md, the clauses of the
 * single checks (specs/clauses/) with the requirement and forbidding sentence each cites, and
 * docs/deployment-profile.md, every member of the deployment profile (harness/profile.ts) with its meaning, values and
 * default, and docs/situations.md, the situations of the state tables enumerated from the state engine. `npm test`
 * fails when a committed document differs from what this writes. Exit codes: 0 written (or, with --check, up to date);
 * 1 --check found one out of date; 2 bad arguments.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clausesDoc } from '../docs/clauses.js';
import { openCellsDoc } from '../docs/open-cells.js';
import { stateTablesDoc } from '../docs/state-tables.js';
import { profileDoc } from '../docs/profile.js';
import { situationsDoc } from '../docs/situations.js';
import { command, parseArguments } from '../command.js';

const program = command({
  name: 'docs',
  summary:
    'Writes docs/state-tables.md and docs/open-cells.md from the executable state tables ' +
    "(specs/<service>/state-spec.ts) and the seeds' silences (specs/common/not-shown.ts), and docs/clauses.md " +
    'from the clauses of the single checks (specs/clauses/), and docs/deployment-profile.md ' +
    "from the profile's schema " +
    '(harness/profile.ts), and docs/situations.md from the state engine.',
  exitCodes: {
    0: 'written, or with --check up to date',
    1: 'with --check: the document is out of date',
    2: 'bad arguments',
  },
  examples: ['npm run docs', 'npm run docs -- --check'],
}).option('--check', 'only compare: exit 1 when a document is out of date');
parseArguments(program);
const docs: Array<[name: string, text: string]> = [
  ['state-tables.md', `${stateTablesDoc()}\n`],
  ['open-cells.md', `${openCellsDoc()}\n`],
  ['clauses.md', `${clausesDoc()}\n`],
  ['deployment-profile.md', `${profileDoc()}\n`],
  ['situations.md', `${situationsDoc()}\n`],
];
const check = program.opts<{ check?: boolean }>().check;
let stale = 0;
for (const [name, text] of docs) {
  const file = join(import.meta.dirname, '..', '..', 'docs', name);
  if (check) {
    const same = readFileSync(file, 'utf8') === text;
    if (!same) stale++;
    console.log(same ? `docs/${name} is up to date` : `docs/${name} is out of date: run npm run docs`);
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
process.exit(stale ? 1 : 0);
