/**
 * A record of the Senzing truth-set format as the benchmark's flat fields (linkage/data/wire.ts WIRE_FIELDS). A Senzing
 * record is `{DATA_SOURCE, RECORD_ID, FEATURES: [{...}, ...]}`: RECORD_TYPE PERSON or ORGANIZATION, and feature objects
 * such as {NAME_LAST, NAME_FIRST}, {DATE_OF_BIRTH}, {ADDR_LINE1, ADDR_CITY, ...}, {PHONE_NUMBER}, {EMAIL_ADDRESS},
 * {SSN_NUMBER}, {NAME_ORG}, {TAX_ID_TYPE, TAX_ID_NUMBER}. Members beside FEATURES (AMOUNT, STATUS, ...) are the data
 * source's own and not identity data.
 *
 * Mapping (linkage/README.md, "Bring your own ground truth"): the first name, address, phone, e-mail and identifier
 * feature of a kind is sent (names of type AKA only when the record has no other); NAME_FULL gives the given name(s)
 * and the last word as the family name; dates of birth in month/day/year (two-digit years in the 100 years up to
 * today), ISO, day-month-name-year or month-name-day-year become yyyy-MM-dd (date-fns); GENDER M/F/U and
 * Male/Female/Unknown become M/F/U; an e-mail in display-name form (`Name <addr>`) gives its address, and one that is
 * no address is not sent; an EIN is sent, other tax IDs are not. Every feature member the service's identity has no
 * member for (passports, driving licences, national IDs, relationships, a second address) is counted as not sent, so
 * the import can say what the deployment never saw.
 */
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';
import { subYears } from 'date-fns/subYears';
import { z } from 'zod';
import type { EntityKind, Fields } from '../data/entities.js';

type Feature = Record<string, unknown>;

/** Feature members that describe another member (its type, usage) rather than carry identity data. */
const DESCRIPTORS = new Set(['RECORD_TYPE', 'NAME_TYPE', 'ADDR_TYPE', 'PHONE_TYPE', 'TAX_ID_TYPE', 'NATIONAL_ID_TYPE']);

const DATE_FORMATS = [
  'yyyy-MM-dd',
  'M/d/yyyy',
  'M/d/yy',
  'd-MMM-yyyy',
  'd-MMM-yy',
  'MMM d yyyy',
  'MMM d, yyyy',
  'yyyyMMdd',
];

/**
 * A date of birth as yyyy-MM-dd, or '' when it is no full date (a year alone, text). Two-digit years fall in the 100
 * years up to `today`.
 */
export function isoDate(text: string, today = new Date()): string {
  const reference = subYears(today, 49);
  for (const f of DATE_FORMATS) {
    const d = parse(text.trim(), f, reference);
    if (isValid(d) && d.getFullYear() >= 1800 && d <= today)
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }
  return '';
}

/**
 * The address of an e-mail value: a display-name form (`Name <addr>`) gives the address inside the brackets; a value
 * that is then no e-mail address (the person identity's e-mail member is an address: specs/person/identity.ts) gives ''
 * and is counted as not sent.
 */
export function emailAddress(value: string): string {
  const address = /<([^<>]+)>\s*$/.exec(value)?.[1]?.trim() ?? value.trim();
  return z.email().safeParse(address).success ? address : '';
}

const SEX: Record<string, string> = { m: 'M', male: 'M', f: 'F', female: 'F', u: 'U', unknown: 'U' };

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

/** The record's kind: PERSON is a person, ORGANIZATION an organization; undefined otherwise. */
export function senzingKind(features: Feature[]): EntityKind | undefined {
  const type = text(features.find((f) => 'RECORD_TYPE' in f)?.RECORD_TYPE).toUpperCase();
  return type === 'PERSON' ? 'person' : type === 'ORGANIZATION' ? 'organization' : undefined;
}

/**
 * The flat fields of a Senzing record's features for `kind`, and the feature members not sent.
 */
export function senzingFields(features: Feature[], kind: EntityKind): { fields: Fields; notSent: string[] } {
  const fields: Fields = {};
  const sent = new Set<Feature>();
  const set = (feature: Feature, values: Fields) => {
    for (const [k, v] of Object.entries(values)) if (v) fields[k] = v;
    sent.add(feature);
  };
  const first = (test: (f: Feature) => boolean) => features.find((f) => test(f) && !sent.has(f));
  const named = (f: Feature) => 'NAME_FIRST' in f || 'NAME_LAST' in f || 'NAME_FULL' in f;
  const primary = <T>(list: T[], isAka: (x: T) => boolean) => list.find((x) => !isAka(x)) ?? list[0];
  const aka = (f: Feature) => text(f.NAME_TYPE).toUpperCase() === 'AKA';

  if (kind === 'person' || kind === 'practitioner') {
    const name = primary(features.filter(named), aka);
    if (name) {
      const full = text(name.NAME_FULL).split(/\s+/).filter(Boolean);
      set(name, {
        given: text(name.NAME_FIRST) || full.slice(0, -1).join(' '),
        middle: text(name.NAME_MIDDLE),
        family: text(name.NAME_LAST) || full.at(-1) || '',
        suffix: text(name.NAME_SUFFIX),
      });
    }
    const dob = first((f) => 'DATE_OF_BIRTH' in f);
    if (dob && isoDate(text(dob.DATE_OF_BIRTH))) set(dob, { dob: isoDate(text(dob.DATE_OF_BIRTH)) });
    const gender = first((f) => 'GENDER' in f);
    if (gender && SEX[text(gender.GENDER).toLowerCase()]) set(gender, { sex: SEX[text(gender.GENDER).toLowerCase()]! });
    const ssn = first((f) => 'SSN_NUMBER' in f);
    if (ssn) set(ssn, { ssn: text(ssn.SSN_NUMBER) });
    const email = first((f) => 'EMAIL_ADDRESS' in f);
    const address = email ? emailAddress(text(email.EMAIL_ADDRESS)) : '';
    if (email && address) set(email, { email: address });
  } else {
    const name = primary(
      features.filter((f) => 'NAME_ORG' in f),
      aka,
    );
    if (name) set(name, { name: text(name.NAME_ORG) });
    const ein = first((f) => 'TAX_ID_NUMBER' in f && text(f.TAX_ID_TYPE).toUpperCase() === 'EIN');
    if (ein) set(ein, { ein: text(ein.TAX_ID_NUMBER) });
    const npi = first((f) => 'NPI_NUMBER' in f);
    if (npi) set(npi, { npi: text(npi.NPI_NUMBER) });
  }
  const address = first((f) => 'ADDR_LINE1' in f || 'ADDR_FULL' in f);
  if (address)
    set(address, {
      line1: text(address.ADDR_LINE1) || text(address.ADDR_FULL),
      line2: text(address.ADDR_LINE2),
      city: text(address.ADDR_CITY),
      state: text(address.ADDR_STATE),
      postalCode: text(address.ADDR_POSTAL_CODE),
      country: text(address.ADDR_COUNTRY),
    });
  const phone = first((f) => 'PHONE_NUMBER' in f);
  if (phone) set(phone, { phone: text(phone.PHONE_NUMBER) });

  const notSent = features
    .filter((f) => !sent.has(f))
    .flatMap((f) => Object.keys(f).filter((k) => !DESCRIPTORS.has(k) && text(f[k]) !== ''));
  return { fields, notSent };
}
