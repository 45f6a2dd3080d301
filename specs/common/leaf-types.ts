/**
 * Finds the wire data type of every leaf of a schema (DATE, TIME, NUMBER, BOOLEAN, DATE-TIME, TEXT), so a check can
 * test each value of a reply against its documented type.
 * Source: organization-identity-api.md, Resources, "Field data types".
 */
import type { z } from 'zod';
import { Bool, CodeSet, DateString, DateTimeString, NumberString, Text, TimeString } from './wire.js';

export type WireType = 'TEXT' | 'NUMBER' | 'DATE' | 'TIME' | 'BOOLEAN' | 'DATE-TIME';

const KNOWN = new Map<z.ZodType, WireType>([
  [Text, 'TEXT'],
  [CodeSet, 'TEXT'],
  [NumberString, 'NUMBER'],
  [DateString, 'DATE'],
  [TimeString, 'TIME'],
  [Bool, 'BOOLEAN'],
  [DateTimeString, 'DATE-TIME'],
]);

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Path segments: member names, or '[]' for "every element of an array". */
export type LeafPath = string[];

export function leafTypes(schema: z.ZodType, path: LeafPath = []): Array<{ path: LeafPath; type: WireType }> {
  const known = KNOWN.get(schema);
  if (known) return [{ path, type: known }];
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'nullable') return leafTypes(def.innerType!, path);
  if (def.type === 'array') return leafTypes(def.element!, [...path, '[]']);
  if (def.type === 'object') {
    const shape = (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
    return Object.entries(shape).flatMap(([k, v]) => leafTypes(v, [...path, k]));
  }
  return [];
}

/** Every value found at `path` inside `value`, with its JSON pointer. */
export function valuesAt(value: unknown, path: LeafPath, pointer = ''): Array<{ pointer: string; value: unknown }> {
  if (value === undefined || value === null) return [];
  if (!path.length) return [{ pointer, value }];
  const [head, ...rest] = path;
  if (head === '[]') return Array.isArray(value) ? value.flatMap((v, i) => valuesAt(v, rest, `${pointer}/${i}`)) : [];
  return typeof value === 'object'
    ? valuesAt((value as Record<string, unknown>)[head!], rest, `${pointer}/${head}`)
    : [];
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
