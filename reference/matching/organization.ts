/**
 * Organization match score: legal/trading names, address (postal code, city, first line),
 * employer identification number and phone. Returns a score in [0, 1].
 * How scores are computed is "not shown" in the seed (organization-identity-api.md,
 * What the service does); this is the reference's own choice.
 */
import { bestOf, combine, digits, normalize, valuesOf } from './strings.js';

type Identity = Record<string, unknown>;

const LEGAL_SUFFIX = /\b(inc|incorporated|llc|l l c|ltd|limited|corp|corporation|co|company|plc|lp|llp)\b/g;
const orgName = (v: unknown) => normalize(v).replace(/&/g, ' and ').replace(LEGAL_SUFFIX, ' ').replace(/\s+/g, ' ').trim();

const names = (i: Identity) => [
  ...valuesOf(i, 'organizationNames', 'legalBusinessName'),
  ...valuesOf(i, 'organizationNames', 'tradingName'),
  ...valuesOf(i, 'organizationNames', 'otherOrgName'),
].map(orgName);

const exact = (as: string[], bs: string[]) => bestOf(as, bs, (a, b) => (a === b ? 1 : 0));

export function scoreOrganization(a: Identity, b: Identity): number {
  return combine([
    { weight: 5, score: bestOf(names(a), names(b)) },
    { weight: 2, score: exact(valuesOf(a, 'addresses', 'postalCode').map(digits), valuesOf(b, 'addresses', 'postalCode').map(digits)) },
    { weight: 1, score: bestOf(valuesOf(a, 'addresses', 'city').map(normalize), valuesOf(b, 'addresses', 'city').map(normalize)) },
    { weight: 2, score: bestOf(valuesOf(a, 'addresses', 'line1').map(normalize), valuesOf(b, 'addresses', 'line1').map(normalize)) },
    { weight: 4, score: exact(valuesOf(a, 'employerIdentificationNumber', 'value').map(digits), valuesOf(b, 'employerIdentificationNumber', 'value').map(digits)) },
    { weight: 1, score: exact(valuesOf(a, 'phoneNumbers', 'number').map(digits), valuesOf(b, 'phoneNumbers', 'number').map(digits)) },
  ]);
}
