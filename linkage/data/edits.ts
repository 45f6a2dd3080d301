/**
 * Value-level edits the corruption operators are made of: keyboard typos, phonetic and OCR variants, nicknames, digit
 * errors. Each takes a seeded random source and returns the new value, or undefined when the edit does not apply to the
 * value.
 *
 * Behaviour re-implemented from the descriptions in linkage/README.md, "Data" (character-edit mix after Damerau 1964;
 * error position Gaussian around len/2 + 1 with σ = len/4, first letter spared with p ≈ 0.92 after Pollock & Zamora
 * 1984).
 */
import { mulberry32 } from '../bootstrap.js';
import { FORMAL_OF, KEY_NEIGHBOURS, NICKNAMES, OCR_PAIRS, PHONETIC_RULES } from './tables.js';
import escapeRegExp from 'escape-string-regexp';

/** A seeded random source. */
export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  /** Index drawn from unnormalised weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let u = this.next() * total;
    for (let i = 0; i < weights.length; i++) if ((u -= weights[i]!) < 0) return i;
    return weights.length - 1;
  }
  /** Standard normal (Box–Muller). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
  }
  shuffle<T>(list: T[]): T[] {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/** Position of a character error: Gaussian around len/2 + 1 (σ = len/4), position 0 spared with p ≈ 0.92. */
export function errorPosition(rng: Rng, length: number): number {
  for (let tries = 0; tries < 20; tries++) {
    const p = Math.round(length / 2 + 1 + (rng.normal() * length) / 4) - 1;
    if (p < 0 || p >= length) continue;
    if (p === 0 && length > 1 && rng.chance(0.92)) continue;
    return p;
  }
  return Math.min(length - 1, 1);
}

const keepCase = (original: string, replacement: string) =>
  original === original.toUpperCase() && original !== original.toLowerCase() ? replacement.toUpperCase() : replacement;

/** A keyboard neighbour of `ch` (letters stay letters, digits stay digits), else a random one of its class. */
function neighbour(rng: Rng, ch: string, nearby: boolean): string {
  const lower = ch.toLowerCase();
  const isDigit = DIGITS.includes(lower);
  const pool = (nearby ? (KEY_NEIGHBOURS[lower] ?? '') : '')
    .split('')
    .filter((c) => (isDigit ? DIGITS.includes(c) : LETTERS.includes(c)));
  const chosen = pool.length ? rng.pick(pool) : rng.pick((isDigit ? DIGITS : LETTERS).replace(lower, '').split(''));
  return keepCase(ch, chosen);
}

/**
 * One character edit: substitute 0.59 (neighbour 0.7), delete 0.16, insert 0.10, transpose 0.02; else two edits (0.13).
 */
export function typo(rng: Rng, value: string): string | undefined {
  for (let i = 0; i < 5; i++) {
    const out = edit1(rng, value);
    if (out !== undefined && out !== value) return out;
  }
  return undefined;
}

function edit1(rng: Rng, value: string, depth = 0): string | undefined {
  if (value.length < 2) return undefined;
  const kind = rng.weighted([0.59, 0.16, 0.1, 0.02, depth ? 0 : 0.13]);
  const i = errorPosition(rng, value.length);
  const ch = value[i]!;
  if (!/[A-Za-z0-9]/.test(ch)) return depth > 3 ? undefined : edit1(rng, value, depth + 1);
  switch (kind) {
    case 0:
      return value.slice(0, i) + neighbour(rng, ch, rng.chance(0.7)) + value.slice(i + 1);
    case 1:
      return value.slice(0, i) + value.slice(i + 1);
    case 2:
      return value.slice(0, i + 1) + (rng.chance(0.5) ? ch : neighbour(rng, ch, true)) + value.slice(i + 1);
    case 3:
      return i + 1 < value.length
        ? value.slice(0, i) + value[i + 1] + ch + value.slice(i + 2)
        : value.slice(0, i - 1) + ch + value[i - 1] + value.slice(i + 1);
    default: {
      const once = edit1(rng, value, 1) ?? value;
      return edit1(rng, once, 1);
    }
  }
}

/** Applies one phonetic rewrite rule that matches (chosen at random); undefined when none changes the value. */
export function phonetic(rng: Rng, value: string): string | undefined {
  const lower = value.toLowerCase();
  const rules = rng.shuffle(PHONETIC_RULES.filter(([re]) => re.test(lower)));
  for (const [re, to] of rules) {
    const out = lower.replace(re, to);
    if (out !== lower && out.length >= 2) return restoreCase(value, out);
  }
  return undefined;
}

/** One OCR confusion (either direction of a pair) at a random applicable place. */
export function ocr(rng: Rng, value: string): string | undefined {
  const lower = value.toLowerCase();
  const options: Array<[number, string, string]> = [];
  for (const [a, b] of OCR_PAIRS)
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      let at = lower.indexOf(from);
      while (at >= 0) {
        options.push([at, from, to]);
        at = lower.indexOf(from, at + 1);
      }
    }
  if (!options.length) return undefined;
  const [at, from, to] = rng.pick(options);
  return restoreCase(value, lower.slice(0, at) + to + lower.slice(at + from.length));
}

/** A nickname of a formal name, or the formal name of a nickname; undefined when the name is in neither column. */
export function nickname(rng: Rng, given: string): string | undefined {
  const key = given.toLowerCase();
  const options = [...(NICKNAMES[key] ?? []), ...(FORMAL_OF[key] ?? [])];
  return options.length ? restoreCase(given, rng.pick(options)) : undefined;
}

/** Title case like the original when it was title case, upper when upper, else as given. */
export function restoreCase(original: string, value: string): string {
  if (original === original.toUpperCase()) return value.toUpperCase();
  if (original[0] === original[0]?.toUpperCase())
    return value.replace(/(^|[\s-])([a-z])/g, (_m, s: string, c: string) => s + c.toUpperCase());
  return value;
}

/** One digit replaced by another (the digit at a random digit position). */
export function digitError(rng: Rng, value: string, positions?: number[]): string | undefined {
  const at = [...value].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0);
  if (!at.length) return undefined;
  const i = positions ? at[Math.min(at.length - 1, rng.weighted(positions.slice(0, at.length)))]! : rng.pick(at);
  return value.slice(0, i) + neighbour(rng, value[i]!, rng.chance(0.5)) + value.slice(i + 1);
}

/** Two adjacent differing digits swapped. */
export function digitTransposition(rng: Rng, value: string): string | undefined {
  const pairs: number[] = [];
  for (let i = 0; i + 1 < value.length; i++)
    if (/\d/.test(value[i]!) && /\d/.test(value[i + 1]!) && value[i] !== value[i + 1]) pairs.push(i);
  if (!pairs.length) return undefined;
  const i = rng.pick(pairs);
  return value.slice(0, i) + value[i + 1] + value[i] + value.slice(i + 2);
}

/** Replaces whole words of `value` by their counterpart in a two-column table, in either direction. */
export function swapWords(
  rng: Rng,
  value: string,
  table: ReadonlyArray<readonly [string, string]>,
): string | undefined {
  const options: Array<[RegExp, string]> = [];
  for (const [long, short] of table) {
    const l = new RegExp(`\\b${escapeRegExp(long)}\\b`, 'i');
    const s = new RegExp(`\\b${escapeRegExp(short)}\\b\\.?`, 'i');
    if (l.test(value)) options.push([l, rng.chance(0.5) ? short : `${short}.`]);
    else if (s.test(value)) options.push([s, long]);
  }
  if (!options.length) return undefined;
  const [re, to] = rng.pick(options);
  return value.replace(re, to);
}
