/**
 * Person match score in [0, 1]: names (Jaro-Winkler, with double-metaphone for names that sound alike), date of birth
 * (exact, or a transposition of day and month or of two adjacent digits), SSN (exact), address (first line and postal
 * code), phone and e-mail (exact). How scores are computed is "not shown" in the seed (person-provider-identity-api.md,
 * What the service does); this is the reference's own choice. One threshold (the person matcher's `threshold` in
 * reference/services.ts) serves both postIdentity matching and demographicsQuery, as the seed requires (Endpoints,
 * /v2/demographicsQuery).
 */
import { bestOf, digits, normalize, similarity, soundsAlike, valuesOf } from './strings.js';

type Identity = Record<string, unknown>;

/** Name similarity: Jaro-Winkler, raised to 0.9 when the names share a double-metaphone code. */
export const nameSimilarity = (a: string, b: string) => Math.max(similarity(a, b), soundsAlike(a, b) ? 0.9 : 0);

/**
 * True when two yyyy-MM-dd dates differ only by day/month swapped or two adjacent digits swapped. `x` and `y`: the
 * dates without their dashes, when the caller has them.
 */
export function isTransposition(a: string, b: string, x = a.replace(/-/g, ''), y = b.replace(/-/g, '')): boolean {
  if (a.length !== 10 || b.length !== 10 || a === b) return false;
  if (x.length === 8 && y.length === 8) {
    // Two dashes each, so split('-') gives year, month and day, at the places a well-formed date has them when both sit
    // at 4 and 7.
    if (a[4] === '-' && a[7] === '-' && b[4] === '-' && b[7] === '-') {
      if (a.slice(0, 4) === b.slice(0, 4) && a.slice(5, 7) === b.slice(8, 10) && a.slice(8, 10) === b.slice(5, 7))
        return true;
      return swapsAdjacent(x, y);
    }
  }
  const [ya, ma, da] = a.split('-');
  const [yb, mb, db] = b.split('-');
  if (ya === yb && ma === db && da === mb) return true;
  return swapsAdjacent(x, y);
}

const strings = (i: Identity, array: string, field: string, f: (v: unknown) => string = normalize) =>
  valuesOf(i, array, field).map(f).filter(Boolean);
const addressKeys = (i: Identity) =>
  (Array.isArray(i.addresses) ? (i.addresses as Array<Record<string, unknown>>) : [])
    .map((a) => `${normalize(a?.line1)}|${digits(a?.postalCode).slice(0, 5)}`)
    .filter((k) => k !== '|');

/** What scorePerson compares of one identity, normalised once. */
interface PersonFeatures {
  first: string[];
  last: string[];
  /** Dates of birth as sent, and as digits only (yyyyMMdd). */
  dobs: string[];
  dobDigits: string[];
  ssns: string[];
  addresses: string[];
  phones: string[];
  emails: string[];
  genders: string[];
}

/**
 * Features per identity object. A record's data is never changed in place (a re-post, a merge or a fault replaces the
 * object: reference/store.ts), so an identity's features hold as long as it does; the store's records are compared with
 * every probe, and normalising them anew each time was most of the matching's cost in the match-quality benchmark.
 */
const features = new WeakMap<Identity, PersonFeatures>();

function featuresOf(i: Identity): PersonFeatures {
  let f = features.get(i);
  if (!f) {
    const dobs = strings(i, 'datesOfBirth', 'dateOfBirth', String);
    f = {
      first: strings(i, 'names', 'firstName'),
      last: strings(i, 'names', 'lastName'),
      dobs,
      dobDigits: dobs.map((d) => d.replace(/-/g, '')),
      ssns: strings(i, 'ssns', 'ssn', digits),
      addresses: addressKeys(i),
      phones: strings(i, 'phoneNumbers', 'number', (v) => digits(v).slice(-10)),
      emails: strings(i, 'emails', 'email'),
      genders: strings(i, 'genders', 'gender'),
    };
    features.set(i, f);
  }
  return f;
}

/** Agreement weights (log-likelihood style, Fellegi–Sunter): [agree, partial, disagree]. */
const W = {
  first: [4, 1, -6],
  last: [5, 2, -4],
  dob: [6, 2, -6],
  ssn: [8, 4, -8],
  address: [3, 1, 0],
  phone: [2, 0, 0],
  email: [2, 0, 0],
  sex: [0, 0, -1],
} as const;
/** Total weight at which the score equals the match threshold (0.9); SCALE spreads the scores around it. */
const LINK_WEIGHT = 12;
const SCALE = 4;
const LOGIT_THRESHOLD = Math.log(0.9 / 0.1);

