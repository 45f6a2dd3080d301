/**
 * Generators of the match-quality benchmark: deterministic, ground truth consistent, every
 * corruption logged with before/after, hard negatives present, and the wire identities valid
 * against the services' identity schemas.
 */
import { describe, expect, it } from 'vitest';
import { buildDataset, PRESETS } from '../linkage/data/dataset.js';
import { Rng, digitTransposition, nickname, ocr, phonetic, typo } from '../linkage/data/edits.js';
import { OPERATORS } from '../linkage/data/operators.js';
import { LINKAGE_SERVICES } from '../linkage/data/wire.js';
import { OrganizationIdentity } from '../specs/organization/identity.js';
import { PersonIdentity } from '../specs/person/identity.js';
import { ProviderIdentity } from '../specs/provider/identity.js';

const SCHEMAS = { organization: OrganizationIdentity, person: PersonIdentity, provider: ProviderIdentity } as const;

describe('value edits', () => {
  const rng = new Rng(42);
  it('typo changes a value by a small edit and keeps its class', () => {
    for (let i = 0; i < 200; i++) {
      const out = typo(rng, 'Margaret')!;
      expect(out).not.toBe('Margaret');
      expect(Math.abs(out.length - 8)).toBeLessThanOrEqual(2);
      expect(out).toMatch(/^[A-Za-z]+$/);
    }
  });
  it('nickname works in both directions and only for names in the table', () => {
    expect(['Bob', 'Rob', 'Bobby', 'Robbie']).toContain(nickname(rng, 'Robert'));
    expect(nickname(rng, 'Bob')).toBe('Robert');
    expect(nickname(rng, 'Xyzzy')).toBeUndefined();
  });
  it('phonetic, OCR and digit edits change the value or say they do not apply', () => {
    expect(phonetic(rng, 'Stephanie')).not.toBe('Stephanie');
    expect(ocr(rng, 'Miller')).not.toBe('Miller');
    expect(digitTransposition(rng, '123')).toMatch(/^(213|132)$/);
    expect(digitTransposition(rng, '111')).toBeUndefined();
  });
});

describe('data sets', () => {
  it('are deterministic for the same options and differ for another seed', () => {
    const a = buildDataset({ preset: 'realistic', size: 300, seed: 5, kinds: { person: 1 } });
    const b = buildDataset({ preset: 'realistic', size: 300, seed: 5, kinds: { person: 1 } });
    const c = buildDataset({ preset: 'realistic', size: 300, seed: 6, kinds: { person: 1 } });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a.records)).not.toBe(JSON.stringify(c.records));
  });

  it.each(LINKAGE_SERVICES.map((s) => [s.service, s] as const))(
    '%s: ground truth, corruption log and wire identities hold together',
    (service, spec) => {
      const d = buildDataset({ preset: 'hard', size: 600, seed: 11, kinds: spec.kinds });
      expect(d.entities).toHaveLength(600);
      // Every record belongs to an entity of an allowed kind; ids are unique.
      expect(new Set(d.records.map((r) => r.id)).size).toBe(d.records.length);
      for (const r of d.records) expect(Object.keys(spec.kinds)).toContain(d.entities[r.entity]!.kind);
      // Replaying the log on the entity's fields gives the record's fields.
      for (const r of d.records) {
        const replay = { ...d.entities[r.entity]!.fields };
        for (const op of r.ops) {
          expect(replay[op.field] ?? '').toBe(op.before);
          replay[op.field] = op.after;
        }
        expect(replay).toEqual(r.fields);
        // First records get formatting and blanks only.
        if (r.index === 0) for (const op of r.ops) expect(['L2', 'completeness']).toContain(op.layer);
      }
      // Some entities have duplicates; hard negatives are there.
      expect(d.records.length).toBeGreaterThan(d.entities.length);
      expect(d.entities.some((e) => e.hardNegative)).toBe(true);
      // The search sample: one record per sampled entity, posted last.
      const sampled = new Set(d.searchSample);
      expect(new Set(d.records.filter((r) => sampled.has(r.id)).map((r) => r.entity)).size).toBe(sampled.size);
      expect(d.records.slice(-sampled.size).every((r) => sampled.has(r.id))).toBe(true);
      // Every record's wire identity validates against the service's identity schema.
      for (const r of d.records) {
        const wire = spec.toWire(r.kind, r.fields, { providerTypeMember: 'npis.entityTypeCode' });
        const parsed = SCHEMAS[service as keyof typeof SCHEMAS].safeParse(wire);
        expect(parsed.success, `${r.id} ${JSON.stringify(wire)} ${parsed.success ? '' : parsed.error.message}`).toBe(
          true,
        );
      }
    },
  );

  it('the clean preset applies formatting only; realistic and hard add life events and errors', () => {
    const layers = (preset: 'clean' | 'realistic' | 'hard') =>
      new Set(
        buildDataset({ preset, size: 800, seed: 3, kinds: { person: 1 } }).records.flatMap((r) =>
          r.ops.map((o) => o.layer),
        ),
      );
    expect([...layers('clean')]).toEqual(['L2']);
    expect(layers('realistic')).toEqual(new Set(['L1', 'L2', 'L3', 'completeness']));
    expect(PRESETS.hard.layers.L3).toBe(2);
  });

  it('every operator has a layer, a default probability in (0, 1) and a unique name per kind', () => {
    for (const ops of Object.values(OPERATORS)) {
      expect(new Set(ops.map((o) => o.name)).size).toBe(ops.length);
      for (const o of ops) {
        expect(o.p).toBeGreaterThan(0);
        expect(o.p).toBeLessThan(1);
      }
    }
  });
});
