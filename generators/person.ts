/**
 * Valid person identities covering every array of the seed's person identity table, realistic (Faker, US English) and
 * deterministic for a given Faker seed; and households (several people sharing one address and family name).
 *
 * Source: person-provider-identity-api.md, Resources, "Person identity". Output validates against
 * specs/person/identity.ts: DATE members yyyy-MM-dd, latitude and longitude JSON numbers, deathIndicator a JSON
 * boolean.
 *
 * SSNs: the Social Security Administration never issues area numbers 900-999 (that range is used for taxpayer
 * identification numbers, not SSNs), so every SSN here has the form `9AA-GG-SSSS` (area 900-999, group 01-99, serial
 * 0001-9999): SSN-shaped, never a real one. Phone numbers use the fictional 555 exchange; e-mail addresses the reserved
 * example.com domain.
 */
import type { Faker } from '@faker-js/faker';
import type { SourceRef } from '../specs/common/wire.js';
import type { PersonIdentity } from '../specs/person/identity.js';
import { dateBetween, phoneDigits } from './common.js';

type Person = PersonIdentity & { sources?: SourceRef[] };
type Address = NonNullable<PersonIdentity['addresses']>[number];

/** An SSN-shaped number in the never-issued area range 900-999 (see the module docstring). */
export const fictionalSsn = (f: Faker) => {
  const area = f.number.int({ min: 900, max: 999 });
  const group = String(f.number.int({ min: 1, max: 99 })).padStart(2, '0');
  return `${area}-${group}-${String(f.number.int({ min: 1, max: 9999 })).padStart(4, '0')}`;
};

/** A US home address with coordinates (JSON numbers). */
export function personAddress(f: Faker): Address {
  return {
    type: 'home',
    line1: f.location.streetAddress(),
    line2: f.helpers.maybe(() => f.location.secondaryAddress(), { probability: 0.3 }) ?? '',
    city: f.location.city(),
    state: f.location.state({ abbreviated: true }),
    postalCode: f.location.zipCode('#####'),
    country: 'USA',
    latitude: f.location.latitude({ min: 25, max: 48, precision: 4 }),
    longitude: f.location.longitude({ min: -123, max: -70, precision: 4 }),
  };
}

/** Death details: most people are alive (deathIndicator false); the others died after birth. */
function deathDetails(f: Faker, dateOfBirth: string) {
  if (f.number.int({ min: 1, max: 10 }) > 1) return { deathIndicator: false };
  const born = Number(dateOfBirth.slice(0, 4));
  return { deathIndicator: true, deathDate: dateBetween(f, Math.min(born + 20, 2024), 2024) };
}

/**
 * A complete person identity (every array of the identity table, one element each) with `sources` set when a source
 * reference is given. `shared` fixes the address and family name (households).
 */
export function personIdentity(
  f: Faker,
  source?: SourceRef,
  shared: { address?: Address; lastName?: string } = {},
): Person {
  const sex = f.helpers.arrayElement(['female', 'male'] as const);
  const firstName = f.person.firstName(sex);
  const lastName = shared.lastName ?? f.person.lastName();
  const dateOfBirth = dateBetween(f, 1935, 2005);
  const handle = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]+/g, '');
  return {
    ...(source ? { sources: [{ name: source.name, id: source.id }] } : {}),
    names: [
      {
        prefix: f.helpers.arrayElement(sex === 'female' ? ['Ms.', 'Mrs.', 'Dr.', ''] : ['Mr.', 'Dr.', '']),
        firstName,
        middleName: f.person.middleName(sex),
        lastName,
        suffix: sex === 'male' ? f.helpers.arrayElement(['', '', '', 'Jr.', 'III']) : '',
      },
    ],
    addresses: [shared.address ?? personAddress(f)],
    datesOfBirth: [{ dateOfBirth }],
    ssns: [{ ssn: fictionalSsn(f) }],
    genders: [{ gender: sex === 'female' ? 'F' : 'M' }],
    phoneNumbers: [
      {
        countryCode: '+1',
        number: phoneDigits(f),
        extension: f.helpers.maybe(() => f.string.numeric(3), { probability: 0.2 }) ?? '',
        type: f.helpers.arrayElement(['mobile', 'home']),
      },
    ],
    emails: [
      {
        email: `${handle}${f.number.int({ min: 1, max: 999 })}@example.com`,
        type: f.helpers.arrayElement(['home', 'work']),
      },
    ],
    deathDetails: [deathDetails(f, dateOfBirth)],
  };
}

/**
 * A household: `size` people (default 2-5) sharing one address and family name, each a distinct person (own first name,
 * date of birth, SSN). `sources[i]`, when given, is set on person i.
 */
export function personHousehold(
  f: Faker,
  sources: SourceRef[] = [],
  size = sources.length || f.number.int({ min: 2, max: 5 }),
): Person[] {
  const address = personAddress(f);
  const lastName = f.person.lastName();
  return Array.from({ length: size }, (_, i) => personIdentity(f, sources[i], { address, lastName }));
}
