/**
 * The suite's check IDs as a run registers them (run/check-ids.ts), which a known-failures list
 * is checked against: the same IDs as a run of the embedded reference reports (its walk budget
 * decides how many walk checks there are), and no scenario file left out.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveBudgets } from '../harness/config.js';
import { suiteCheckIds, suiteChecks } from '../run/check-ids.js';
import { walkParts } from '../scenarios/shared/walk/walk.js';

// One budget for both listings: a scenario module loaded once registers its checks once (run/check-ids.ts suiteChecks).
const BUDGETS = resolveBudgets({ walks: 0, walkSteps: 0, badInputs: 0 }, true);

describe('the check IDs a known-failures list may name', () => {
  it("are every scenario file's checks, the walk checks as many as the run's walk budget makes", async () => {
    const embedded = await suiteCheckIds(BUDGETS);
    const parts = walkParts({ embedded: true, scope: 'default' });
    for (const service of ['organization', 'person', 'provider']) {
      const walks = [...embedded].filter((id) => id.startsWith(`${service}/walks/`));
      expect(walks, `${service} walk checks: the tours and ${parts} parts`).toHaveLength(1 + parts);
      for (const area of ['envelope', 'search', 'lifecycle', 'notifications'])
        expect([...embedded].some((id) => id.startsWith(`${service}/${area}/`))).toBe(true);
    }
    expect(embedded.has('organization/search/a-search-with-an-exact-copy-of-a-posted-identity-returns-it')).toBe(true);
  }, 120000);

  // Known-failures lists, baselines and exchange files key on check IDs: a check keeps its ID (a field of its entry, not
  // its title's slug) and the requirements it verifies. A check may be added; one removed or renamed is a change to
  // write into check-ids.snapshot.json on purpose.
  it('keep the IDs and requirements of check-ids.snapshot.json', async () => {
    const snapshot: Record<string, string[]> = JSON.parse(
      readFileSync(new URL('./check-ids.snapshot.json', import.meta.url), 'utf8'),
    );
    const listed = await suiteChecks(BUDGETS);
    const now = Object.fromEntries(listed.map((c) => [c.checkId, c.verifies]));
    const kept = Object.fromEntries(Object.keys(snapshot).map((id) => [id, now[id]]));
    expect(kept).toEqual(snapshot);
  }, 120000);
});
