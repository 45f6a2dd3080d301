/**
 * Provider match score in [0, 1]: Fellegi–Sunter style agreement weights mapped through a logistic (evidence.ts) so
 * that the link weight gives the match threshold 0.9. Health facilities (type 2) are compared like organizations
 * (organization.ts: names, store numbers, NPI, EIN, address, phone). Practitioners (type 1): NPI (exact agreement is
 * strong evidence, a different NPI strong counter-evidence), first and last name (Jaro-Winkler and double-metaphone,
 * also crosswise for swapped names, an initial agrees partly), generational suffix (Jr vs Sr disagree), specialty,
 * street line, postal code, phone and gender. How scores are computed is "not shown" in the seed
 * (person-provider-identity-api.md); this is the reference's own choice. `providerKind` reads the provider type (the
 * reference serves the default profile: npis.entityTypeCode), so identities of different types never match, merge or
 * link.
 */
import { DEFAULT_TYPE_MEMBER, providerTypeOf } from '../../specs/provider/identity.js';
import {
  addressValues,
  bestLevel,
  equalLevel,
  identifierLevel,
  type Level,
  logisticScore,
  phoneValues,
  streetLevel,
  weightOf,
} from './evidence.js';
import { ORG_LINK_WEIGHT, organizationWeight } from './organization.js';
import { nameSimilarity } from './person.js';
import { digits, normalize, valuesOf } from './strings.js';

type Identity = Record<string, unknown>;

/** Practitioner agreement weights [agree, partial, disagree]. */
export const PRACTITIONER_WEIGHTS = {
  npi: [12, 3, -10],
  first: [3, 1.5, -2],
  last: [4, 2, -4],
  suffix: [0, 0, -6],
  specialty: [1, 0, 0],
  line1: [2, 1, 0],
  zip: [1, 0, 0],
  phone: [1.5, 0, 0],
  gender: [0, 0, -1],
} as const;
const PRACTITIONER_LINK_WEIGHT = 9;
const SCALE = 3;

const npis = (i: Identity) =>
  valuesOf(i, 'npis', 'npi')
    .map((v) => digits(String(v)))
    .filter((v) => v.length === 10);
const strings = (i: Identity, array: string, member: string) =>
  valuesOf(i, array, member).map(normalize).filter(Boolean);

/** Name level: agree at similarity ≥ 0.92 (or the same sound), partial at ≥ 0.85 or an initial of the other. */
const nameLevel = (as: string[], bs: string[]): Level =>
  bestLevel(as, bs, (a, b) => {
    if (a.length === 1 || b.length === 1) return a[0] === b[0] ? 1 : 2;
    const s = nameSimilarity(a, b);
    return s >= 0.92 ? 0 : s >= 0.85 ? 1 : 2;
  });

const SUFFIX: Record<string, string> = {
  jr: 'jr',
  junior: 'jr',
  sr: 'sr',
  senior: 'sr',
  ii: 'ii',
  '2nd': 'ii',
  iii: 'iii',
  '3rd': 'iii',
  iv: 'iv',
};
const suffixes = (i: Identity) => strings(i, 'names', 'suffix').map((s) => SUFFIX[s.replace(/ /g, '')] ?? s);

function practitionerWeight(a: Identity, b: Identity): number {
  const fa = strings(a, 'names', 'first');
  const la = strings(a, 'names', 'last');
  const fb = strings(b, 'names', 'first');
  const lb = strings(b, 'names', 'last');
  const W = PRACTITIONER_WEIGHTS;
  const straight = weightOf(W.first, nameLevel(fa, fb)) + weightOf(W.last, nameLevel(la, lb));
  const crossed = weightOf(W.first, nameLevel(fa, lb)) + weightOf(W.last, nameLevel(la, fb));
  const aa = addressValues(a);
  const ab = addressValues(b);
  const agreeOnly = (w: readonly [number, number, number], l: Level) => (l === 0 ? w[0] : 0);
  return (
    Math.max(straight, crossed) +
    weightOf(W.npi, identifierLevel(npis(a), npis(b))) +
    weightOf(W.suffix, equalLevel(suffixes(a), suffixes(b))) +
    agreeOnly(
      W.specialty,
      equalLevel(
        strings(a, 'specialties', 'specialtyTaxonomyCode'),
        strings(b, 'specialties', 'specialtyTaxonomyCode'),
      ),
    ) +
    weightOf(W.line1, streetLevel(aa.line1, ab.line1)) +
    weightOf(W.zip, equalLevel(aa.zip, ab.zip)) +
    weightOf(W.phone, equalLevel(phoneValues(a), phoneValues(b))) +
    weightOf(W.gender, equalLevel(strings(a, 'genders', 'gender'), strings(b, 'genders', 'gender')))
  );
}

const isPerson = (i: Identity) => Array.isArray(i.names) && i.names.length > 0;

export function scoreProvider(a: Identity, b: Identity): number {
  if (isPerson(a) || isPerson(b)) return logisticScore(practitionerWeight(a, b), PRACTITIONER_LINK_WEIGHT, SCALE);
  return logisticScore(organizationWeight(a, b, npis), ORG_LINK_WEIGHT, SCALE);
}

/** Provider type of an identity ('1', '2', ...) or undefined when it carries none. */
export const providerKind = (identity: Identity) => providerTypeOf(identity, DEFAULT_TYPE_MEMBER);
