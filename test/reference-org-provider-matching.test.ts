/**
 * The reference's organization and provider matchers (reference/matching/organization.ts,
 * provider.ts, evidence.ts): name normalisation as token sets, and the decisions the
 * match-quality benchmark and the conformance scenarios rely on (formatting variants and shared
 * identifiers link; chain branches, same names elsewhere and father/son practitioners do not).
 */
import { describe, expect, it } from 'vitest';
import { orgName, orgNameLevel } from '../reference/matching/evidence.js';
import { scoreOrganization } from '../reference/matching/organization.js';
import { scoreProvider } from '../reference/matching/provider.js';

const THRESHOLD = 0.9;

describe('organization names', () => {
  it.each([
    ['Acme Pharmacy Inc', 'ACME PHARMACY INCORPORATED', 0],
    ["St. Mary's Hosp", 'Saint Marys Hospital', 0],
    ['Smith & Jones Dental Associates LLC', 'The Smith and Jones Dental Assoc.', 0],
    ['Bednar & Grady Imaging Center P.L.L.C.', 'Bednar & Grady Imaging Center PLLC', 0],
    ['Mercy Hospital Medical Center', 'Mercy Hospital Medical', 1],
    ['SMRMC', 'Saint Mary Regional Medical Center', 1],
    ['Hartley Pharmacy', 'Quinton Eye Care', 2],
  ] as const)('%s vs %s: level %i', (a, b, level) => {
    expect(orgNameLevel(orgName(a)!, orgName(b)!)).toBe(level);
    expect(orgNameLevel(orgName(b)!, orgName(a)!)).toBe(level);
  });

  it('reads a store number apart from the name', () => {
    expect(orgName('CVS Pharmacy #0421')).toMatchObject({ tokens: ['cvs', 'pharmacy'], store: '421' });
  });
});

const org = (
  name: string,
  o: { ein?: string; npi?: string; line1?: string; zip?: string; city?: string; phone?: string } = {},
) => ({
  organizationNames: [{ legalBusinessName: name }],
  addresses: [{ line1: o.line1 ?? '12 Main Street', city: o.city ?? 'Springfield', postalCode: o.zip ?? '62701' }],
  ...(o.phone !== '' ? { phoneNumbers: [{ number: o.phone ?? '217-555-0101' }] } : {}),
  ...(o.ein ? { employerIdentificationNumber: [{ value: o.ein }] } : {}),
  ...(o.npi ? { alternateIdentifiers: [{ type: 'NPI', value: o.npi }] } : {}),
});

describe('organization decisions', () => {
  it('links formatting variants and records sharing identifiers; keeps branches and namesakes apart', () => {
    const a = org('Acme Pharmacy Inc', { ein: '07-1234567', npi: '9212345678' });
    expect(
      scoreOrganization(a, org('ACME PHARMACY', { line1: '12 Main St', zip: '62701-1234', phone: '(217) 555-0101' })),
    ).toBeGreaterThanOrEqual(THRESHOLD);
    expect(
      scoreOrganization(a, org('Acme Pharmacy', { npi: '9212345678', line1: '9 Elm Rd', zip: '62702', phone: '' })),
    ).toBeGreaterThanOrEqual(THRESHOLD);
    // Chain branches share the brand (and here the EIN) but not the store number.
    expect(
      scoreOrganization(
        org('Acme Pharmacy #0001', { ein: '07-1234567' }),
        org('Acme Pharmacy #0002', { ein: '07-1234567', line1: '9 Elm Rd', phone: '217-555-0199' }),
      ),
    ).toBeLessThan(THRESHOLD);
    // The same name in another city with another NPI.
    expect(
      scoreOrganization(
        a,
        org('Acme Pharmacy Inc', {
          npi: '9299999999',
          line1: '1 Oak Ave',
          city: 'Dayton',
          zip: '45402',
          phone: '937-555-0111',
        }),
      ),
    ).toBeLessThan(THRESHOLD);
  });
});

const practitioner = (
  first: string,
  last: string,
  o: { npi?: string; suffix?: string; line1?: string; phone?: string } = {},
) => ({
  names: [{ first, last, ...(o.suffix ? { suffix: o.suffix } : {}) }],
  npis: [{ entityTypeCode: '1', ...(o.npi ? { npi: o.npi } : {}) }],
  addresses: [{ line1: o.line1 ?? '40 Clinic Way', postalCode: '62701', city: 'Springfield' }],
  phoneNumbers: [{ number: o.phone ?? '217-555-0120' }],
  specialties: [{ specialtyTaxonomyCode: 'Cardiology' }],
});

describe('provider decisions', () => {
  it('links a practitioner by NPI across a nickname and a move; keeps father and son apart', () => {
    const a = practitioner('Robert', 'Hale', { npi: '9112345678' });
    expect(
      scoreProvider(a, practitioner('Bob', 'HALE', { npi: '9112345678', line1: '7 Harbor Rd', phone: '217-555-0177' })),
    ).toBeGreaterThanOrEqual(THRESHOLD);
    expect(scoreProvider(a, practitioner('Robert', 'Hale', { phone: '217-555-0120' }))).toBeGreaterThanOrEqual(
      THRESHOLD,
    );
    expect(
      scoreProvider(
        practitioner('Robert', 'Hale', { npi: '9112345678', suffix: 'Sr' }),
        practitioner('Robert', 'Hale', { suffix: 'Jr' }),
      ),
    ).toBeLessThan(THRESHOLD);
    expect(scoreProvider(a, practitioner('Robert', 'Hale', { npi: '9187654321' }))).toBeLessThan(THRESHOLD);
  });

  it('compares health facilities like organizations', () => {
    const facility = (name: string, npi: string) => ({
      organizationNames: [{ legalBusinessName: name }],
      npis: [{ npi, entityTypeCode: '2' }],
      addresses: [{ line1: '1 Hospital Dr', postalCode: '62701' }],
    });
    expect(
      scoreProvider(
        facility('Saint Luke Memorial Hospital', '9212345678'),
        facility('St. Luke Mem. Hosp.', '9212345678'),
      ),
    ).toBeGreaterThanOrEqual(THRESHOLD);
    expect(
      scoreProvider(
        facility('Saint Luke Memorial Hospital', '9212345678'),
        facility('Saint Luke Memorial Hospital', '9287654321'),
      ),
    ).toBeLessThan(THRESHOLD);
  });
});