/** Number of differing positions of two equal-length strings (Infinity when their lengths differ). */
function hamming(a: string, b: string): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) n++;
  return n;
}

/** True when two equal-length strings differ exactly by two adjacent characters swapped. */
const isAdjacentSwap = (a: string, b: string) => a.length === b.length && swapsAdjacent(a, b);

/** True when, over the positions of `a`, `b` differs from it exactly by two adjacent characters swapped. */
function swapsAdjacent(a: string, b: string): boolean {
  let first = -1;
  let count = 0;
  for (let i = 0; i < a.length; i++)
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      if (++count > 2) return false;
      if (first < 0) first = i;
      else if (i !== first + 1) return false;
    }
  return count === 2 && a[first] === b[first + 1] && a[first + 1] === b[first];
}

/** Name agreement level: 0 agree, 1 partial (close spelling or an initial), 2 disagree. */
function nameLevel(as: string[], bs: string[]): number | null {
  const s = bestOf(as, bs, (a, b) =>
    a.length === 1 || b.length === 1 ? (a[0] === b[0] ? 0.86 : 0) : nameSimilarity(a, b),
  );
  if (s === null) return null;
  return s >= 0.92 ? 0 : s >= 0.85 ? 1 : 2;
}

function dobLevel(fa: PersonFeatures, fb: PersonFeatures): number | null {
  const as = fa.dobs;
  const bs = fb.dobs;
  if (!as.length || !bs.length) return null;
  let best = 2;
  for (let i = 0; i < as.length; i++)
    for (let j = 0; j < bs.length; j++) {
      const a = as[i]!;
      const b = bs[j]!;
      if (a === b) return 0;
      const x = fa.dobDigits[i]!;
      const y = fb.dobDigits[j]!;
      if (
        isTransposition(a, b, x, y) ||
        hamming(x, y) === 1 ||
        (a.slice(4) === b.slice(4) && Math.abs(Number(a.slice(0, 4)) - Number(b.slice(0, 4))) === 1)
      )
        best = 1;
    }
  return best;
}

const PLACEHOLDER_SSN = /^(\d)\1{8}$|^123456789$/;
function ssnLevel(as: string[], bs: string[]): number | null {
  const A = as.filter((x) => !PLACEHOLDER_SSN.test(x));
  const B = bs.filter((x) => !PLACEHOLDER_SSN.test(x));
  if (!A.length || !B.length) return null;
  let best = 2;
  for (const a of A)
    for (const b of B) {
      if (a === b) return 0;
      const short = a.length === 4 ? a : b.length === 4 ? b : undefined;
      const long = a.length === 4 ? b : a;
      if ((short && long.length === 9 && long.endsWith(short)) || hamming(a, b) === 1 || isAdjacentSwap(a, b)) best = 1;
    }
  return best;
}

const level = (weights: readonly number[], l: number | null) => (l === null ? 0 : weights[l]!);
const agreeOnly = (weights: readonly number[], as: string[], bs: string[]) =>
  as.length && bs.length ? (as.some((a) => bs.includes(a)) ? weights[0]! : weights[2]!) : 0;

/**
 * Match score in [0, 1]: the agreement weights of the fields both sides carry, summed and mapped through a logistic
 * curve so that a total of LINK_WEIGHT gives the match threshold 0.9. Given and family name are also compared crosswise
 * (swapped name parts); phone, e-mail and address only add evidence when they agree (people move and change numbers).
 */
export function scorePerson(a: Identity, b: Identity): number {
  const A = featuresOf(a);
  const B = featuresOf(b);
  const straight = level(W.first, nameLevel(A.first, B.first)) + level(W.last, nameLevel(A.last, B.last));
  const crossed = level(W.first, nameLevel(A.first, B.last)) + level(W.last, nameLevel(A.last, B.first));
  const address = A.addresses.length && B.addresses.length ? bestOf(A.addresses, B.addresses, similarity)! : null;
  const total =
    Math.max(straight, crossed) +
    level(W.dob, dobLevel(A, B)) +
    level(W.ssn, ssnLevel(A.ssns, B.ssns)) +
    (address === null ? 0 : address >= 0.9 ? W.address[0] : address >= 0.75 ? W.address[1] : W.address[2]) +
    agreeOnly(W.phone, A.phones, B.phones) +
    agreeOnly(W.email, A.emails, B.emails) +
    agreeOnly(W.sex, A.genders, B.genders);
  return 1 / (1 + Math.exp(-((total - LINK_WEIGHT) / SCALE + LOGIT_THRESHOLD)));
}

/** Household key of an identity: its first address, normalised (first line and 5-digit postal code). */
export function householdKey(identity: Identity): string | undefined {
  return addressKeys(identity)[0];
}
