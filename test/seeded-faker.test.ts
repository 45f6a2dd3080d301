/**
 * seededFaker (generators/seed.ts) loads only the US English locale, and must give the same data
 * for a seed as a Faker built from the package root with the locale chain en_US, en, base
 * (CONFORMANCE_SEED replays a run's data).
 */
import { Faker, base, en, en_US } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { seededFaker } from '../generators/seed.js';

const REF_DATE = '2026-01-01T00:00:00.000Z';
const sample = (f: Faker) => [
  f.person.fullName(),
  f.person.middleName(),
  f.person.suffix(),
  f.location.streetAddress(true),
  f.location.city(),
  f.location.state({ abbreviated: true }),
  f.location.zipCode(),
  f.company.name(),
  f.phone.number(),
  f.internet.email(),
  f.date.birthdate({ refDate: REF_DATE }).toISOString(),
  f.string.alphanumeric(10),
  f.helpers.shuffle([1, 2, 3, 4, 5]).join(),
  f.lorem.words(3),
];

describe('seededFaker', () => {
  it('gives the data of a root-built en_US, en, base Faker for 200 seeds', () => {
    for (let seed = 0; seed < 200; seed++) {
      const root = new Faker({ locale: [en_US, en, base] });
      root.seed(seed);
      expect(sample(seededFaker(seed)), `seed ${seed}`).toEqual(sample(root));
    }
  });

  it('gives different data for different seeds', () => {
    expect(sample(seededFaker(1))).not.toEqual(sample(seededFaker(2)));
  });
});
