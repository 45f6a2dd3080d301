/**
 * String comparison helpers for the reference's matching, built on well-kept libraries: Jaro-Winkler from
 * @skyra/jaro-winkler and phonetic codes from double-metaphone.
 */
import { jaroWinkler } from '@skyra/jaro-winkler';
import { doubleMetaphone } from 'double-metaphone';

/**
 * Memo of normalize(): matchers normalise the same stored values on every comparison, so large stores (the
 * match-quality benchmark) spend most of their time here. Bounded: cleared when full.
 */
const normalized = new Map<string, string>();
const NORMALIZE_MEMO_MAX = 200_000;

/** Lower-case, strip diacritics and punctuation, collapse spaces. */
export function normalize(text: unknown): string {
  if (typeof text !== 'string') return '';
  const hit = normalized.get(text);
  if (hit !== undefined) return hit;
  if (normalized.size >= NORMALIZE_MEMO_MAX) normalized.clear();
  const out = normalizeUncached(text);
  normalized.set(text, out);
  return out;
}

function normalizeUncached(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Digits only (phones, postal codes, identifiers). */
export const digits = (text: unknown) => (typeof text === 'string' ? text.replace(/\D+/g, '') : '');

/** Jaro-Winkler similarity of two normalised strings in [0, 1]; 0 when either is empty. */
export function similarity(a: string, b: string): number {
  if (!a || !b) return 0;
  if (a === b) return 1;
  return jaroWinkler(a, b);
}

const codes = new Map<string, [string, string]>();
/** Double-metaphone codes of a word, memoised like normalize() (the codes cost about 2 µs each). */
export function phoneticCodes(word: string): [string, string] {
  let hit = codes.get(word);
  if (!hit) {
    if (codes.size >= NORMALIZE_MEMO_MAX) codes.clear();
    codes.set(word, (hit = doubleMetaphone(word) as [string, string]));
  }
  return hit;
}

/** True when the two words share a double-metaphone code. */
export function soundsAlike(a: string, b: string): boolean {
  if (!a || !b) return false;
  const [a1, a2] = phoneticCodes(a);
  const [b1, b2] = phoneticCodes(b);
  return Boolean(a1) && (a1 === b1 || a1 === b2 || (a2 !== '' && (a2 === b1 || a2 === b2)));
}

/** Best similarity between any value of `as` and any value of `bs`; null when either side is empty. */
export function bestOf(
  as: string[],
  bs: string[],
  compare: (a: string, b: string) => number = similarity,
): number | null {
  const A = as.filter(Boolean);
  const B = bs.filter(Boolean);
  if (!A.length || !B.length) return null;
  let best = 0;
  for (const a of A) for (const b of B) best = Math.max(best, compare(a, b));
  return best;
}

/** Values of `field` across the objects of `identity[array]`. */
export function valuesOf(identity: Record<string, unknown> | undefined, array: string, field: string): unknown[] {
  const list = identity?.[array];
  if (!Array.isArray(list)) return [];
  return list
    .map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined))
    .filter((v) => v !== undefined && v !== null);
}
