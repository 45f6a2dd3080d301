/** Organization generator: valid against the spec for 1,000 seeds, every identity array covered, deterministic. */
import { describe, expect, it } from 'vitest';
import { organizationIdentity } from '../generators/organization.js';
import { seededFaker, testSeed } from '../generators/seed.js';
import { violations } from '../harness/contract.js';
import { ORGANIZATION_IDENTITY_ARRAYS, OrganizationIdentity } from '../specs/organization/identity.js';
import { operation } from '../specs/services.js';
import { postContent } from '../generators/common.js';

describe('organizationIdentity', () => {
  it('identities from 1,000 seeds all validate against the identity schema and the postIdentity request schema', () => {
    const post = operation('organization', 'postIdentity');
    const bad: string[] = [];
    for (let seed = 0; seed < 1000; seed++) {
      const identity = organizationIdentity(seededFaker(seed), { name: 'cf_test_a', id: `cf-x-${seed}` });
      const v = [
        ...violations(OrganizationIdentity, identity),
        ...violations(
          post.request,
          postContent(identity, { name: 'cf_test_a', id: `cf-x-${seed}` }, 'identity.sources'),
        ),
      ];
      if (v.length) bad.push(`seed ${seed}: ${JSON.stringify(v[0])}`);
    }
    expect(bad).toEqual([]);
  });

  it('covers every array of the identity table with at least one element', () => {
    const identity = organizationIdentity(seededFaker(7)) as Record<string, unknown[]>;
    for (const key of ORGANIZATION_IDENTITY_ARRAYS) expect(identity[key]?.length, key).toBeGreaterThan(0);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expect(organizationIdentity(seededFaker(99))).toEqual(organizationIdentity(seededFaker(99)));
    expect(organizationIdentity(seededFaker(99))).not.toEqual(organizationIdentity(seededFaker(100)));
  });

  it('derives per-test seeds from the run seed and the test ID, independent of other tests', () => {
    expect(testSeed(1, 'organization/post/a')).toBe(testSeed(1, 'organization/post/a'));
    expect(testSeed(1, 'organization/post/a')).not.toBe(testSeed(2, 'organization/post/a'));
    expect(testSeed(1, 'organization/post/a')).not.toBe(testSeed(1, 'organization/post/b'));
  });
});
