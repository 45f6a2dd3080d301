/**
 * The suite's check IDs as a run registers them (run/check-ids.ts), which a known-failures list
 * is checked against: the same IDs as a run of the embedded reference reports (its walk budget
 * decides how many walk checks there are), and no scenario file left out.
 */
import { describe, expect, it } from 'vitest';
import { resolveBudgets } from '../harness/config.js';
import { suiteCheckIds } from '../run/check-ids.js';
import { walkParts } from '../scenarios/shared/walk/walk.js';

describe('the check IDs a known-failures list may name', () => {
  it("are every scenario file's checks, the walk checks as many as the run's walk budget makes", async () => {
    const embedded = await suiteCheckIds(resolveBudgets({ walks: 0, walkSteps: 0, badInputs: 0 }, true));
    const parts = walkParts({ embedded: true, scope: 'default' });
    for (const service of ['organization', 'person', 'provider']) {
      const walks = [...embedded].filter((id) => id.startsWith(`${service}/walks/`));
      expect(walks, `${service} walk checks: the tours and ${parts} parts`).toHaveLength(1 + parts);
      for (const area of ['envelope', 'search', 'lifecycle', 'notifications'])
        expect([...embedded].some((id) => id.startsWith(`${service}/${area}/`))).toBe(true);
    }
    expect(embedded.has('organization/search/a-search-with-an-exact-copy-of-a-posted-identity-returns-it')).toBe(true);
  }, 120000);
});
