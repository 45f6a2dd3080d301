/**
 * Boundary values by value type, and the plan that places them on the request members the suite
 * chooses: one table per type of specs/common/leaf-types.ts (ValueType), each value named
 * (`length 256`, `astral emoji`, `leap day`), never a list per member. A member gets the values
 * of its type because of its type: every TEXT leaf the TEXT table, every DATE leaf the DATE table.
 *
 * - TEXT: lengths at common storage widths (1, 32, 36, 64, 255, 256, 4000, 4096 characters, and
 *   byte widths of multi-byte characters) and character classes (punctuation, Latin-1 and other
 *   accents, CJK, characters outside the BMP, emoji sequences, combining marks, right-to-left
 *   text, quotes, backslash, markup, percent signs, whitespace next to control characters).
 * - NUMBER (a string holding a number): integer, negative, signed, decimals, leading and trailing
 *   zeros, exponents, more digits than a double holds. JSON-NUMBER: 0, negatives, fractions,
 *   large and small magnitudes. INTEGER: 1 to 1000, the 32-bit limit and past it, 2^53 - 1.
 * - DATE (yyyy-MM-dd): leap days, 1900-02-28, year ends, the Unix epoch and the day before,
 *   the Gregorian reform, year 1, 9999-12-31, the 32-bit time limit. TIME (HH:mm): 00:00, 23:59,
 *   noon. DATE-TIME: ISO 8601 UTC forms (Z, +00:00, milliseconds) at the same calendar edges.
 * - BOOLEAN: true, false. EMAIL: plus tags, dots, subdomains, capitals, a 64-character local
 *   part, 254 characters.
 * - CODE-SET: none. Its allowed values are not shown (organization-identity-api.md, Resources,
 *   Gaps: "Allowed values of CODE-SET fields ...: not shown"), so the seeds do not let the suite
 *   choose one: it sends the generators' values.
 *
 * Text values start with a probe's mark (a few letters of the check's Faker), so a value is the
 * probe's own and two probes never post the same long name.
 * Source: organization-identity-api.md, Resources, "Field data types"; person-provider-identity-api.md,
 * Resources, "Person identity".
 */
import type { Faker } from '@faker-js/faker';
import { type ValueLeaf, type ValueType, valuesAt } from '../specs/common/leaf-types.js';

/** One boundary value of a type, with its name. */
export interface Boundary {
  type: ValueType;
  name: string;
  value: unknown;
}

/** A TEXT boundary: `length` code points of `filler` (the mark where none), or the mark and a `sample` of a class. */
interface TextSpec {
  name: string;
  length?: number;
  filler?: string;
  sample?: string;
}

const TEXT: readonly TextSpec[] = [
  { name: 'length 1', length: 1 },
  { name: 'length 32', length: 32 },
  { name: 'length 36', length: 36 },
  { name: 'length 64', length: 64 },
  { name: 'length 255', length: 255 },
  { name: 'length 256', length: 256 },
  { name: 'length 4000', length: 4000 },
  { name: 'length 4096', length: 4096 },
  { name: '255 two-byte characters (510 bytes)', length: 255, filler: 'é' },
  { name: '64 four-byte characters (256 bytes)', length: 64, filler: '😀' },
  { name: '2000 two-byte characters (4000 bytes)', length: 2000, filler: 'ß' },
  { name: '1024 four-byte characters (4096 bytes)', length: 1024, filler: '𠀋' },
  { name: 'ASCII punctuation', sample: '!#$%&()*+,-./:;<=>?@[]^_`{|}~' },
  { name: 'Latin-1 accents', sample: 'Ærøskøbing Café Ñandú Über façade' },
  { name: 'accents beyond Latin-1', sample: 'Łódź Dvořák Şişli Őrség' },
  { name: 'CJK', sample: '株式会社東京医療センター' },
  { name: 'CJK outside the BMP', sample: '𠀋𡈽𡌛𠮷野家' },
  { name: 'astral emoji', sample: 'Clinic 🏥🧬😀' },
  { name: 'emoji sequences', sample: 'Team 👩🏽‍⚕️👨‍👩‍👧 ❤️' },
  { name: 'combining marks', sample: 'Cafe\u0301 Nin\u0303o U\u0308ber A\u030Angstro\u0308m' },
  { name: 'right-to-left', sample: 'مستشفى الأمل שלום' },
  { name: 'quotes', sample: `O'Brien "Acme" ‘single’ “double” \`back\`` },
  { name: 'backslash', sample: 'C:\\temp\\new \\u0041 \\\\ end\\' },
  { name: 'markup', sample: '<b>Smith & Sons</b> &amp; &lt;x&gt;' },
  { name: 'percent and plus', sample: '100%25 + 50% a+b=c %s %d' },
  { name: 'control-adjacent whitespace', sample: 'tab\there\nnew line\r\nno-break\u00a0space' },
  { name: 'leading and trailing spaces', sample: '  padded both ends  ' },
];

