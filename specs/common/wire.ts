/**
 * Wire data types shared by every service.
 *
 * Source: organization-identity-api.md, Resources and their fields, "Field data types" (restated for person and
 * provider in person-provider-identity-api.md, Resources). Each schema accepts exactly the wire form the seed gives;
 * they are used both to validate replies (through JSON Schema and ajv) and to check what the generators build.
 */
import { z } from 'zod';

/** TEXT: a string. */
export const Text = z.string();
/** CODE-SET: a string taken from a code set (the allowed values are "not shown"). */
export const CodeSet = z.string();
/**
 * NUMBER: a string holding a decimal number, e.g. "12.5", "-3", "+17205551234" or "1.5e3" (a
 * leading sign and an exponent are part of how a number is written; the seed says only "string
 * holding a number").
 */
export const NumberString = z.string().regex(/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/, 'a string holding a number');
/** DATE: a string `yyyy-MM-dd` (validated as a real calendar date). */
export const DateString = z.iso.date();
/** TIME: a string of the shape `HH:mm` (00:00 to 23:59). */
export const TimeString = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time HH:mm');
/** BOOLEAN: a JSON boolean. */
export const Bool = z.boolean();
/**
 * DATE-TIME: an ISO 8601 UTC timestamp `yyyy-MM-ddTHH:mm:ss`, optional fractional seconds of any length, and the UTC
 * designator in any ISO 8601 form: `Z`, `+00:00` or `+00`. Not accepted: `-00:00` (ISO 8601 writes a zero offset with
 * "+"; RFC 3339 uses `-00:00` for "UTC, local offset unknown", which ISO 8601 does not have), other offsets (not UTC),
 * a basic-format offset `+0000` after an extended-format time (ISO 8601 forbids mixing the formats), and times without
 * seconds (reduced precision is allowed by ISO 8601 only by agreement, which the seed does not make). Source:
 * organization-identity-api.md, Resources, "Field data types": "DATE-TIME | string, ISO 8601 UTC timestamp".
 */
export const DateTimeString = z
  .string()
  .regex(
    new RegExp(
      `^${z.regexes.date.source.slice(1, -1)}T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|\\+00(?::00)?)$`,
    ),
    'an ISO 8601 UTC timestamp',
  );

/**
 * Reply members are read tolerantly: an optional member may be absent or `null` (a member the seeds do not mark
 * required is not required, whatever a vendor document says).
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
