/**
 * String comparison helpers for the reference's matching, built on well-kept libraries:
 * Jaro-Winkler from @skyra/jaro-winkler and phonetic codes from double-metaphone.
 */
import { jaroWinkler } from '@skyra/jaro-winkler';
import { doubleMetaphone } from 'double-metaphone';

/** Lower-case, strip diacritics and punctuation, collapse spaces. */
export function normalize(text: unknown): string {
  if (typeof text !== 'string') return '';
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

/** True when the two words share a double-metaphone code. */
export function soundsAlike(a: string, b: string): boolean {
  if (!a || !b) return false;
  const [a1, a2] = doubleMetaphone(a);
  const [b1, b2] = doubleMetaphone(b);
  return Boolean(a1) && (a1 === b1 || a1 === b2 || (a2 !== '' && (a2 === b1 || a2 === b2)));
}

/** Best similarity between any value of `as` and any value of `bs`; null when either side is empty. */
export function bestOf(as: string[], bs: string[], compare: (a: string, b: string) => number = similarity): number | null {
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
  return list.map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined)).filter((v) => v !== undefined && v !== null);
}

/**
 * Combines per-field evidence into a score in [0, 1]: a weighted mean of the fields both sides
 * have, so missing data neither helps nor hurts, scaled down when little evidence is shared.
 */
export function combine(evidence: Array<{ weight: number; score: number | null }>): number {
  let total = 0;
  let weights = 0;
  for (const e of evidence) {
    if (e.score === null) continue;
    total += e.weight * e.score;
    weights += e.weight;
  }
  if (weights === 0) return 0;
  const all = evidence.reduce((s, e) => s + e.weight, 0);
  const coverage = Math.min(1, weights / (all * 0.5));
  return Math.max(0, Math.min(1, (total / weights) * coverage));
}
