/**
 * The parts the corruption operators of linkage/data/operators.ts are built from: the operator type, the edits of one
 * field (a value edit, a blank, a move), and the operator families persons, practitioners and organizations share
 * (names, addresses, phones). Source: linkage/README.md, "Data".
 */
import type { Faker } from '@faker-js/faker';
import { digitError, digitTransposition, nickname, ocr, phonetic, type Rng, swapWords, typo } from './edits.js';
import { type Entity, type Fields, addressFields, phoneNumber, randomPlace } from './entities.js';
import { CITY_ABBREVIATIONS, STREET_ABBREVIATIONS } from './tables.js';

export type Layer = 'L1' | 'L2' | 'L3' | 'completeness';

export interface OpContext {
  rng: Rng;
  f: Faker;
  fields: Fields;
  entity: Entity;
  /** Other entities of the entity's household (for a borrowed SSN). */
  household: Entity[];
}

export interface Operator {
  /** Stable name used in the corruption log and the recall breakdown, e.g. `given.nickname`. */
  name: string;
  layer: Layer;
  /** Fields the operator may change (the one-operator-per-field rule reads them). */
  fields: string[];
  /** Default probability per record. */
  p: number;
  apply(ctx: OpContext): Fields | undefined;
}

export const op = (name: string, layer: Layer, fields: string[], p: number, apply: Operator['apply']): Operator => ({
  name,
  layer,
  fields,
  p,
  apply,
});

/** Applies a value edit to one field when it is non-blank; undefined when blank or unchanged. */
export const edit =
  (field: string, fn: (rng: Rng, v: string, ctx: OpContext) => string | undefined) =>
  (ctx: OpContext): Fields | undefined => {
    const v = ctx.fields[field];
    if (!v) return undefined;
    const out = fn(ctx.rng, v, ctx);
    return out === undefined || out === v ? undefined : { [field]: out };
  };

/** An operator that edits one field's value (a value edit that may decline by returning undefined). */
export const onField = (
  field: string,
  name: string,
  layer: Layer,
  p: number,
  fn: (rng: Rng, v: string, ctx: OpContext) => string | undefined,
): Operator => op(name, layer, [field], p, edit(field, fn));

export const blank = (field: string) => (ctx: OpContext) => (ctx.fields[field] ? { [field]: '' } : undefined);
const blankAll = (fields: string[]) => (ctx: OpContext) =>
  fields.some((f) => ctx.fields[f]) ? Object.fromEntries(fields.map((f) => [f, ''])) : undefined;

export const ADDRESS = ['line1', 'line2', 'city', 'state', 'postalCode'];

/** Moved: a new address, two thirds of the time near the old one (same ZIP3, else same state). */
export const move = (ctx: OpContext): Fields => {
  const { rng, fields } = ctx;
  const near = rng.chance(2 / 3) ? { zip3: fields.postalCode?.slice(0, 3), state: fields.state } : undefined;
  return addressFields(ctx.f, rng, randomPlace(rng, near));
};

export const phoneFormat = (rng: Rng, v: string) => {
  const d = v.replace(/\D/g, '');
  if (d.length !== 10) return undefined;
  return rng.pick([
    `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
    d,
    `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`,
    `1-${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
  ]);
};

/** DOB edits on yyyy-MM-dd: day↔month swap (day ≤ 12), one digit, adjacent transposition, year ±1. */
const validDate = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);
const dobEdit = (fn: (rng: Rng, y: string, m: string, d: string) => string | undefined) => (rng: Rng, v: string) => {
  const [y, m, d] = v.split('-') as [string, string, string];
  for (let i = 0; i < 5; i++) {
    const out = fn(rng, y, m, d);
    if (out && validDate(out)) return out;
  }
  return undefined;
};
export const dobDigit = dobEdit((rng, y, m, d) => {
  const s = `${y}${m}${d}`;
  const i = rng.pick([2, 3, 4, 5, 6, 7]);
  const out = s.slice(0, i) + String(rng.int(0, 9)) + s.slice(i + 1);
  return `${out.slice(0, 4)}-${out.slice(4, 6)}-${out.slice(6)}`;
});
export const dobTranspose = dobEdit((rng, y, m, d) => {
  const part = rng.pick(['y', 'm', 'd']);
  if (part === 'y') return `${y.slice(0, 2)}${y[3]}${y[2]}-${m}-${d}`;
  if (part === 'm') return `${y}-${m[1]}${m[0]}-${d}`;
  return `${y}-${m}-${d[1]}${d[0]}`;
});

/** Swaps the two halves of a hyphenated/compound family name's joiner (hyphen ↔ space). */
const compound = (_rng: Rng, v: string) =>
  v.includes('-') ? v.replace('-', ' ') : v.includes(' ') ? v.replace(' ', '-') : undefined;

