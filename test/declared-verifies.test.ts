/**
 * The requirement IDs written where shared checks are registered (scenarios/<service>/*.test.ts,
 * `verifies`) are held to the IDs the checks cite: a stale list stops the file at collection
 * with both lists named, so a search for an ID always lands on the file that checks it.
 */
import { describe, expect, it } from 'vitest';
import { declared } from '../scenarios/shared/declared.js';

describe('declared requirement IDs', () => {
  it('pass when they are the IDs the checks cite, in any order', () => {
    expect(() => declared('organization', 'lifecycle', ['ORG-B', 'ORG-A'], ['ORG-A', 'ORG-B'])).not.toThrow();
  });

  it('fail, naming both lists, when one is missing or extra', () => {
    expect(() => declared('organization', 'lifecycle', ['ORG-A'], ['ORG-A', 'ORG-B'])).toThrow(
      /declares they verify \[ORG-A\], but they verify \[ORG-A, ORG-B\]/,
    );
    expect(() => declared('person', 'search', ['P-A', 'P-X'], ['P-A'])).toThrow(/person search checks/);
  });
});
