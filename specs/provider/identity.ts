/**
 * Provider identity: practitioner (type 1) and health facility (type 2).
 *
 * Source: person-provider-identity-api.md, "What the service does" (two provider types) and Resources, "Gaps in
 * resources" ("Identity fields ... of the provider service: not shown"). Because the seed shows no field, every member
 * name here is the vendor description's, and every value is read tolerantly: the vendor description itself is
 * inconsistent about value forms (numbers as JSON numbers or strings, status as string or boolean), so a check never
 * fails a deployment on the form of a provider field. Unknown members are accepted everywhere.
 *
 * Where an identity carries its provider type is not pinned by the seed either; the profile setting
 * `provider.typeMember` names it (default `npis.entityTypeCode`, the NPI entity type code, which the vendor's examples
 * set to 1 and 2). `providerTypeOf` / `withProviderType` read and write it along that path.
 */
import { z } from 'zod';
import { arr, obj, opt } from '../common/wire.js';

/** A string member (text, code, or a date whose format the seed does not show). */
const S = opt(z.string());
/** A number member: JSON number or a string holding one. */
const N = opt(z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]));
/** A flag member: JSON boolean, or a string such as "true" or "active". */
const F = opt(z.union([z.boolean(), z.string()]));

const validity = { validFrom: S, validTo: S };
const BestTime = obj({ day: S, startTime: S, endTime: S, allDay: F });
/** One object or a list (the vendor shows both forms for bestTimeToContact). */
const oneOrMany = <T extends z.ZodType>(s: T) => opt(z.union([s, z.array(s)]));

const Address = obj({
  addressName: S,
  addressType: S,
  line1: S,
  line2: S,
  city: S,
  district: S,
  state: S,
  postalCode: S,
  country: S,
  latitude: N,
  longitude: N,
  ...validity,
});
const Phone = obj({ number: S, type: S, ...validity, bestTimeToContact: oneOrMany(BestTime) });

/** Members both provider types carry. */
const common = {
  contactInformation: arr(
    obj({ address: opt(Address), phoneList: arr(Phone), faxList: arr(Phone), bestTimeToContact: oneOrMany(BestTime) }),
  ),
  addresses: arr(Address),
  phoneNumbers: arr(Phone),
  faxNumbers: arr(Phone),
  emails: arr(obj({ email: S, type: S, ...validity })),
  /** National Provider Identifier; entityTypeCode 1 = individual, 2 = organization (NPPES). */
  npis: arr(obj({ npi: N, entityTypeCode: N, deactivationDate: S })),
  license: arr(
    obj({
      number: S,
      state: S,
      taxonomyCode: S,
      licenseEffectiveDate: S,
      licenseExpirationDate: S,
      licenseStatus: S,
      licenseStatusDetail: S,
      licenseProfessionCode: S,
      licenseProfessionRankCode: S,
      licenseLastUpdateDate: S,
      licenseProfessionDescription: S,
      licenseType: S,
      licensePrimary: F,
    }),
  ),
  specialties: arr(obj({ specialtyTaxonomyCode: S })),
  qualifications: arr(obj({ type: S, qualification: S, status: F, issuer: S, issueDate: S, ...validity })),
  alternateIdentifiers: arr(
    obj({ description: S, type: S, value: S, status: F, issuer: S, issueDate: S, startDate: S, endDate: S }),
  ),
  externalUniqueIdentifier: arr(obj({ issuer: S, value: S, status: F, startDate: S, endDate: S })),
  acceptedInsurances: arr(
    obj({
      payerName: S,
      status: F,
      insuranceType: S,
      planId: S,
      planType: S,
      networkStatus: S,
      startDate: S,
      endDate: S,
    }),
  ),
};

/** Members of a practitioner (type 1) only. */
const practitionerOnly = {
  names: arr(obj({ use: S, prefix: S, first: S, middle: S, last: S, suffix: S, credential: S })),
  datesOfBirth: arr(obj({ dateOfBirth: S })),
  genders: arr(obj({ gender: S })),
  communicationLanguages: arr(obj({ language: S, preferred: F })),
  practitionerRoles: arr(obj({ acceptingNewPatients: F, serviceMode: S })),
  education: arr(obj({ medSchool: S, gradYear: N })),
};

/** Members of a health facility (type 2) only. */
const facilityOnly = {
  organizationNames: arr(obj({ legalBusinessName: S, otherOrgName: S, tradingName: S, parentOrgName: S })),
  groupTaxonomies: arr(obj({ groupTaxonomyCode: S })),
  authorizedOfficials: arr(
    obj({ title: S, prefix: S, first: S, middle: S, last: S, suffix: S, credential: S, phoneNumber: S }),
  ),
  employerIdentificationNumber: arr(obj({ value: S, status: F, issuer: S, issueDate: S, ...validity })),
  types: arr(obj({ type: S, subType: S })),
};

export const PractitionerIdentity = obj({ ...common, ...practitionerOnly });
export const HealthFacilityIdentity = obj({ ...common, ...facilityOnly });
/** Any provider identity, as replies carry it (either type's members may appear). */
export const ProviderIdentity = obj({ ...common, ...practitionerOnly, ...facilityOnly });

export type ProviderKind = 'practitioner' | 'healthFacility';
/** Default of the profile's `provider.typeMember`: dot path, arrays are walked element by element. */
export const DEFAULT_TYPE_MEMBER = 'npis.entityTypeCode';

/** Every value found at a dot path (arrays walked), as strings. */
export function providerTypeOf(identity: unknown, path = DEFAULT_TYPE_MEMBER): string | undefined {
  const walk = (v: unknown, segs: string[]): unknown[] => {
    if (v === undefined || v === null) return [];
    if (Array.isArray(v)) return v.flatMap((x) => walk(x, segs));
    if (!segs.length) return [v];
    return typeof v === 'object' ? walk((v as Record<string, unknown>)[segs[0]!], segs.slice(1)) : [];
  };
  const found = walk(identity, path.split('.')).filter((v) => typeof v === 'string' || typeof v === 'number');
  return found.length ? String(found[0]) : undefined;
}

/**
 * Sets the provider type at a dot path: on every element when the path crosses an array, creating plain objects for
 * missing members (so a top-level `providerType` member works too).
 */
export function withProviderType<T extends Record<string, unknown>>(
  identity: T,
  value: string,
  path = DEFAULT_TYPE_MEMBER,
): T {
  const copy = structuredClone(identity) as Record<string, unknown>;
  const set = (target: Record<string, unknown>, segs: string[]) => {
    const [head, ...rest] = segs;
    if (!rest.length) {
      target[head!] = value;
      return;
    }
    const next = target[head!];
    if (Array.isArray(next)) next.forEach((x) => x && typeof x === 'object' && set(x as Record<string, unknown>, rest));
    else if (next && typeof next === 'object') set(next as Record<string, unknown>, rest);
    else set((target[head!] = {}) as Record<string, unknown>, rest);
  };
  set(copy, path.split('.'));
  return copy as T;
}
