/**
 * Wire data types shared by every service.
 *
 * Source: organization-identity-api.md, Resources and their fields, "Field data types"
 * (restated for person and provider in person-provider-identity-api.md, Resources).
 * Each schema accepts exactly the wire form the seed gives; they are used both to validate
 * replies (through JSON Schema and ajv) and to check what the generators build.
 */
import { z } from 'zod';

/** TEXT: a string. */
export const Text = z.string();
/** CODE-SET: a string taken from a code set (the allowed values are "not shown"). */
export const CodeSet = z.string();
/** NUMBER: a string holding a decimal number, e.g. "12.5" or "-3". */
export const NumberString = z.string().regex(/^-?\d+(\.\d+)?$/, 'a string holding a number');
/** DATE: a string `yyyy-MM-dd` (validated as a real calendar date). */
export const DateString = z.iso.date();
/** TIME: a string of the shape `HH:mm` (00:00 to 23:59). */
export const TimeString = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time HH:mm');
/** BOOLEAN: a JSON boolean. */
export const Bool = z.boolean();
/** DATE-TIME: an ISO 8601 UTC timestamp (ending in Z). */
export const DateTimeString = z.iso.datetime();

/**
 * Reply members are read tolerantly: an optional member may be absent or `null` (a member
 * the seeds do not mark required is not required, whatever a vendor document says).
 */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

/** An object that accepts unknown extra members (vendors add members; the seeds never forbid it). */
export const obj = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);

/** An optional array of `item`, tolerant of null. */
export const arr = <T extends z.ZodType>(item: T) => z.array(item).nullish();

/**
 * Source reference: `{date?, name, id}`.
 * Source: organization-identity-api.md, Resources, "Source reference".
 */
export const SourceRef = obj({
  date: opt(DateString),
  name: opt(Text),
  id: opt(Text),
});
export type SourceRef = { name: string; id: string; date?: string };

/** Domain `{name, id}`. Source: organization-identity-api.md, Resources, "Domain". */
export const Domain = obj({ name: opt(z.string()), id: opt(z.string()) });
