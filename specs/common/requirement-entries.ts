/**
 * The two kinds of entry of a service's requirement catalogue (specs/<service>/requirements.ts): MUST = stated in the
 * seed, EXPECT = what any identity service does where the seed is silent (a profile may turn an EXPECT off).
 */
import type { Requirement, ServiceName } from './model.js';
import { type SeedCitation, SEED_OF } from './seed.js';

/** What a MUST requirement may say besides its text: why no check can verify it, the reply members it governs. */
type MustMore = { untestable?: string; governs?: string[] };

/** The entry builders of one service's catalogue, each entry's section prefixed with its seed document. */
export function requirementEntries(service: ServiceName) {
  const doc = SEED_OF[service];
  return {
    /**
     * A MUST requirement: `forbids` are the seed sentences that forbid what its checks reject, quoted word for word
     * (test/seeds.test.ts); the first is the one a check's "must succeed" rests on. `more` as a string: why it is
     * untestable.
     */
    must: (
      id: string,
      section: string,
      text: string,
      forbids: SeedCitation[],
      more: MustMore | string = {},
    ): Requirement => {
      const { untestable, governs } = typeof more === 'string' ? { untestable: more, governs: undefined } : more;
      return {
        id,
        level: 'MUST',
        service,
        section: `${doc}, ${section}`,
        text,
        ...(forbids.length ? { forbids } : {}),
        ...(untestable ? { untestable } : {}),
        ...(governs ? { governs } : {}),
      };
    },
    /** An EXPECT requirement: no seed sentence forbids the alternative, so a profile may turn it off. */
    expectation: (id: string, section: string, text: string): Requirement => ({
      id,
      level: 'EXPECT',
      service,
      section: `${doc}, ${section}`,
      text,
    }),
  };
}
