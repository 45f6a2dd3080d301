/**
 * Provider match score: names (practitioner first and last name, or facility names), NPI (exact),
 * address (postal code, city, first line) and phone. Returns a score in [0, 1].
 * How scores are computed is "not shown" in the seed (person-provider-identity-api.md); this is the
 * reference's own choice. `providerKind` reads the provider type (the reference serves the default
 * profile: npis.entityTypeCode), so identities of different types never match, merge or link.
 */
import { DEFAULT_TYPE_MEMBER, providerTypeOf } from '../../specs/provider/identity.js';
import { bestOf, combine, digits, normalize, valuesOf } from './strings.js';

type Identity = Record<string, unknown>;

const personNames = (i: Identity) => {
  const firsts = valuesOf(i, 'names', 'first').map(normalize);
  const lasts = valuesOf(i, 'names', 'last').map(normalize);
  return { firsts, lasts };
};
const facilityNames = (i: Identity) =>
  ['legalBusinessName', 'tradingName', 'otherOrgName'].flatMap((m) => valuesOf(i, 'organizationNames', m)).map(normalize);
const exact = (as: string[], bs: string[]) => bestOf(as, bs, (a, b) => (a === b ? 1 : 0));
const npis = (i: Identity) => valuesOf(i, 'npis', 'npi').map((v) => digits(String(v)));

export function scoreProvider(a: Identity, b: Identity): number {
  const pa = personNames(a);
  const pb = personNames(b);
  return combine([
    { weight: 2, score: bestOf(pa.firsts, pb.firsts) },
    { weight: 3, score: bestOf(pa.lasts, pb.lasts) },
    { weight: 5, score: bestOf(facilityNames(a), facilityNames(b)) },
    { weight: 5, score: exact(npis(a), npis(b)) },
    { weight: 2, score: exact(valuesOf(a, 'addresses', 'postalCode').map(digits), valuesOf(b, 'addresses', 'postalCode').map(digits)) },
    { weight: 1, score: bestOf(valuesOf(a, 'addresses', 'city').map(normalize), valuesOf(b, 'addresses', 'city').map(normalize)) },
    { weight: 2, score: bestOf(valuesOf(a, 'addresses', 'line1').map(normalize), valuesOf(b, 'addresses', 'line1').map(normalize)) },
    { weight: 1, score: exact(valuesOf(a, 'phoneNumbers', 'number').map(digits), valuesOf(b, 'phoneNumbers', 'number').map(digits)) },
  ]);
}

/** Provider type of an identity ('1', '2', ...) or undefined when it carries none. */
export const providerKind = (identity: Identity) => providerTypeOf(identity, DEFAULT_TYPE_MEMBER);
