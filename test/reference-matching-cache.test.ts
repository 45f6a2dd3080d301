/**
 * The reference's own speed-ups keep its answers: person scores from features kept per identity
 * object (reference/matching/person.ts) follow a record whose data is replaced, and the
 * allocation-free date comparisons give the verdicts of the plain ones; a bearer token remembered
 * as verified (reference/auth.ts) is still refused once it expires.
 */
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReferenceAuth } from '../reference/auth.js';
import { isTransposition, scorePerson } from '../reference/matching/person.js';

afterEach(() => {
  vi.useRealTimers();
});

const person = (first: string, last: string, dob: string) => ({
  names: [{ firstName: first, lastName: last }],
  datesOfBirth: [{ dateOfBirth: dob }],
});

describe('person scores', () => {
  it('date transpositions: day and month swapped, two adjacent digits swapped; nothing else, malformed dates included', () => {
    expect(isTransposition('1980-03-04', '1980-04-03')).toBe(true);
    expect(isTransposition('1980-03-04', '1908-03-04')).toBe(true);
    expect(isTransposition('1980-03-04', '1980-03-04')).toBe(false);
    expect(isTransposition('1980-03-04', '1980-03-05')).toBe(false);
    expect(isTransposition('1980-03-04', '1981-03-05')).toBe(false);
    // Not yyyy-MM-dd: no day and month to swap; only adjacent digits count.
    expect(isTransposition('1980/03/04', '1980/04/03')).toBe(false);
    expect(isTransposition('19800304--', '19800340--')).toBe(true);
  });

  it('follow an identity whose data object is replaced, as a re-post does', () => {
    const stored = { data: person('Maria', 'Lopez', '1980-03-04') };
    const probe = person('Maria', 'Lopez', '1980-03-04');
    const before = scorePerson(probe, stored.data);
    stored.data = person('Jonathan', 'Whitfield', '1955-11-30');
    const after = scorePerson(probe, stored.data);
    expect(after).toBeLessThan(before);
    expect(after).toBe(
      scorePerson(person('Maria', 'Lopez', '1980-03-04'), person('Jonathan', 'Whitfield', '1955-11-30')),
    );
  });
});

describe('bearer tokens remembered as verified', () => {
  it('are refused once they expire', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const auth = new ReferenceAuth();
    const secret = (auth as unknown as { secret: Uint8Array }).secret;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) + 60)
      .sign(secret);
    expect(await auth.verify(`Bearer ${token}`, ['bearer'])).toBe('ok');
    expect(await auth.verify(`Bearer ${token}`, ['bearer'])).toBe('ok');
    vi.setSystemTime(new Date('2026-01-01T00:02:00Z'));
    expect(await auth.verify(`Bearer ${token}`, ['bearer'])).toBe('invalid');
    expect(await auth.verify(`Bearer ${token}x`, ['bearer'])).toBe('invalid');
  });
});
