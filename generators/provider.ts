/**
 * Valid provider identities, realistic (Faker, US English) and deterministic for a given Faker seed: practitioners
 * (type 1: names with credentials, birth date, NPI, state licence, specialty taxonomy) and health facilities (type 2:
 * facility names, addresses, facility type with its taxonomy, NPI, licence, authorized official).
 *
 * Source: person-provider-identity-api.md, "What the service does" (the two types); member names from the vendor
 * description (the seed marks provider identity fields "not shown"). Output validates against
 * specs/provider/identity.ts (PractitionerIdentity / HealthFacilityIdentity); the provider type is written where the
 * profile's `provider.typeMember` says (default npis.entityTypeCode).
 *
 * NPIs: 10 digits whose last digit is the Luhn check digit computed over the prefix 80840 plus the first nine digits
 * (the CMS NPI check-digit rule). CMS publishes no test-only NPI range; issued NPIs begin with 1 or 2 (the first digit
 * is reserved for the scheme), so every NPI made here begins with 9: well-formed, passes any check-digit validation,
 * yet no real provider has it.
 */
import type { Faker } from '@faker-js/faker';
import type { SourceRef } from '../specs/common/wire.js';
import { DEFAULT_TYPE_MEMBER, type ProviderKind, withProviderType } from '../specs/provider/identity.js';
import { bestTimeToContact, dateBetween, phoneDigits, validity } from './common.js';

/** Luhn check digit of a digit string (the digit that, appended, makes the whole string valid). */
export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    let d = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when a 10-digit NPI's last digit is the Luhn check digit over 80840 + its first nine. */
export const isValidNpi = (npi: string) =>
  /^\d{10}$/.test(npi) && luhnCheckDigit(`80840${npi.slice(0, 9)}`) === Number(npi[9]);

/** The first digit of every generated NPI: never issued (issued NPIs begin with 1 or 2). */
export const TEST_NPI_FIRST_DIGIT = '9';

/** A fictional, check-digit-valid NPI beginning with 9. */
export function fictionalNpi(f: Faker): string {
  const first9 = `${TEST_NPI_FIRST_DIGIT}${f.string.numeric(8)}`;
  return `${first9}${luhnCheckDigit(`80840${first9}`)}`;
}

const CREDENTIALS = [
  {
    credential: 'MD',
    profession: 'Medical Doctor',
    taxonomy: ['207Q00000X', '207R00000X', '207RC0000X', '208000000X'],
  },
  {
    credential: 'DO',
    profession: 'Doctor of Osteopathic Medicine',
    taxonomy: ['207Q00000X', '207R00000X', '208D00000X'],
  },
  { credential: 'NP', profession: 'Nurse Practitioner', taxonomy: ['363L00000X', '363LF0000X', '363LP0200X'] },
  { credential: 'PA', profession: 'Physician Assistant', taxonomy: ['363A00000X'] },
];

const FACILITY_TYPES = [
  {
    type: 'Hospital',
    subType: 'General Acute Care',
    taxonomy: '282N00000X',
    name: (f: Faker) => `${f.location.city()} General Hospital`,
  },
  {
    type: 'Clinic',
    subType: 'Primary Care',
    taxonomy: '261QP2300X',
    name: (f: Faker) => `${f.person.lastName()} Family Health Clinic`,
  },
  {
    type: 'Ambulatory Surgical Center',
    subType: 'Outpatient Surgery',
    taxonomy: '261QA1903X',
    name: (f: Faker) => `${f.location.street()} Surgery Center`,
  },
  {
    type: 'Urgent Care',
    subType: 'Walk-in',
    taxonomy: '261QU0200X',
    name: (f: Faker) => `${f.location.city()} Urgent Care`,
  },
  {
    type: 'Skilled Nursing Facility',
    subType: 'Long-term Care',
    taxonomy: '314000000X',
    name: (f: Faker) => `${f.person.lastName()} Gardens Nursing and Rehabilitation`,
  },
];

function address(f: Faker, name: string, type: string) {
  return {
    addressName: name,
    addressType: type,
    line1: f.location.streetAddress(),
    line2: f.helpers.maybe(() => f.location.secondaryAddress(), { probability: 0.4 }) ?? '',
    city: f.location.city(),
    district: f.location.county(),
    state: f.location.state({ abbreviated: true }),
    postalCode: f.location.zipCode('#####'),
    country: 'USA',
    latitude: f.location.latitude({ min: 25, max: 48, precision: 4 }),
    longitude: f.location.longitude({ min: -123, max: -70, precision: 4 }),
    ...validity(f),
  };
}

function licence(f: Faker, state: string, taxonomy: string, profession: string, description: string) {
  return {
    number: `${state}${f.string.alphanumeric({ length: 7, casing: 'upper' })}`,
    state,
    taxonomyCode: taxonomy,
    licenseEffectiveDate: dateBetween(f, 2000, 2018),
    licenseExpirationDate: dateBetween(f, 2030, 2036),
    licenseStatus: 'active',
    licenseStatusDetail: 'in good standing',
    licenseProfessionCode: profession,
    licenseProfessionRankCode: '1',
    licenseLastUpdateDate: dateBetween(f, 2022, 2025),
    licenseProfessionDescription: description,
    licenseType: 'permanent',
    licensePrimary: 'true',
  };
}

const withSource = (source?: SourceRef) => (source ? { sources: [{ name: source.name, id: source.id }] } : {});

