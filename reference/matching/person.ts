/**
 * Person match score in [0, 1]: names (Jaro-Winkler, with double-metaphone for names that sound
 * alike), date of birth (exact, or a transposition of day and month or of two adjacent digits),
 * SSN (exact), address (first line and postal code), phone and e-mail (exact).
 * How scores are computed is "not shown" in the seed (person-provider-identity-api.md, What the
 * service does); this is the reference's own choice. One threshold (REFERENCE_PERSON_THRESHOLD
 * in reference/services.ts) serves both postIdentity matching and demographicsQuery, as the seed
 * requires (Endpoints, /v2/demographicsQuery).
 */
import { bestOf, digits, normalize, similarity, soundsAlike, valuesOf } from './strings.js';

type Identity = Record<string, unknown>;

/** Name similarity: Jaro-Winkler, raised to 0.9 when the names share a double-metaphone code. */
export const nameSimilarity = (a: string, b: string) => Math.max(similarity(a, b), soundsAlike(a, b) ? 0.9 : 0);

/** True when two yyyy-MM-dd dates differ only by day/month swapped or two adjacent digits swapped. */
export function isTransposition(a: string, b: string): boolean {
  if (a.length !== 10 || b.length !== 10 || a === b) return false;
  const [ya, ma, da] = a.split('-');
  const [yb, mb, db] = b.split('-');
  if (ya === yb && ma === db && da === mb) return true;
  const x = a.replace(/-/g, '');
  const y = b.replace(/-/g, '');
  const diff = [...x].flatMap((c, i) => (c === y[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && x[diff[0]!] === y[diff[1]!] && x[diff[1]!] === y[diff[0]!];
}

const strings = (i: Identity, array: string, field: string, f: (v: unknown) => string = normalize) =>
  valuesOf(i, array, field).map(f).filter(Boolean);
const addressKeys = (i: Identity) =>
  (Array.isArray(i.addresses) ? (i.addresses as Array<Record<string, unknown>>) : [])
    .map((a) => `${normalize(a?.line1)}|${digits(a?.postalCode).slice(0, 5)}`)
    .filter((k) => k !== '|');

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

/** Number of differing positions of two equal-length digit strings. */
const hamming = (a: string, b: string) => (a.length !== b.length ? Infinity : [...a].filter((c, i) => c !== b[i]).length);
const isAdjacentSwap = (a: string, b: string) => {
  if (a.length !== b.length) return false;
  const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
};

/** Name agreement level: 0 agree, 1 partial (close spelling or an initial), 2 disagree. */
function nameLevel(as: string[], bs: string[]): number | null {
  const s = bestOf(as, bs, (a, b) => (a.length === 1 || b.length === 1 ? (a[0] === b[0] ? 0.86 : 0) : nameSimilarity(a, b)));
  if (s === null) return null;
  return s >= 0.92 ? 0 : s >= 0.85 ? 1 : 2;
}

function dobLevel(as: string[], bs: string[]): number | null {
  if (!as.length || !bs.length) return null;
  let best = 2;
  for (const a of as)
    for (const b of bs) {
      if (a === b) return 0;
      const x = a.replace(/-/g, '');
      const y = b.replace(/-/g, '');
      if (
        isTransposition(a, b) ||
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
 * Match score in [0, 1]: the agreement weights of the fields both sides carry, summed and mapped
 * through a logistic curve so that a total of LINK_WEIGHT gives the match threshold 0.9.
 * Given and family name are also compared crosswise (swapped name parts); phone, e-mail and
 * address only add evidence when they agree (people move and change numbers).
 */
export function scorePerson(a: Identity, b: Identity): number {
  const fa = strings(a, 'names', 'firstName');
  const la = strings(a, 'names', 'lastName');
  const fb = strings(b, 'names', 'firstName');
  const lb = strings(b, 'names', 'lastName');
  const straight = level(W.first, nameLevel(fa, fb)) + level(W.last, nameLevel(la, lb));
  const crossed = level(W.first, nameLevel(fa, lb)) + level(W.last, nameLevel(la, fb));
  const ka = addressKeys(a);
  const kb = addressKeys(b);
  const address = ka.length && kb.length ? bestOf(ka, kb, similarity)! : null;
  const total =
    Math.max(straight, crossed) +
    level(W.dob, dobLevel(strings(a, 'datesOfBirth', 'dateOfBirth', String), strings(b, 'datesOfBirth', 'dateOfBirth', String))) +
    level(W.ssn, ssnLevel(strings(a, 'ssns', 'ssn', digits), strings(b, 'ssns', 'ssn', digits))) +
    (address === null ? 0 : address >= 0.9 ? W.address[0] : address >= 0.75 ? W.address[1] : W.address[2]) +
    agreeOnly(
      W.phone,
      strings(a, 'phoneNumbers', 'number', (v) => digits(v).slice(-10)),
      strings(b, 'phoneNumbers', 'number', (v) => digits(v).slice(-10)),
    ) +
    agreeOnly(W.email, strings(a, 'emails', 'email'), strings(b, 'emails', 'email')) +
    agreeOnly(W.sex, strings(a, 'genders', 'gender'), strings(b, 'genders', 'gender'));
  return 1 / (1 + Math.exp(-((total - LINK_WEIGHT) / SCALE + LOGIT_THRESHOLD)));
}

/** Household key of an identity: its first address, normalised (first line and 5-digit postal code). */
export function householdKey(identity: Identity): string | undefined {
  return addressKeys(identity)[0];
}
