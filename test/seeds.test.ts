/**
 * The seed documents ship with the suite (specs/seeds/): every requirement's section names a
 * document there and its sections, and every sentence the state tables and the requirements'
 * forbidding sentences quote is found there word for word, so a clone of the repository holds the
 * specification its citations point to; every MUST requirement a check can verify names the
 * sentence that forbids what its checks reject, and no EXPECT requirement names one. Where
 * the project's shared copy is present (../shared/seeds beside the repository), the shipped copy
 * is the same text.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SeedCitation } from '../specs/common/seed.js';
import { SERVICES } from '../specs/services.js';

const SHIPPED = join(import.meta.dirname, '..', 'specs', 'seeds');
const SHARED = join(import.meta.dirname, '..', '..', 'shared', 'seeds');
const text = (file: string) => readFileSync(join(SHIPPED, file), 'utf8');
const headings = (file: string) => [...text(file).matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!);

/** A quote may join table cells with " | " and leave words out with "...": each piece is in the seed. */
const quotePieces = (quote: string) => quote.split(/\s*\|\s*|\s*\.\.\.\s*/).filter(Boolean);

/** Every seed citation a value holds, depth first (the state tables' rows, effects, replies, queries). */
function citations(value: unknown, out: SeedCitation[] = [], seen = new Set<unknown>()): SeedCitation[] {
  if (!value || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  const v = value as Record<string, unknown>;
  if (typeof v.file === 'string' && typeof v.section === 'string' && typeof v.quote === 'string')
    out.push(v as unknown as SeedCitation);
  for (const child of Object.values(v)) citations(child, out, seen);
  return out;
}

describe('the seed documents in specs/seeds/', () => {
  it('hold both documents the catalogue cites', () => {
    expect(
      readdirSync(SHIPPED)
        .filter((f) => f.endsWith('-api.md'))
        .sort(),
    ).toEqual(['organization-identity-api.md', 'person-provider-identity-api.md']);
  });

  it("every requirement's section names a shipped document and headings it has", () => {
    for (const spec of Object.values(SERVICES))
      for (const r of spec.requirements) {
        const [first, ...more] = r.section.split(/;\s*/);
        const [file, ...path] = first!.split(/,\s*/);
        expect(existsSync(join(SHIPPED, file!)), `${r.id}: ${file}`).toBe(true);
        const names = headings(file!);
        // "Endpoints, rule 1", "Resources, Search result": the first name is a section heading; "; Limits" names another.
        for (const section of [path[0]!, ...more.map((m) => m.split(/,\s*/)[0]!)])
          expect(
            names.some((h) => h.startsWith(section)),
            `${r.id}: "${section}" in ${file}`,
          ).toBe(true);
      }
  });

  it('every sentence the state tables quote is in the document they name, word for word', () => {
    const all = Object.values(SERVICES).flatMap((spec) => citations(spec.stateSpec));
    expect(all.length).toBeGreaterThan(30);
    for (const c of all) {
      const doc = text(c.file).replace(/\s+/g, ' ');
      for (const piece of quotePieces(c.quote)) expect(doc, `${c.file}, ${c.section}: "${piece}"`).toContain(piece);
    }
  });

  it("every requirement's forbidding sentence is in the document it names, word for word, under a heading it has", () => {
    const all = Object.values(SERVICES).flatMap((spec) =>
      spec.requirements.flatMap((r) => (r.forbids ?? []).map((c) => ({ r, c }))),
    );
    expect(all.length).toBeGreaterThan(100);
    for (const { r, c } of all) {
      const doc = text(c.file).replace(/\s+/g, ' ');
      for (const piece of quotePieces(c.quote))
        expect(doc, `${r.id}: ${c.file}, ${c.section}: "${piece}"`).toContain(piece);
      const section = c.section.split(/,\s*/)[0]!;
      expect(
        headings(c.file).some((h) => h.startsWith(section)),
        `${r.id}: "${section}" in ${c.file}`,
      ).toBe(true);
    }
  });

  it('every MUST requirement a check can verify names at least one forbidding sentence, and no EXPECT requirement names one', () => {
    for (const spec of Object.values(SERVICES))
      for (const r of spec.requirements) {
        if (r.level === 'MUST' && !r.untestable)
          expect(r.forbids?.length ?? 0, `${r.id}: MUST without a forbidding sentence`).toBeGreaterThan(0);
        if (r.level === 'EXPECT')
          expect(r.forbids, `${r.id}: an EXPECT requirement rests on no sentence`).toBeUndefined();
      }
  });

  it.skipIf(!existsSync(SHARED))('are the same text as the shared copy beside the repository', () => {
    for (const file of ['organization-identity-api.md', 'person-provider-identity-api.md'])
      expect(text(file), file).toBe(readFileSync(join(SHARED, file), 'utf8'));
  });
});
