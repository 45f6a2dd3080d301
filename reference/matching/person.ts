/**
 * Person match score in [0, 1]: names (Jaro-Winkler, with double-metaphone for names that sound
 * alike), date of birth (exact, or a transposition of day and month or of two adjacent digits),
 * SSN (exact), address (first line and postal code), phone and e-mail (exact).
 * How scores are computed is "not shown" in the seed (person-provider-identity-api.md, What the
 * service does); this is the reference's own choice. One threshold (REFERENCE_PERSON_THRESHOLD
 * in reference/services.ts) serves both postIdentity matching and demographicsQuery, as the seed
 * requires (Endpoints, /v2/demographicsQuery).
 */
import { bestOf, combine, digits, normalize, similarity, soundsAlike, valuesOf } from './strings.js';

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

const dobScore = (a: string, b: string) => (a === b ? 1 : isTransposition(a, b) ? 0.8 : 0);
const exact = (a: string, b: string) => (a === b ? 1 : 0);
const strings = (i: Identity, array: string, field: string, f: (v: unknown) => string = normalize) => valuesOf(i, array, field).map(f).filter(Boolean);
const addressKeys = (i: Identity) =>
  (Array.isArray(i.addresses) ? (i.addresses as Array<Record<string, unknown>>) : []).map((a) => `${normalize(a?.line1)}|${digits(a?.postalCode).slice(0, 5)}`).filter((k) => k !== '|');

export function scorePerson(a: Identity, b: Identity): number {
  return combine([
    { weight: 3, score: bestOf(strings(a, 'names', 'firstName'), strings(b, 'names', 'firstName'), nameSimilarity) },
    { weight: 3, score: bestOf(strings(a, 'names', 'lastName'), strings(b, 'names', 'lastName'), nameSimilarity) },
    { weight: 3, score: bestOf(strings(a, 'datesOfBirth', 'dateOfBirth', String), strings(b, 'datesOfBirth', 'dateOfBirth', String), dobScore) },
    { weight: 4, score: bestOf(strings(a, 'ssns', 'ssn', digits), strings(b, 'ssns', 'ssn', digits), exact) },
    { weight: 2, score: bestOf(addressKeys(a), addressKeys(b), similarity) },
    { weight: 1, score: bestOf(strings(a, 'phoneNumbers', 'number', digits), strings(b, 'phoneNumbers', 'number', digits), exact) },
    { weight: 1, score: bestOf(strings(a, 'emails', 'email'), strings(b, 'emails', 'email'), exact) },
  ]);
}

/** Household key of an identity: its first address, normalised (first line and 5-digit postal code). */
export function householdKey(identity: Identity): string | undefined {
  return addressKeys(identity)[0];
}
