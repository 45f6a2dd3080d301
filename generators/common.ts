/** Small helpers shared by the identity generators: wire-format dates, times and numbers. */
import type { Faker } from '@faker-js/faker';
import type { SourceRef } from '../specs/common/wire.js';

/** DATE wire form yyyy-MM-dd of a Date (UTC). */
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** A DATE between two years, inclusive. */
export const dateBetween = (f: Faker, fromYear: number, toYear: number) =>
  isoDate(f.date.between({ from: `${fromYear}-01-01T00:00:00Z`, to: `${toYear}-12-31T00:00:00Z` }));

/** A validity period: validFrom in the past, validTo in the future. */
export const validity = (f: Faker) => ({ validFrom: dateBetween(f, 2005, 2020), validTo: dateBetween(f, 2030, 2040) });

/** TIME wire form HH:mm. */
export const hhmm = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;

/** A ten-digit US phone number as digits only (fictional 555 exchange). */
export const phoneDigits = (f: Faker) =>
  `${f.helpers.arrayElement(['212', '312', '415', '512', '617', '720', '804'])}555${f.string.numeric(4)}`;

/** A best-time-to-contact object with TIME and BOOLEAN members. */
export const bestTimeToContact = (f: Faker) => {
  const start = f.number.int({ min: 7, max: 11 });
  return {
    day: f.helpers.arrayElement(['mon', 'tue', 'wed', 'thu', 'fri']),
    startTime: hhmm(start, 0),
    endTime: hhmm(start + 8, 30),
    allDay: false,
  };
};

/** Places the source reference where the profile says a posted identity carries it. */
export function postContent(
  identity: Record<string, unknown>,
  source: SourceRef,
  placement: 'identity.sources' | 'content.source',
) {
  if (placement === 'content.source') {
    const { sources: _drop, ...rest } = identity as Record<string, unknown> & { sources?: unknown };
    return { identity: rest, source };
  }
  return { identity: { ...identity, sources: [{ name: source.name, id: source.id }] } };
}