/** A practitioner (type 1) identity. */
export function practitionerIdentity(f: Faker, source?: SourceRef) {
  const sex = f.helpers.arrayElement(['female', 'male'] as const);
  const first = f.person.firstName(sex);
  const last = f.person.lastName();
  const cred = f.helpers.arrayElement(CREDENTIALS);
  const taxonomy = f.helpers.arrayElement(cred.taxonomy);
  const office = address(f, 'Main Office', 'work');
  const domain = `${f.internet.domainWord()}-health.example.com`;
  return {
    ...withSource(source),
    names: [
      {
        use: 'official',
        prefix: cred.credential === 'MD' || cred.credential === 'DO' ? 'Dr.' : '',
        first,
        middle: f.person.middleName(sex),
        last,
        suffix: '',
        credential: cred.credential,
      },
    ],
    datesOfBirth: [{ dateOfBirth: dateBetween(f, 1950, 1992) }],
    genders: [{ gender: sex === 'female' ? 'F' : 'M' }],
    addresses: [office],
    contactInformation: [
      {
        address: office,
        phoneList: [{ number: phoneDigits(f), type: 'work' }],
        faxList: [{ number: phoneDigits(f), type: 'work' }],
        bestTimeToContact: [bestTimeToContact(f)],
      },
    ],
    phoneNumbers: [{ number: phoneDigits(f), type: 'work', ...validity(f) }],
    emails: [
      { email: `${first}.${last}@${domain}`.toLowerCase().replace(/[^a-z0-9.@-]/g, ''), type: 'work', ...validity(f) },
    ],
    npis: [{ npi: fictionalNpi(f), entityTypeCode: '1' }],
    license: [licence(f, office.state, taxonomy, cred.credential, cred.profession)],
    specialties: [{ specialtyTaxonomyCode: taxonomy }],
    communicationLanguages: [
      { language: 'en', preferred: true },
      ...(f.datatype.boolean() ? [{ language: 'es', preferred: false }] : []),
    ],
    practitionerRoles: [
      { acceptingNewPatients: f.datatype.boolean(), serviceMode: f.helpers.arrayElement(['in-person', 'telehealth']) },
    ],
    qualifications: [
      {
        type: 'board-certification',
        qualification: `Board certified (${cred.profession})`,
        status: 'active',
        issuer: 'Specialty Board',
        issueDate: dateBetween(f, 2005, 2018),
        ...validity(f),
      },
    ],
  };
}

/** A health facility (type 2) identity. */
export function healthFacilityIdentity(f: Faker, source?: SourceRef) {
  const kind = f.helpers.arrayElement(FACILITY_TYPES);
  const name = kind.name(f);
  const campus = address(f, 'Main Campus', 'work');
  const domain = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.org`;
  const officialSex = f.helpers.arrayElement(['female', 'male'] as const);
  return {
    ...withSource(source),
    organizationNames: [
      {
        legalBusinessName: name,
        otherOrgName: name.replace(/ (Center|Clinic|Hospital)$/, ''),
        tradingName: name,
        parentOrgName: `${f.location.state()} Health Network`,
      },
    ],
    addresses: [campus],
    contactInformation: [
      {
        address: campus,
        phoneList: [{ number: phoneDigits(f), type: 'work' }],
        faxList: [{ number: phoneDigits(f), type: 'work' }],
        bestTimeToContact: [bestTimeToContact(f)],
      },
    ],
    phoneNumbers: [{ number: phoneDigits(f), type: 'work', ...validity(f) }],
    faxNumbers: [{ number: phoneDigits(f), type: 'work', ...validity(f) }],
    emails: [{ email: `info@${domain}`, type: 'work', ...validity(f) }],
    npis: [{ npi: fictionalNpi(f), entityTypeCode: '2' }],
    license: [licence(f, campus.state, kind.taxonomy, 'HF', kind.type)],
    specialties: [{ specialtyTaxonomyCode: kind.taxonomy }],
    groupTaxonomies: [{ groupTaxonomyCode: kind.taxonomy }],
    types: [{ type: kind.type, subType: kind.subType }],
    authorizedOfficials: [
      {
        title: f.helpers.arrayElement(['Chief Executive Officer', 'Administrator', 'Chief Medical Officer']),
        prefix: '',
        first: f.person.firstName(officialSex),
        middle: '',
        last: f.person.lastName(),
        suffix: '',
        credential: f.helpers.arrayElement(['MHA', 'MD', 'MBA']),
        phoneNumber: phoneDigits(f),
      },
    ],
    employerIdentificationNumber: [
      {
        value: `${f.helpers.arrayElement(['07', '08', '09', '17', '18', '19'])}-${f.string.numeric(7)}`,
        status: true,
        issuer: 'IRS',
        issueDate: dateBetween(f, 1990, 2015),
        ...validity(f),
      },
    ],
  };
}

export const PROVIDER_GENERATORS: Record<ProviderKind, (f: Faker, source?: SourceRef) => Record<string, unknown>> = {
  practitioner: practitionerIdentity,
  healthFacility: healthFacilityIdentity,
};

/** Where and how the profile says the provider type is carried. */
export interface ProviderTypeSetting {
  typeMember: string;
  practitionerType: string;
  healthFacilityType: string;
}

/** A provider identity of `kind` with its type written where `setting` says (profile provider.*). */
export function providerIdentity(
  kind: ProviderKind,
  f: Faker,
  source?: SourceRef,
  setting?: ProviderTypeSetting,
): Record<string, unknown> {
  const identity = PROVIDER_GENERATORS[kind](f, source);
  const path = setting?.typeMember ?? DEFAULT_TYPE_MEMBER;
  const value = kind === 'practitioner' ? (setting?.practitionerType ?? '1') : (setting?.healthFacilityType ?? '2');
  return withProviderType(identity, value, path);
}
