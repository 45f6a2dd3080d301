/**
 * docs/state-tables.md is the executable state tables written out (run/docs/state-tables.ts):
 * it must equal what `npm run docs` writes, so the document a reader trusts is the specification
 * the checks ask.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { openCellsDoc } from '../run/docs/open-cells.js';
import { stateTablesDoc } from '../run/docs/state-tables.js';

test('docs/state-tables.md is up to date with specs/<service>/state-spec.ts (npm run docs)', () => {
  expect(readFileSync(new URL('../docs/state-tables.md', import.meta.url), 'utf8')).toBe(`${stateTablesDoc()}\n`);
});

test("docs/open-cells.md is up to date with the open cells and the seeds' silences (npm run docs)", () => {
  expect(readFileSync(new URL('../docs/open-cells.md', import.meta.url), 'utf8')).toBe(`${openCellsDoc()}\n`);
});