/** `text` cut or filled to `length` code points (an astral character counts once). */
function toLength(text: string, filler: string, length: number): string {
  const points = [...text];
  while (points.length < length) points.push(...filler);
  return points.slice(0, length).join('');
}

/**
 * The TEXT value of a spec: the mark and the sample of a class; a length of the mark repeated; a
 * byte width of the multi-byte filler alone (the mark's bytes would change the width).
 */
function textOf(s: TextSpec, head: string): string {
  if (s.sample !== undefined) return `${head} ${s.sample}`;
  return toLength('', s.filler ?? head, s.length!);
}

const NUMBER: ReadonlyArray<[string, string]> = [
  ['zero', '0'],
  ['integer', '42'],
  ['negative', '-17'],
  ['plus sign', '+5'],
  ['decimals', '3.14159'],
  ['leading zeros', '007'],
  ['trailing zeros', '12.500'],
  ['leading dot', '.5'],
  ['negative zero', '-0'],
  ['exponent', '1.5e3'],
  ['negative exponent', '2.5E-4'],
  ['more digits than a double holds', '123456789012345678901234567890'],
  ['more decimals than a double holds', '0.1234567890123456789'],
];
const JSON_NUMBER: ReadonlyArray<[string, number]> = [
  ['zero', 0],
  ['negative', -1],
  ['fraction', 0.5],
  ['negative fraction', -122.4194],
  ['small', 1e-7],
  ['large', 1e21],
  ['largest safe integer', Number.MAX_SAFE_INTEGER],
  ['smallest safe integer', Number.MIN_SAFE_INTEGER],
];
const INTEGER: ReadonlyArray<[string, number]> = [
  ['1', 1],
  ['2', 2],
  ['10', 10],
  ['100', 100],
  ['1000', 1000],
  ['largest 32-bit integer', 2 ** 31 - 1],
  ['largest 32-bit integer + 1', 2 ** 31],
  ['largest safe integer', Number.MAX_SAFE_INTEGER],
];
const DATE: ReadonlyArray<[string, string]> = [
  ['leap day', '2024-02-29'],
  ['leap day of a century', '2000-02-29'],
  ['1900-02-28 (1900 is no leap year)', '1900-02-28'],
  ['end of February in a common year', '2023-02-28'],
  ['last day of a year', '1999-12-31'],
  ['first day of a year', '2000-01-01'],
  ['Unix epoch', '1970-01-01'],
  ['day before the Unix epoch', '1969-12-31'],
  ['Gregorian reform', '1582-10-15'],
  ['a day the Julian calendar skipped', '1582-10-10'],
  ['year 1', '0001-01-01'],
  ['9999-12-31', '9999-12-31'],
  ['32-bit time limit', '2038-01-19'],
];
const TIME: ReadonlyArray<[string, string]> = [
  ['midnight', '00:00'],
  ['one minute past midnight', '00:01'],
  ['noon', '12:00'],
  ['first afternoon hour', '13:00'],
  ['last minute', '23:59'],
];
const DATE_TIME: ReadonlyArray<[string, string]> = [
  ['Unix epoch', '1970-01-01T00:00:00Z'],
  ['before the Unix epoch', '1969-12-31T23:59:59Z'],
  ['leap day', '2024-02-29T23:59:59Z'],
  ['milliseconds', '2024-06-30T12:34:56.789Z'],
  ['offset +00:00', '2024-01-01T00:00:00+00:00'],
  ['year 2000', '2000-01-01T00:00:00Z'],
  ['32-bit time limit + 1 s', '2038-01-19T03:14:08Z'],
  ['last instant', '9999-12-31T23:59:59.999Z'],
];

