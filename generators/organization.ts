/**
 * Valid organization identities covering every array of the seed's identity table, realistic (Faker, US English) and
 * deterministic for a given Faker seed.
 *
 * Source: organization-identity-api.md, Resources, "Organization identity" and "Field data types". Output: an object
 * that validates against specs/organization/identity.ts; NUMBER members are strings, DATE yyyy-MM-dd, TIME HH:mm,
 * BOOLEAN JSON booleans.
 */
import type { Faker } from '@faker-js/faker';
import type { SourceRef } from '../specs/common/wire.js';
import type { OrganizationIdentity } from '../specs/organization/identity.js';
import { bestTimeToContact, dateBetween, phoneDigits, validity } from './common.js';

const SUFFIXES = ['Inc', 'LLC', 'Corporation', 'Ltd', 'Co', 'Group', 'Partners'];
const NAICS = [
  { sector: '62', subSector: '621', industryGroup: '6211', industry: '62111', nationalIndustry: '621111' },
  { sector: '54', subSector: '541', industryGroup: '5415', industry: '54151', nationalIndustry: '541511' },
  { sector: '52', subSector: '524', industryGroup: '5241', industry: '52411', nationalIndustry: '524114' },
  { sector: '44', subSector: '445', industryGroup: '4451', industry: '44511', nationalIndustry: '445110' },
];

/** An EIN-shaped number `NN-NNNNNNN` with a prefix no IRS campus assigns (never a real EIN). */
const fictionalEin = (f: Faker) =>
  `${f.helpers.arrayElement(['07', '08', '09', '17', '18', '19', '28', '29'])}-${f.string.numeric(7)}`;

function address(f: Faker, type: string) {
  return {
    addressName: type === 'work' ? 'Headquarters' : 'Mailing',
    addressType: type,
    line1: f.location.streetAddress(),
    line2: f.helpers.maybe(() => f.location.secondaryAddress(), { probability: 0.4 }) ?? '',
    city: f.location.city(),
    district: `${f.location.county()}`,
    state: f.location.state({ abbreviated: true }),
    postalCode: f.location.zipCode('#####'),
    country: 'USA',
    latitude: String(f.location.latitude({ min: 25, max: 48, precision: 4 })),
    longitude: String(f.location.longitude({ min: -123, max: -70, precision: 4 })),
    ...validity(f),
  };
}

/**
 * A complete organization identity (every array of the identity table, one element each, two addresses) with `sources`
 * set when a source reference is given.
 */
export function organizationIdentity(f: Faker, source?: SourceRef): OrganizationIdentity & { sources?: SourceRef[] } {
  const base = f.company.name().replace(/[,]/g, '');
  const legal = `${base} ${f.helpers.arrayElement(SUFFIXES)}`;
  const first = f.person.firstName();
  const last = f.person.lastName();
  const founded = dateBetween(f, 1950, 2015);
  const phone = phoneDigits(f);
  const domain = `${base.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.com`;
  return {
    ...(source ? { sources: [{ name: source.name, id: source.id }] } : {}),
    organizationNames: [
      {
        legalBusinessName: legal,
        otherOrgName: base,
        tradingName: `${base} ${f.company.buzzNoun()}`,
        parentOrgName: `${f.company.name()} Holdings`,
      },
    ],
    addresses: [address(f, 'work'), address(f, 'mailing')],
    contactInformation: [
      {
        address: address(f, 'work'),
        phoneList: [{ number: phoneDigits(f), type: 'work', bestTimeToContact: bestTimeToContact(f) }],
        faxList: [{ number: phoneDigits(f) }],
        bestTimeToContact: bestTimeToContact(f),
      },
    ],
    phoneNumbers: [{ number: phone, type: 'work', ...validity(f), bestTimeToContact: bestTimeToContact(f) }],
    faxNumbers: [{ number: phoneDigits(f), type: 'work', ...validity(f) }],
    emails: [{ email: `info@${domain}`, type: 'work', ...validity(f) }],
    ...registrations(f, founded, first, last),
    ...business(f, founded, domain),
  };
}

/** The organization's registrations: identifiers, an official, EIN, classifications, qualifications and types. */
function registrations(f: Faker, founded: string, first: string, last: string) {
  return {
    alternateIdentifiers: [
      {
        description: 'State business registration',
        type: 'SBR',
        value: `SBR-${f.string.alphanumeric({ length: 8, casing: 'upper' })}`,
        status: true,
        issuer: 'Secretary of State',
        issueDate: founded,
        startDate: founded,
        endDate: dateBetween(f, 2030, 2040),
      },
    ],
    externalUniqueIdentifier: [
      {
        issuer: 'Dun & Bradstreet (fictional)',
        value: `DUNS-${f.string.numeric(9)}`,
        status: 'active',
        startDate: founded,
        endDate: dateBetween(f, 2030, 2040),
      },
    ],
    authorizedOfficials: [
      {
        title: f.helpers.arrayElement(['CEO', 'CFO', 'President', 'Director']),
        prefix: f.person.prefix(),
        first,
        middle: f.person.middleName(),
        last,
        suffix: '',
        credential: f.helpers.arrayElement(['MBA', 'CPA', 'JD', '']),
        phoneNumber: phoneDigits(f),
      },
    ],
    employerIdentificationNumber: [
      { value: fictionalEin(f), status: true, issuer: 'IRS', issueDate: founded, ...validity(f) },
    ],
    naicsClassifications: [f.helpers.arrayElement(NAICS)],
    sicClassifications: [{ code: f.helpers.arrayElement(['8011', '7372', '6411', '5411']) }],
    qualifications: [
      {
        type: 'license',
        qualification: f.helpers.arrayElement(['Business License', 'Health Facility License', 'Insurance Producer']),
        status: 'active',
        issuer: 'State Board',
        issueDate: founded,
        ...validity(f),
      },
    ],
    types: [
      {
        type: f.helpers.arrayElement(['corporation', 'partnership', 'nonprofit']),
        subType: f.helpers.arrayElement(['private', 'public']),
      },
    ],
  };
}

/** The business: web site, a product, employees, founding, revenue and legal status. */
function business(f: Faker, founded: string, domain: string) {
  return {
    contactOther: [{ system: 'url', type: 'website', value: `https://www.${domain}`, ...validity(f) }],
    product: [
      {
        name: `${f.commerce.productName()}`,
        code: f.string.alphanumeric({ length: 6, casing: 'upper' }),
        category: f.commerce.department(),
        type: 'service',
        price: f.commerce.price({ min: 10, max: 5000 }),
        status: 'active',
        description: f.commerce.productDescription(),
        launchDate: dateBetween(f, 2016, 2024),
        market: 'US',
        lineOfBusiness: f.commerce.department(),
        serviceLines: [{ serviceLine: f.commerce.department(), subServiceLine: f.commerce.productAdjective() }],
      },
    ],
    numberOfEmployees: [{ numberOfEmployees: String(f.number.int({ min: 5, max: 50000 })) }],
    foundedDate: [{ foundedDate: founded }],
    annualRevenue: [
      {
        annualRevenue: String(f.number.int({ min: 100000, max: 900000000 })),
        year: String(f.number.int({ min: 2019, max: 2025 })),
      },
    ],
    legalStatus: [
      {
        type: f.helpers.arrayElement(['active', 'good standing']),
        source: 'Secretary of State',
        effectiveDate: founded,
        verificationDate: dateBetween(f, 2022, 2025),
        jurisdiction: f.location.state(),
        registrationCountry: 'US',
      },
    ],
  };
}
