/**
 * The provider generators: 1,000 seeds each validate against the spec schemas, carry their
 * provider type where the profile says, hold check-digit-valid fictional NPIs, use the DATE and
 * TIME wire forms, and are deterministic for a seed.
 */
import { describe, expect, test } from 'vitest';
import { seededFaker } from '../generators/seed.js';
import { fictionalNpi, isValidNpi, luhnCheckDigit, providerIdentity } from '../generators/provider.js';
import { HealthFacilityIdentity, PractitionerIdentity, providerTypeOf } from '../specs/provider/identity.js';
import { DateString, TimeString } from '../specs/common/wire.js';

const SCHEMA = { practitioner: PractitionerIdentity, healthFacility: HealthFacilityIdentity } as const;
const TYPE = { practitioner: '1', healthFacility: '2' } as const;
const source = { name: 'cf_test_a', id: 'cf-x-1' };

const walk = (v: unknown, key = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> => {
  if (Array.isArray(v)) v.forEach((x) => walk(x, key, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k, out);
  else out.push([key, v]);
  return out;
};

describe('provider generators', () => {
  test('the NPI check digit follows the CMS rule (80840 prefix, Luhn)', () => {
    expect(luhnCheckDigit('80840123456789')).toBe(3); // CMS worked example: 1234567893
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567894')).toBe(false);
  });

  for (const kind of ['practitioner', 'healthFacility'] as const) {
    test(`${kind}: 1,000 seeds validate, carry type ${TYPE[kind]}, valid fictional NPIs, wire-form dates and times`, () => {
      const problems: string[] = [];
      for (let seed = 1; seed <= 1000; seed++) {
        const identity = providerIdentity(kind, seededFaker(seed), source);
        const parsed = SCHEMA[kind].safeParse(identity);
        if (!parsed.success)
          problems.push(`seed ${seed}: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
        if (providerTypeOf(identity) !== TYPE[kind]) problems.push(`seed ${seed}: type ${providerTypeOf(identity)}`);
        for (const n of (identity.npis as Array<{ npi: string }>) ?? [])
          if (!isValidNpi(n.npi) || !n.npi.startsWith('9')) problems.push(`seed ${seed}: NPI ${n.npi}`);
        for (const [k, v] of walk(identity)) {
          if (/(Date|validFrom|validTo|dateOfBirth)$/.test(k) && !DateString.safeParse(v).success)
            problems.push(`seed ${seed}: ${k}=${String(v)}`);
          if (/Time$/.test(k) && !TimeString.safeParse(v).success) problems.push(`seed ${seed}: ${k}=${String(v)}`);
        }
      }
      expect(problems.slice(0, 10)).toEqual([]);
    });

    test(`${kind}: deterministic for a seed, different across seeds`, () => {
      expect(providerIdentity(kind, seededFaker(42))).toEqual(providerIdentity(kind, seededFaker(42)));
      expect(providerIdentity(kind, seededFaker(42))).not.toEqual(providerIdentity(kind, seededFaker(43)));
    });
  }

  test('the type goes where the profile says', () => {
    const setting = { typeMember: 'providerType', practitionerType: 'PRACTITIONER', healthFacilityType: 'FACILITY' };
    expect(providerIdentity('practitioner', seededFaker(7), undefined, setting).providerType).toBe('PRACTITIONER');
    expect(providerTypeOf(providerIdentity('healthFacility', seededFaker(7), undefined, setting), 'providerType')).toBe(
      'FACILITY',
    );
  });

  test('fictional NPIs are spread out (no collisions in 1,000)', () => {
    const f = seededFaker(1);
    expect(new Set(Array.from({ length: 1000 }, () => fictionalNpi(f))).size).toBe(1000);
  });
});
