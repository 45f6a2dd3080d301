/**
 * The benchmark's services table: which entity kinds each identity service receives and how a record's flat fields
 * become that service's identity wire shape. Adding a service to the benchmark is one entry here.
 *
 * Wire shapes: organization-identity-api.md, "Organization identity"; person-provider-identity-api.md, "Person
 * identity"; provider members per specs/provider/identity.ts (vendor names; the seed shows none). Blank fields are left
 * out (an empty array member is not sent).
 */
import type { ServiceName } from '../../specs/common/model.js';
import { withProviderType } from '../../specs/provider/identity.js';
import type { EntityKind, Fields } from './entities.js';

export interface LinkageService {
  service: ServiceName;
  /** Entity kinds this service receives, with their mix. */
  kinds: Partial<Record<EntityKind, number>>;
  /** The identity to post for a record (without sources; the runner places the source reference). */
  toWire(kind: EntityKind, fields: Fields, profile: { providerTypeMember: string }): Record<string, unknown>;
}

const has = (v: string | undefined): v is string => typeof v === 'string' && v !== '';
/**
 * An array of one object holding the non-blank members of `data` with `kind` (a type that says nothing by itself), or
 * undefined when every member of `data` is blank.
 */
const one = (data: Record<string, string | undefined>, kind: Record<string, string> = {}) => {
  const kept = Object.fromEntries(Object.entries(data).filter(([, v]) => has(v)));
  return Object.keys(kept).length ? [{ ...kept, ...kind }] : undefined;
};
const compact = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const address = (f: Fields, extra: Record<string, string> = {}) =>
  has(f.line1) || has(f.city) || has(f.postalCode)
    ? one({
        ...extra,
        line1: f.line1,
        line2: f.line2,
        city: f.city,
        state: f.state,
        postalCode: f.postalCode,
        country: f.country || 'USA',
      })
    : undefined;

const organizationWire = (f: Fields) =>
  compact({
    organizationNames: one({ legalBusinessName: f.name }),
    addresses: address(f, { addressType: 'work' }),
    phoneNumbers: one({ number: f.phone }, { type: 'work' }),
    employerIdentificationNumber: one({ value: f.ein }),
    alternateIdentifiers: has(f.npi) ? [{ type: 'NPI', value: f.npi }] : undefined,
  });

const personWire = (f: Fields) =>
  compact({
    names: one({ firstName: f.given, middleName: f.middle, lastName: f.family, suffix: f.suffix }),
    addresses: address(f, { type: 'home' }),
    datesOfBirth: one({ dateOfBirth: f.dob }),
    ssns: one({ ssn: f.ssn }),
    genders: one({ gender: f.sex === 'F' ? 'female' : f.sex === 'M' ? 'male' : f.sex === 'U' ? 'unknown' : undefined }),
    phoneNumbers: one({ number: f.phone }, { type: 'home' }),
    emails: one({ email: f.email }, { type: 'home' }),
  });

function providerWire(kind: EntityKind, f: Fields, typeMember: string) {
  const type = kind === 'practitioner' ? '1' : '2';
  const common = {
    addresses: address(f, { addressType: 'practice' }),
    phoneNumbers: one({ number: f.phone }, { type: 'work' }),
    npis: [has(f.npi) ? { npi: f.npi, entityTypeCode: type } : { entityTypeCode: type }],
  };
  const identity =
    kind === 'practitioner'
      ? compact({
          ...common,
          names: one({
            prefix: f.prefix,
            first: f.given,
            middle: f.middle,
            last: f.family,
            suffix: f.suffix,
            credential: f.credential,
          }),
          genders: one({ gender: f.sex === 'F' ? 'female' : f.sex === 'M' ? 'male' : undefined }),
          specialties: one({ specialtyTaxonomyCode: f.specialty }),
        })
      : compact({
          ...common,
          organizationNames: one({ legalBusinessName: f.name }),
          employerIdentificationNumber: one({ value: f.ein }),
        });
  return withProviderType(identity, type, typeMember);
}

const ADDRESS = ['line1', 'line2', 'city', 'state', 'postalCode', 'country'];
/** The fields each entity kind's wire identity reads (above): a truth set in the plain format names only these. */
export const WIRE_FIELDS: Record<EntityKind, string[]> = {
  person: ['given', 'middle', 'family', 'suffix', 'dob', 'ssn', 'sex', ...ADDRESS, 'phone', 'email'],
  organization: ['name', ...ADDRESS, 'phone', 'ein', 'npi'],
  practitioner: [
    'prefix',
    'given',
    'middle',
    'family',
    'suffix',
    'credential',
    'sex',
    'specialty',
    'npi',
    ...ADDRESS,
    'phone',
  ],
  facility: ['name', 'ein', 'npi', ...ADDRESS, 'phone'],
};

export const LINKAGE_SERVICES: LinkageService[] = [
  { service: 'person', kinds: { person: 1 }, toWire: (_k, f) => personWire(f) },
  { service: 'organization', kinds: { organization: 1 }, toWire: (_k, f) => organizationWire(f) },
  {
    service: 'provider',
    kinds: { practitioner: 0.7, facility: 0.3 },
    toWire: (k, f, p) => providerWire(k, f, p.providerTypeMember),
  },
];

export const linkageService = (name: ServiceName) => LINKAGE_SERVICES.find((s) => s.service === name);
