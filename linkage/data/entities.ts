/**
 * Ground-truth entities of the match-quality benchmark: person, organization, practitioner and health facility, as flat
 * field maps (every value a string, '' = blank). Complete and internally consistent: ZIP, city and state come together
 * from `zipcodes`; SSNs lie in the never-issued 9xx area; NPIs are Luhn-valid (prefix 80840) in a range starting 19,
 * EINs use unassigned prefixes.
 * Source: linkage/README.md, "Data".
 */
import type { Faker } from '@faker-js/faker';
import { luhnCheckDigit } from '../../generators/provider.js';
import type { Rng } from './edits.js';
import {
  CREDENTIALS,
  FACILITY_TYPES,
  FORMAL_NAMES,
  LEGAL_SUFFIXES,
  ORG_TRADES,
  SAINTS,
  SPECIALTIES,
} from './tables.js';
import { zipPlaces } from './zip-places.js';

export type EntityKind = 'person' | 'organization' | 'practitioner' | 'facility';
export type Fields = Record<string, string>;

export interface Entity {
  id: number;
  kind: EntityKind;
  fields: Fields;
  /** Hard-negative group this entity belongs to (distinct entities that look alike). */
  hardNegative?: { group: string; kind: string };
  /** The cluster ID a truth set's key gives this entity (absent for generated entities). */
  label?: string;
}

interface Place {
  zip: string;
  city: string;
  state: string;
}

const STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH ' +
    'OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'
  ).split(' '),
);
let places: { all: Place[]; byState: Map<string, Place[]>; byZip3: Map<string, Place[]> } | undefined;

/** Every US ZIP code with its city and state (from the zipcodes package, linkage/data/zip-places.ts), loaded once. */
export function placeTable() {
  if (!places) {
    const all = zipPlaces()
      .filter((z) => STATES.has(z.state) && /^\d{5}$/.test(z.zip))
      .sort((a, b) => a.zip.localeCompare(b.zip));
    const byState = new Map<string, Place[]>();
    const byZip3 = new Map<string, Place[]>();
    for (const p of all) {
      (byState.get(p.state) ?? byState.set(p.state, []).get(p.state)!).push(p);
      const z3 = p.zip.slice(0, 3);
      (byZip3.get(z3) ?? byZip3.set(z3, []).get(z3)!).push(p);
    }
    places = { all, byState, byZip3 };
  }
  return places;
}

/** A street address in a place: line1, line2 (often blank), city, state, postalCode. */
export function addressFields(f: Faker, rng: Rng, place: Place): Fields {
  const unit = rng.chance(0.2)
    ? `${rng.pick(['Apt', 'Unit', 'Suite'])} ${rng.int(1, 40)}${rng.chance(0.3) ? rng.pick(['A', 'B', 'C']) : ''}`
    : '';
  const street =
    `${rng.int(1, 9999)} ` +
    `${rng.chance(0.15) ? `${rng.pick(['North', 'South', 'East', 'West'])} ` : ''}${f.location.street()}`;
  return { line1: street, line2: unit, city: place.city, state: place.state, postalCode: place.zip };
}

/** A place: anywhere (weighted by ZIP count), in a state, or near a ZIP (same first 3 digits). */
export function randomPlace(rng: Rng, near?: { state?: string; zip3?: string }): Place {
  const t = placeTable();
  const pool = (near?.zip3 && t.byZip3.get(near.zip3)) || (near?.state && t.byState.get(near.state)) || t.all;
  return rng.pick(pool);
}

/** Ten-digit phone NXX-555-01XX (the fictional 555-0100..0199 lines). */
export const phoneNumber = (rng: Rng) => `${rng.int(201, 989)}-555-01${String(rng.int(0, 99)).padStart(2, '0')}`;

/** SSN in the never-issued 900–999 area, written NNN-NN-NNNN. */
export const fictionalSsn = (rng: Rng) => {
  const area = String(rng.int(0, 99)).padStart(2, '0');
  const group = String(rng.int(1, 99)).padStart(2, '0');
  return `9${area}-${group}-${String(rng.int(1, 9999)).padStart(4, '0')}`;
};

/** A Luhn-valid NPI beginning with 9 (never issued; see generators/provider.ts), then the type digit. */
export function fictionalNpi(rng: Rng, type: 1 | 2): string {
  const body = `9${type}${String(rng.int(0, 9999999)).padStart(7, '0')}`;
  return `${body}${luhnCheckDigit(`80840${body}`)}`;
}

