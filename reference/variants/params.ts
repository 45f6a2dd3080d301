/** Parsers of variant values (`name=value`): each throws an Error saying what was expected. */
import type { VariantParameter } from './types.js';

/** An integer from `min` to `max`. */
export function integer(describe: string, def: number, min: number, max: number): VariantParameter<number> {
  return {
    describe: `${describe} (integer from ${min} to ${max})`,
    default: String(def),
    parse(raw) {
      const n = Number(raw);
      if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
        throw new Error(`expected an integer from ${min} to ${max}, got "${raw}"`);
      return n;
    },
  };
}

/** A number from `min` (exclusive when `openMin`) to `max`. */
export function decimal(
  describe: string,
  def: number,
  min: number,
  max: number,
  openMin = false,
): VariantParameter<number> {
  return {
    describe: `${describe} (number ${openMin ? 'above' : 'from'} ${min} ${openMin ? 'up ' : ''}to ${max})`,
    default: String(def),
    parse(raw) {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || n > max || (openMin ? n <= min : n < min))
        throw new Error(
          `expected a number ${openMin ? 'above' : 'from'} ${min} ${openMin ? 'up ' : ''}to ${max}, got "${raw}"`,
        );
      return n;
    },
  };
}

/** One of a fixed list of words. */
export function oneOf<T extends string>(describe: string, values: readonly T[], def: T): VariantParameter<T> {
  return {
    describe: `${describe} (${values.join(' | ')})`,
    default: def,
    parse(raw) {
      if (!(values as readonly string[]).includes(raw))
        throw new Error(`expected one of ${values.join(', ')}, got "${raw}"`);
      return raw as T;
    },
  };
}

/** A non-empty word without spaces or commas (a wire name, a code). */
export function word(describe: string, def: string): VariantParameter<string> {
  return {
    describe: `${describe} (a word: letters, digits, _ - .)`,
    default: def,
    parse(raw) {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw))
        throw new Error(`expected a word of letters, digits, _ - or . (at most 64), got "${raw}"`);
      return raw;
    },
  };
}

/** Two numbers written `a/b`, each within its range (e.g. `3/30`: seconds down / seconds between restarts). */
export function pairOf(
  describe: string,
  def: string,
  first: { what: string; min: number; max: number },
  second: { what: string; min: number; max: number },
): VariantParameter<[number, number]> {
  const range = (p: typeof first) => `${p.what} from ${p.min} to ${p.max}`;
  return {
    describe: `${describe}: <${first.what}>/<${second.what}> (${range(first)}, ${range(second)})`,
    default: def,
    parse(raw) {
      const parts = raw.split('/').map((s) => s.trim());
      const [a, b] = parts.map(Number) as [number, number];
      const within = (n: number, p: typeof first) => Number.isFinite(n) && n >= p.min && n <= p.max;
      if (parts.length !== 2 || parts.some((s) => s === '') || !within(a, first) || !within(b, second))
        throw new Error(
          `expected <${first.what}>/<${second.what}> with ${range(first)} and ${range(second)}, got "${raw}"`,
        );
      return [a, b];
    },
  };
}
