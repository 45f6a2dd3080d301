/** Person generator: valid against the spec for 1,000 seeds, every identity array covered, never-issued SSNs, deterministic; households share one address. */
import { describe, expect, it } from 'vitest';
import { postContent } from '../generators/common.js';
import { fictionalSsn, personHousehold, personIdentity } from '../generators/person.js';
import { seededFaker } from '../generators/seed.js';
import { violations } from '../harness/contract.js';
import { PERSON_IDENTITY_ARRAYS, PersonIdentity } from '../specs/person/identity.js';
import { operation } from '../specs/services.js';

describe('personIdentity', () => {
  it('identities from 1,000 seeds all validate against the identity schema and the postIdentity request schema', () => {
    const post = operation('person', 'postIdentity');
    const bad: string[] = [];
    for (let seed = 0; seed < 1000; seed++) {
      const source = { name: 'cf_test_a', id: `cf-x-${seed}` };
      const identity = personIdentity(seededFaker(seed), source);
      const v = [
        ...violations(PersonIdentity, identity),
        ...violations(post.request, postContent(identity, source, 'identity.sources')),
      ];
      if (v.length) bad.push(`seed ${seed}: ${JSON.stringify(v[0])}`);
    }
    expect(bad).toEqual([]);
  });

  it('covers every array of the identity table with at least one element', () => {
    const identity = personIdentity(seededFaker(7)) as Record<string, unknown[]>;
    for (const key of PERSON_IDENTITY_ARRAYS) expect(identity[key]?.length, key).toBeGreaterThan(0);
  });

  it('makes SSNs only in the never-issued area range 900-999', () => {
    for (let seed = 0; seed < 1000; seed++) {
      const ssn = fictionalSsn(seededFaker(seed));
      expect(ssn).toMatch(/^9\d\d-(0[1-9]|[1-9]\d)-(?!0000)\d{4}$/);
    }
  });

  it('makes death dates after birth and only for deceased people', () => {
    for (let seed = 0; seed < 300; seed++) {
      const p = personIdentity(seededFaker(seed));
      const d = p.deathDetails![0]!;
      if (!d.deathIndicator) expect(d.deathDate).toBeUndefined();
      else expect(d.deathDate! > p.datesOfBirth![0]!.dateOfBirth!).toBe(true);
    }
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expect(personIdentity(seededFaker(99))).toEqual(personIdentity(seededFaker(99)));
    expect(personIdentity(seededFaker(99))).not.toEqual(personIdentity(seededFaker(100)));
  });
});

describe('personHousehold', () => {
  it('gives several distinct people one shared address and family name', () => {
    for (let seed = 0; seed < 100; seed++) {
      const members = personHousehold(seededFaker(seed));
      expect(members.length).toBeGreaterThanOrEqual(2);
      expect(new Set(members.map((m) => JSON.stringify(m.addresses))).size).toBe(1);
      expect(new Set(members.map((m) => m.names![0]!.lastName)).size).toBe(1);
      expect(new Set(members.map((m) => m.ssns![0]!.ssn)).size).toBe(members.length);
      for (const m of members) expect(violations(PersonIdentity, m)).toEqual([]);
    }
  });

  it('sets the given sources on the members in order', () => {
    const sources = [
      { name: 'cf_test_a', id: 'cf-h-1' },
      { name: 'cf_test_b', id: 'cf-h-2' },
    ];
    const members = personHousehold(seededFaker(3), sources);
    expect(members.map((m) => m.sources?.[0])).toEqual(sources);
  });
});
