/**
 * The type of every leaf of a schema: the seed's wire data types (DATE, TIME, NUMBER, BOOLEAN,
 * DATE-TIME, TEXT, CODE-SET) where a member has one, and the JSON types of the members the seeds
 * type otherwise (an e-mail address, a JSON number, an integer). A check tests each value of a
 * reply against its documented type (leafTypes); the boundary generator gives each request member
 * the values at the edges of its type (valueLeaves, generators/boundaries.ts).
 * Source: organization-identity-api.md, Resources, "Field data types";
 * person-provider-identity-api.md, Resources ("Person identity": number, date, e-mail address).
 */
import type { z } from 'zod';
import { Bool, CodeSet, DateString, DateTimeString, NumberString, Text, TimeString } from './wire.js';

export type WireType = 'TEXT' | 'NUMBER' | 'DATE' | 'TIME' | 'BOOLEAN' | 'DATE-TIME';
/** A leaf's type: a wire type, a CODE-SET (its values the deployment's), or a JSON type the seeds give no wire type. */
export type ValueType = WireType | 'CODE-SET' | 'EMAIL' | 'JSON-NUMBER' | 'INTEGER';

const KNOWN = new Map<z.ZodType, WireType | 'CODE-SET'>([
  [Text, 'TEXT'],
  [CodeSet, 'CODE-SET'],
  [NumberString, 'NUMBER'],
  [DateString, 'DATE'],
  [TimeString, 'TIME'],
  [Bool, 'BOOLEAN'],
  [DateTimeString, 'DATE-TIME'],
]);

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Path segments: member names, '[]' for "every element of an array", '{}' for "every member of a map". */
export type LeafPath = string[];

/**
 * A leaf: its path, its type, and `wire`: the schema is one of wire.ts's and every value at the
 * path has it (no union or map above it, whose other forms may hold something else).
 */
export interface ValueLeaf {
  path: LeafPath;
  type: ValueType;
  wire: boolean;
  /** The leaf's own schema (what a value there must satisfy). */
  schema: z.ZodType;
}

/**
 * Every leaf of a schema with its type: wire.ts's schemas by their wire type; other strings as
 * TEXT (EMAIL when an e-mail format), numbers as JSON-NUMBER (INTEGER when whole), booleans as
 * BOOLEAN; a union as its first option (the form the suite sends), a map's values as the map's.
 * Leaves of unknown type (z.unknown() but in a map, which holds text) are left out.
 */
export function valueLeaves(schema: z.ZodType, path: LeafPath = [], plain = true): ValueLeaf[] {
  const known = KNOWN.get(schema);
  if (known) return [{ path, type: known, wire: plain, schema }];
  const def = defOf(schema);
  const s = schema as unknown as { format?: string };
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return valueLeaves(def.innerType!, path, plain);
    case 'array':
      return valueLeaves(def.element!, [...path, '[]'], plain);
    case 'object':
      return Object.entries(def.shape!).flatMap(([k, v]) => valueLeaves(v, [...path, k], plain));
    case 'union':
      return valueLeaves(def.options![0]!, path, false);
    case 'record':
      // A free-form map (a relationship's details: "free-form map of keys to values"): the suite sends text.
      return defOf(def.valueType!).type === 'unknown'
        ? [{ path: [...path, '{}'], type: 'TEXT', wire: false, schema: def.valueType! }]
        : valueLeaves(def.valueType!, [...path, '{}'], false);
    case 'string':
      return [{ path, type: s.format === 'email' ? 'EMAIL' : 'TEXT', wire: false, schema }];
    case 'number':
      return [{ path, type: s.format === 'safeint' ? 'INTEGER' : 'JSON-NUMBER', wire: false, schema }];
    case 'boolean':
      return [{ path, type: 'BOOLEAN', wire: false, schema }];
    default:
      return [];
  }
}

/** Every leaf whose wire data type the seed's table gives (CODE-SET as TEXT: "string taken from a code set"). */
export function leafTypes(schema: z.ZodType, path: LeafPath = []): Array<{ path: LeafPath; type: WireType }> {
  return valueLeaves(schema, path)
    .filter((l) => l.wire)
    .map((l) => ({ path: l.path, type: l.type === 'CODE-SET' ? 'TEXT' : (l.type as WireType) }));
}

/** Every value found at `path` inside `value`, with its JSON pointer. */
export function valuesAt(value: unknown, path: LeafPath, pointer = ''): Array<{ pointer: string; value: unknown }> {
  if (value === undefined || value === null) return [];
  if (!path.length) return [{ pointer, value }];
  const [head, ...rest] = path;
  if (head === '[]') return Array.isArray(value) ? value.flatMap((v, i) => valuesAt(v, rest, `${pointer}/${i}`)) : [];
  if (typeof value !== 'object' || Array.isArray(value)) return [];
  const members = head === '{}' ? Object.entries(value) : [[head!, (value as Record<string, unknown>)[head!]] as const];
  return members.flatMap(([k, v]) => valuesAt(v, rest, `${pointer}/${k}`));
}

/** The schema that defines a wire type (for validating a single value). */
export const wireTypeSchema: Record<WireType, z.ZodType> = {
  TEXT: Text,
  NUMBER: NumberString,
  DATE: DateString,
  TIME: TimeString,
  BOOLEAN: Bool,
  'DATE-TIME': DateTimeString,
};
