/**
 * Every "not shown" of the seeds has one entry in specs/common/not-shown.ts, quoted word for word,
 * saying what the suite does there (a profile setting, an open cell with what other sentences still
 * forbid, or untestable): a silence of the seeds can never turn into an assumption unnoticed. A new
 * seed line that says "not shown" turns this red until it has its entry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_SHOWN } from '../specs/common/not-shown.js';

const SEEDS = join(import.meta.dirname, '..', 'specs', 'seeds');
const pieces = (quote: string) => quote.split(/\s*\|\s*|\s*\.\.\.\s*/).filter(Boolean);
const covers = (quote: string, line: string) => pieces(quote).every((p) => line.includes(p));

describe('the seeds\' "not shown" sentences', () => {
  for (const file of ['organization-identity-api.md', 'person-provider-identity-api.md'] as const) {
    const lines = readFileSync(join(SEEDS, file), 'utf8')
      .split('\n')
      .filter((l) => /not shown/.test(l));
    it(`${file}: each of its ${lines.length} lines has exactly one entry`, () => {
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines) {
        const entries = NOT_SHOWN.filter((n) => n.seed.file === file && covers(n.seed.quote, line));
        expect(entries.length, `${line}\n  entries: ${entries.map((e) => e.seed.quote).join(' / ')}`).toBe(1);
      }
    });
    it(`${file}: every entry quotes one of its "not shown" lines word for word`, () => {
      for (const n of NOT_SHOWN.filter((x) => x.seed.file === file)) {
        expect(n.seed.quote).toMatch(/not shown/);
        expect(
          lines.some((l) => covers(n.seed.quote, l)),
          n.seed.quote,
        ).toBe(true);
      }
    });
  }

  it('an open entry says what is still forbidden only with the sentence that forbids it', () => {
    const text = (f: string) => readFileSync(join(SEEDS, f), 'utf8').replace(/\s+/g, ' ');
    for (const n of NOT_SHOWN)
      for (const f of n.forbidden ?? [])
        for (const p of pieces(f.seed.quote)) expect(text(f.seed.file), `${n.seed.quote}: ${f.what}`).toContain(p);
  });
});
