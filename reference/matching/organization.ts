/**
 * Organization match score in [0, 1]: Fellegi–Sunter style agreement weights, summed and mapped through a logistic
 * (evidence.ts) so that a total of LINK_WEIGHT gives the match threshold 0.9. Evidence: names (legal suffixes,
 * "&"/"and", "The", punctuation and generic-word abbreviations normalised, compared as token sets, acronyms
 * recognised), store/location numbers ("#0421": two different numbers mean two branches), NPI and EIN (exact agreement
 * is strong evidence, a different number strong counter-evidence), street line, postal code, city and phone. How scores
 * are computed is "not shown" in the seed (organization-identity-api.md, What the service does); this is the
 * reference's own choice. Also used for health facilities (provider).
 */
import { valuesOf, digits } from './strings.js';
import {
  addressValues,
  equalLevel,
  identifierLevel,
  logisticScore,
  orgNameLevel,
  orgNamesOf,
  phoneValues,
  storeNumbers,
  streetLevel,
  weightOf,
  bestLevel,
} from './evidence.js';

type Identity = Record<string, unknown>;

/** Agreement weights [agree, partial, disagree]. */
export const ORG_WEIGHTS = {
  name: [6, 1.5, -5],
  npi: [10, 3, -10],
  ein: [7, 2, -7],
  /** Both names carry a location number and they differ (chain branches). */
  storeNumber: [0, 0, -12],
  // Addresses and phones change often (billing address, relocation, department lines): a disagreement is weak evidence,
  // an agreement good evidence.
  line1: [3, 1, -0.5],
  zip: [1.5, 0, -0.5],
  city: [1, 0, 0],
  phone: [3, 0, -0.5],
} as const;
/** Total weight at which the score equals the match threshold 0.9; SCALE spreads scores around it. */
export const ORG_LINK_WEIGHT = 7.5;
const SCALE = 3;

interface OrgFeatures {
  names: ReturnType<typeof orgNamesOf>;
  stores: string[];
  npis: string[];
  eins: string[];
  address: ReturnType<typeof addressValues>;
  phones: string[];
}

/** Parsed comparison values per identity object (stored identities are compared many times). */
const features = new WeakMap<Identity, OrgFeatures>();
function featuresOf(i: Identity, npis: (i: Identity) => string[]): OrgFeatures {
  let f = features.get(i);
  if (!f) {
    const names = orgNamesOf(i);
    f = {
      names,
      stores: storeNumbers(names),
      npis: npis(i),
      eins: eins(i),
      address: addressValues(i),
      phones: phoneValues(i),
    };
    features.set(i, f);
  }
  return f;
}

/** Organization agreement weight of two identities; `npis` reads each side's NPIs. */
export function organizationWeight(a: Identity, b: Identity, npis: (i: Identity) => string[]): number {
  const fa = featuresOf(a, npis);
  const fb = featuresOf(b, npis);
  const stores = bestLevel(fa.stores, fb.stores, (x, y) => (x === y ? 0 : 2));
  return (
    weightOf(ORG_WEIGHTS.name, bestLevel(fa.names, fb.names, orgNameLevel)) +
    weightOf(ORG_WEIGHTS.storeNumber, stores) +
    weightOf(ORG_WEIGHTS.npi, identifierLevel(fa.npis, fb.npis)) +
    weightOf(ORG_WEIGHTS.ein, identifierLevel(fa.eins, fb.eins)) +
    weightOf(ORG_WEIGHTS.line1, streetLevel(fa.address.line1, fb.address.line1)) +
    weightOf(ORG_WEIGHTS.zip, equalLevel(fa.address.zip, fb.address.zip)) +
    weightOf(ORG_WEIGHTS.city, equalLevel(fa.address.city, fb.address.city)) +
    weightOf(ORG_WEIGHTS.phone, equalLevel(fa.phones, fb.phones))
  );
}

const eins = (i: Identity) =>
  valuesOf(i, 'employerIdentificationNumber', 'value')
    .map(digits)
    .filter((v) => v.length >= 9);
/** NPIs an organization carries among its alternate identifiers (type NPI). */
const orgNpis = (i: Identity) =>
  (Array.isArray(i.alternateIdentifiers) ? (i.alternateIdentifiers as Array<Record<string, unknown>>) : [])
    .filter((x) => String(x?.type ?? '').toUpperCase() === 'NPI')
    .map((x) => digits(x?.value))
    .filter((v) => v.length === 10);

export function scoreOrganization(a: Identity, b: Identity): number {
  return logisticScore(organizationWeight(a, b, orgNpis), ORG_LINK_WEIGHT, SCALE);
}