export const stripPunctuation = (_rng: Rng, v: string) => {
  const out = v.replace(/['.,]/g, '').replace(/-/g, ' ');
  return out === v ? undefined : out;
};

/** Person-name operators shared by persons and practitioners, with probabilities scaled by `k`. */
export function nameOperators(k: {
  typo: number;
  nickname: number;
  middleInitial: number;
  middleBlank: number;
  familyTypo: number;
  swap: number;
}): Operator[] {
  return [
    op('given.nickname', 'L1', ['given'], k.nickname, edit('given', nickname)),
    onField('given', 'given.typo', 'L3', k.typo, typo),
    op('given.phonetic', 'L3', ['given'], 0.03, edit('given', phonetic)),
    op('given.ocr', 'L3', ['given'], 0.005, edit('given', ocr)),
    onField('given', 'given.initial', 'L3', 0.01, (_r, v) => v[0]),
    op('middle.as-given', 'L3', ['given', 'middle'], 0.02, (c) =>
      c.fields.middle && c.fields.middle.length > 1 ? { given: c.fields.middle, middle: c.fields.given! } : undefined,
    ),
    onField('middle', 'middle.typo', 'L3', 0.01, (r, v) => (v.length > 2 ? typo(r, v) : undefined)),
    onField('family', 'family.typo', 'L3', k.familyTypo, typo),
    op('family.phonetic', 'L3', ['family'], 0.03, edit('family', phonetic)),
    op('family.ocr', 'L3', ['family'], 0.005, edit('family', ocr)),
    op('name.given-family-swap', 'L3', ['given', 'family'], k.swap, (c) =>
      c.fields.given && c.fields.family ? { given: c.fields.family, family: c.fields.given } : undefined,
    ),
    op('given.blank', 'completeness', ['given'], 0.005, blank('given')),
    op('middle.blank', 'completeness', ['middle'], k.middleBlank, blank('middle')),
    op('family.blank', 'completeness', ['family'], 0.002, blank('family')),
    onField('middle', 'middle.initial', 'L2', k.middleInitial, (r, v) =>
      v.length > 1 ? `${v[0]}${r.chance(0.5) ? '.' : ''}` : undefined,
    ),
    op('suffix.dropped', 'L2', ['suffix'], 0.3, blank('suffix')),
    op('suffix.into-family', 'L2', ['suffix', 'family'], 0.05, (c) =>
      c.fields.suffix && c.fields.family ? { family: `${c.fields.family} ${c.fields.suffix}`, suffix: '' } : undefined,
    ),
    op('family.compound', 'L2', ['family'], 0.03, edit('family', compound)),
    op('name.upper-case', 'L2', ['given', 'middle', 'family'], 0.3, (c) =>
      Object.fromEntries(
        ['given', 'middle', 'family'].filter((f) => c.fields[f]).map((f) => [f, c.fields[f]!.toUpperCase()]),
      ),
    ),
    op(
      'name.punctuation',
      'L2',
      ['given', 'family'],
      0.2,
      (c) => edit('family', stripPunctuation)(c) ?? edit('given', stripPunctuation)(c),
    ),
    onField('family', 'name.truncated', 'L2', 0.02, (_r, v) => (v.length > 12 ? v.slice(0, 12) : undefined)),
  ];
}

/** Address operators of persons and practitioners. */
export const addressOperators = (moveP: number): Operator[] => [
  op('address.moved', 'L1', ADDRESS, moveP, move),
  onField('line1', 'address.street-typo', 'L3', 0.03, (r, v) => {
    const m = v.match(/^(\d+\s+)(.*)$/);
    const t = m ? typo(r, m[2]!) : undefined;
    return m && t ? m[1] + t : undefined;
  }),
  onField('line1', 'address.house-number', 'L3', 0.01, (r, v) =>
    /^\d/.test(v) ? digitError(r, v.split(' ')[0]!) + v.slice(v.indexOf(' ')) : undefined,
  ),
  onField('postalCode', 'address.zip-digit', 'L3', 0.01, (r, v) => digitError(r, v, [0.04, 0.04, 0.2, 0.36, 0.36])),
  op('address.placeholder', 'L3', ADDRESS, 0.002, () => ({
    line1: 'UNKNOWN',
    line2: '',
    city: '',
    state: '',
    postalCode: '99999',
  })),
  op('address.blank', 'completeness', ADDRESS, 0.03, blankAll(ADDRESS)),
  onField('line2', 'address.unit-format', 'L2', 0.05, (r, v) => {
    const n = v.replace(/^(Apt|Unit|Suite|Ste)\.?\s*/i, '');
    return r.pick([`#${n}`, n, `Apt ${n}`, `Unit ${n}`]);
  }),
  onField('postalCode', 'address.zip-plus-4', 'L2', 0.05, (r, v) =>
    /^\d{5}$/.test(v) ? `${v}-${String(r.int(1, 9999)).padStart(4, '0')}` : undefined,
  ),
  onField('postalCode', 'address.zip-leading-zero', 'L2', 0.005, (_r, v) =>
    v.startsWith('0') ? v.slice(1) : undefined,
  ),
  onField('city', 'address.city-alias', 'L2', 0.03, (r, v) => swapWords(r, v, CITY_ABBREVIATIONS)),
  onField('line1', 'address.street-abbreviation', 'L2', 0.25, (r, v) => swapWords(r, v, STREET_ABBREVIATIONS)),
];

/**
 * L3 data-entry errors of a field of digits: one digit wrong (`digitP` per record) and, where `transpositionP` is
 * given, two adjacent digits swapped.
 */
export const digitOperators = (field: string, digitP: number, transpositionP?: number): Operator[] => [
  op(
    `${field}.digit`,
    'L3',
    [field],
    digitP,
    edit(field, (r, v) => digitError(r, v)),
  ),
  ...(transpositionP === undefined
    ? []
    : [op(`${field}.transposition`, 'L3', [field], transpositionP, edit(field, digitTransposition))]),
];

export const phoneOperators = (newP: number, blankP: number): Operator[] => [
  op('phone.new', 'L1', ['phone'], newP, (c) => ({ phone: phoneNumber(c.rng) })),
  ...digitOperators('phone', 0.02, 0.01),
  op('phone.blank', 'completeness', ['phone'], blankP, blank('phone')),
  op('phone.format', 'L2', ['phone'], 0.3, edit('phone', phoneFormat)),
];