/** EIN with a prefix no IRS campus assigns. */
export const fictionalEin = (rng: Rng) =>
  `${rng.pick(['07', '08', '09', '17', '18', '19', '28', '29'])}-${String(rng.int(0, 9999999)).padStart(7, '0')}`;

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
/** A DOB between two years (day ≤ 28 so every month is valid). */
export const birthDate = (rng: Rng, from: number, to: number) => iso(rng.int(from, to), rng.int(1, 12), rng.int(1, 28));

/**
 * Share of entities whose given name is drawn from the formal names of the nickname table (tables.ts NICKNAMES), the
 * rest from Faker. Faker's name lists are long-tailed, so few of its names have a common nickname; in the US the
 * hundred most frequent given names cover roughly half of the people born 1940–2000 (SSA baby-name counts), and the
 * table holds the formal names among them that have a common nickname. 0.4 is our calibration; with it the
 * `given.nickname` operator (p 0.06 when applicable, the default) gets a realistic share of pairs.
 */
export const P_TABLE_GIVEN_NAME = 0.4;

/** A given name for `sex`: a formal name of the nickname table with P_TABLE_GIVEN_NAME, else Faker's. */
export const givenName = (f: Faker, rng: Rng, sex: string) =>
  rng.chance(P_TABLE_GIVEN_NAME)
    ? rng.pick(FORMAL_NAMES[sex === 'F' ? 'F' : 'M'])
    : f.person.firstName(sex === 'F' ? 'female' : 'male');

export function person(f: Faker, rng: Rng, id: number, over: Partial<Fields> = {}): Entity {
  const sex = over.sex ?? (rng.chance(0.5) ? 'F' : 'M');
  const given = over.given ?? givenName(f, rng, sex);
  const family = f.person.lastName();
  const place = randomPlace(rng);
  const fields: Fields = {
    given,
    middle: rng.chance(0.8) ? f.person.firstName(sex === 'F' ? 'female' : 'male') : '',
    family,
    suffix: '',
    sex,
    dob: birthDate(rng, 1935, 2020),
    ssn: fictionalSsn(rng),
    ...addressFields(f, rng, place),
    phone: phoneNumber(rng),
    email: `${given}.${family}${rng.int(1, 99)}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, ''),
    ...over,
  };
  return { id, kind: 'person', fields };
}

export function practitioner(f: Faker, rng: Rng, id: number, over: Partial<Fields> = {}): Entity {
  const base = person(f, rng, id).fields;
  const credential = rng.pick(Object.keys(CREDENTIALS));
  const fields: Fields = {
    prefix: credential === 'MD' || credential === 'DO' ? 'Dr.' : '',
    given: base.given!,
    middle: base.middle!,
    family: base.family!,
    suffix: '',
    credential,
    sex: base.sex!,
    npi: fictionalNpi(rng, 1),
    specialty: rng.pick(SPECIALTIES)[0],
    ...addressFields(f, rng, randomPlace(rng)),
    phone: phoneNumber(rng),
    ...over,
  };
  return { id, kind: 'practitioner', fields };
}

/** A health facility: "Saint Mary Regional Medical Center", "Springfield Community Hospital". */
export function facility(f: Faker, rng: Rng, id: number, over: Partial<Fields> = {}): Entity {
  const place = randomPlace(rng);
  const stem = rng.chance(0.5) ? rng.pick(SAINTS) : rng.chance(0.5) ? place.city : f.person.lastName();
  const fields: Fields = {
    name: `${stem} ${rng.pick(FACILITY_TYPES)}`,
    ...addressFields(f, rng, place),
    phone: phoneNumber(rng),
    ein: fictionalEin(rng),
    npi: fictionalNpi(rng, 2),
    ...over,
  };
  return { id, kind: 'facility', fields };
}

/** An organization: a brand, a trade and a legal suffix ("Hartley & Sons Pharmacy Inc"). */
export function organization(f: Faker, rng: Rng, id: number, over: Partial<Fields> = {}): Entity {
  const place = randomPlace(rng);
  const brand = rng.chance(0.3)
    ? `${f.person.lastName()} & ${f.person.lastName()}`
    : rng.chance(0.5)
      ? f.person.lastName()
      : f.company
          .name()
          .replace(/[,]/g, '')
          .replace(/ (Inc|LLC|Group|and Sons)$/, '');
  const fields: Fields = {
    name: `${brand} ${rng.pick(ORG_TRADES)} ${rng.pick(rng.pick(LEGAL_SUFFIXES))}`,
    ...addressFields(f, rng, place),
    phone: phoneNumber(rng),
    ein: fictionalEin(rng),
    npi: fictionalNpi(rng, 2),
    ...over,
  };
  return { id, kind: 'organization', fields };
}

export const ENTITY_BUILDERS: Record<EntityKind, (f: Faker, rng: Rng, id: number, over?: Partial<Fields>) => Entity> = {
  person,
  organization,
  practitioner,
  facility,
};