/** EMAIL: [name, local part, domain] (the mark starts the local part). */
const EMAIL: ReadonlyArray<[string, (m: string) => string]> = [
  ['plus tag', (m) => `${m}+tag@example.org`],
  ['dotted local part', (m) => `first.middle.${m}@example.org`],
  ['subdomains', (m) => `${m}@mail.dept.example.co.uk`],
  ['capitals', (m) => `${m.toUpperCase()}@EXAMPLE.ORG`],
  ['digits and hyphens', (m) => `${m}-0123@my-host-1.example.org`],
  ['64-character local part', (m) => `${toLength(m, m, 64)}@example.org`],
  [
    '254 characters',
    (m) =>
      `${toLength(m, m, 64)}@${toLength('', 'abcdefghij', 63)}.${toLength('', 'klmnopqrst', 63)}.` +
      `${toLength('', 'uvwxyzabcd', 50)}.org`,
  ],
];

const named = <T>(type: ValueType, rows: ReadonlyArray<[string, T]>): Boundary[] =>
  rows.map(([name, value]) => ({ type, name, value }));

/**
 * The boundary values of a type, the text ones after `mark`. CODE-SET has none (see the module
 * comment); every other type's table is listed in docs/internals.md ("Boundary values").
 */
export function boundaryTable(type: ValueType, mark: string): Boundary[] {
  switch (type) {
    case 'TEXT':
      return TEXT.map((s) => ({ type, name: s.name, value: textOf(s, mark) }));
    case 'EMAIL':
      return EMAIL.map(([name, build]) => ({ type, name, value: build(mark.toLowerCase()) }));
    case 'NUMBER':
      return named(type, NUMBER);
    case 'JSON-NUMBER':
      return named(type, JSON_NUMBER);
    case 'INTEGER':
      return named(type, INTEGER);
    case 'DATE':
      return named(type, DATE);
    case 'TIME':
      return named(type, TIME);
    case 'DATE-TIME':
      return named(type, DATE_TIME);
    case 'BOOLEAN':
      return named(type, [
        ['true', true],
        ['false', false],
      ]);
    case 'CODE-SET':
      return [];
  }
}

/**
 * Native IDs at the TEXT boundaries inside the run's namespace: `prefix` (the namespace and a
 * probe's mark) filled to each length that leaves room for it, or followed by each character
 * class. Every one starts with `prefix`, so the guard, the ledger and the removal know it as the run's.
 */
export function nativeIdBoundaries(prefix: string): Boundary[] {
  return TEXT.flatMap((s) => {
    if (s.sample !== undefined) return [{ type: 'TEXT' as const, name: s.name, value: `${prefix}-${s.sample}` }];
    if (s.length! < [...prefix].length) return [];
    return [
      {
        type: 'TEXT' as const,
        name: s.name,
        value: toLength(prefix, s.filler ?? 'abcdefghijklmnopqrstuvwxyz', s.length!),
      },
    ];
  });
}

/** More than 255 bytes in UTF-8: past the narrowest common column width, where a deployment most likely refuses. */
export const isWide = (b: Boundary) => typeof b.value === 'string' && Buffer.byteLength(b.value) > 255;

export type Scope = 'default' | 'full';

/** One boundary value on one leaf of a request (a map leaf, `{}` in its path, takes several, one per key). */
export interface Placed {
  leaf: ValueLeaf;
  boundary: Boundary;
}

/**
 * The boundary values of one request each: leaf i of a type gets value (i + k) of its type's
 * table in the k-th request, so over the requests of a table's length every leaf gets every
 * value; a map leaf gets all of them at once. The narrow values (255 bytes or fewer) and the
 * wide ones go in separate requests (a deployment that refuses long values refuses only the wide
 * ones); a wide request's types without wide values take their narrow values on from where the
 * narrow request left them.
 * - `full`: every request of both kinds (each leaf gets every value of its type);
 * - `default`: `samples` narrow and as many wide requests (at most the table's), at offsets evenly
 *   apart from a start drawn from `f` (deterministic for a run seed; over runs every value
 *   reaches every leaf).
 */
