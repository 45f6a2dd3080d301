/**
 * Catalogue lint, as test262's lint does for its metadata: requirement IDs are unique, well
 * formed and cite their seed; every operation has a shape requirement.
 */
import { describe, expect, it } from 'vitest';
import { SERVICES } from '../specs/services.js';

describe('requirement catalogues', () => {
  for (const spec of Object.values(SERVICES)) {
    it(`${spec.name}: IDs unique, prefixed ${spec.idPrefix}-, levels valid, sections cite ${spec.seed}`, () => {
      const ids = spec.requirements.map((r) => r.id);
      expect(ids.length - new Set(ids).size).toBe(0);
      for (const r of spec.requirements) {
        expect(r.id).toMatch(new RegExp(`^${spec.idPrefix}-[A-Z0-9-]+$`));
        expect(['MUST', 'EXPECT']).toContain(r.level);
        expect(r.section.startsWith(spec.seed)).toBe(true);
        expect(r.text.length).toBeGreaterThan(10);
      }
    });
    it(`${spec.name}: every operation has a shape requirement in the catalogue`, () => {
      const ids = new Set(spec.requirements.map((r) => r.id));
      for (const op of spec.operations) expect(ids.has(op.shapeRequirement), op.name).toBe(true);
    });
  }
});

describe('check IDs', async () => {
  const { slug } = await import('../harness/register.js');
  it('keep short titles whole and give long titles that differ only at the end distinct IDs', () => {
    expect(slug("mergeIdentities replies with the survivor's linkId")).toBe(
      'mergeidentities-replies-with-the-survivor-s-linkid',
    );
    const long = 'mergeIdentities of a practitioner and a health facility is rejected and changes nothing';
    const a = slug(`${long} (practitioner first)`);
    const b = slug(`${long} (health facility first)`);
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(100);
    expect(slug(`${long} (practitioner first)`)).toBe(a);
  });
});