export function boundaryRequests(
  leaves: readonly ValueLeaf[],
  tableOf: (type: ValueType) => readonly Boundary[],
  scope: Scope,
  f: Faker,
  samples = 1,
): Placed[][] {
  const types = [...new Set(leaves.map((l) => l.type))];
  const part = (type: ValueType, wide: boolean) => tableOf(type).filter((b) => isWide(b) === wide);
  const count = (wide: boolean) => Math.max(0, ...types.map((t) => part(t, wide).length));
  // `narrow`: the offset of the narrow request a wide one follows (its types without wide values continue from it).
  const request = (offset: number, wide: boolean, narrow = offset): Placed[] =>
    types.flatMap((type) => {
      const own = part(type, wide);
      const onLeaves = leaves.filter((l) => l.type === type);
      const values = own.length ? own : wide ? part(type, false) : [];
      const shift = own.length ? offset : narrow + onLeaves.length;
      return onLeaves.flatMap((leaf, i) => {
        // A value the leaf's own schema refuses (an e-mail format, a provider number's string form) is no value of
        // its type there.
        const fit = values.filter((b) => leaf.schema.safeParse(b.value).success);
        if (!fit.length) return [];
        return leaf.path.includes('{}')
          ? fit.map((boundary) => ({ leaf, boundary }))
          : [{ leaf, boundary: fit[(i + shift) % fit.length]! }];
      });
    });
  const [narrowCount, wideCount] = [count(false), count(true)];
  if (scope === 'full')
    return [
      ...Array.from({ length: narrowCount }, (_, k) => request(k, false)),
      ...Array.from({ length: wideCount }, (_, k) => request(k, true)),
    ];
  const offsets = (n: number) => {
    const start = n ? f.number.int({ min: 0, max: n - 1 }) : 0;
    return [
      ...new Set(Array.from({ length: Math.min(samples, n) }, (_, i) => (start + Math.floor((i * n) / samples)) % n)),
    ];
  };
  const narrow = offsets(narrowCount);
  return [
    ...narrow.map((k) => request(k, false)),
    ...offsets(wideCount).map((k, i) => request(k, true, narrow[i % narrow.length] ?? 0)),
  ];
}

/**
 * The leaves of `schema` the suite chooses in `sent` (a request it builds): those `sent` holds a
 * value at, less those holding a value of `fixed` (the deployment's: a profile's code, verb or
 * provider type, a link ID), which the seeds do not let the suite choose.
 */
export function chosenLeaves(leaves: readonly ValueLeaf[], sent: unknown, fixed: ReadonlySet<string>): ValueLeaf[] {
  return leaves.filter((l) => {
    const at = valuesAt(sent, l.path).map((x) => x.value);
    return at.length > 0 && at.every((v) => !fixed.has(String(v)));
  });
}

/** The member a map leaf's value goes under: its boundary's name, as a key. */
export const keyOf = (b: Boundary) => b.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** A copy of `base` with each placed value set: the first element of an array, a map member under keyOf. */
export function withBoundaries<T>(base: T, placed: readonly Placed[]): T {
  // A JSON copy: a generator may hold one object at two members (an address and a contact's address), placed apart.
  const out = JSON.parse(JSON.stringify(base)) as unknown;
  for (const { leaf, boundary } of placed) {
    let node = out as Record<string, unknown> | unknown[];
    const path = leaf.path.map((seg) => (seg === '[]' ? 0 : seg === '{}' ? keyOf(boundary) : seg));
    path.slice(0, -1).forEach((seg, i) => {
      const holder = node as Record<string | number, unknown>;
      const next = holder[seg];
      node = (next && typeof next === 'object' ? next : (holder[seg] = path[i + 1] === 0 ? [] : {})) as Record<
        string,
        unknown
      >;
    });
    (node as Record<string | number, unknown>)[path.at(-1)!] = boundary.value;
  }
  return out as T;
}
