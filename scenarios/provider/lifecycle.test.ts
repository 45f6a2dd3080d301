/**
 * Provider source lifecycle rows for both types: soft delete (removed from every identity, merge
 * history kept), restore (new entity or modified ones, named in the reply), hard delete
 * (permanent, merge history included).
 * Source: person-provider-identity-api.md, States and transitions (provider rows).
 */
import { lifecycleChecks } from '../shared/rules/lifecycle.js';
import { script } from '../shared/script.js';
import { TYPES, area } from './provider.js';
import { providerWalks } from './walk-config.js';

const { check } = area('lifecycle');

for (const { kind, label, kit } of TYPES) {
  lifecycleChecks({
    check,
    kit,
    label,
    walks: providerWalks,
    kind,
  });

  check(
    `a soft-deleted source is removed from the identity it was linked into, its data with it (${label})`,
    ['PROV-SOFTDELETE-EFFECT'],
    async (t) => {
      const s = script(t, providerWalks);
      const [a, b] = await s.start(2, kind);
      await s.step('link', [a!, b!]);
      await s.step('soft delete', [b!], ['PROV-SOFTDELETE-EFFECT']);
    },
  );

  check(
    `soft delete keeps merge history: a merge can be reversed after soft delete and restore (${label})`,
    ['PROV-SOFTDELETE-KEEPS-HISTORY'],
    async (t) => {
      const s = script(t, providerWalks);
      const [a, b] = await s.start(2, kind);
      await s.step('merge', [a!, b!]);
      await s.step('soft delete', [a!]);
      await s.step('restore', [a!]);
      await s.step('unmerge', [a!, b!], ['PROV-SOFTDELETE-KEEPS-HISTORY']);
    },
  );

  check(
    `hard delete removes merge history: a hard-deleted retired source cannot be unmerged (${label})`,
    ['PROV-HARDDELETE-HISTORY'],
    async (t) => {
      const s = script(t, providerWalks);
      const [a, b] = await s.start(2, kind);
      await s.step('merge', [a!, b!]);
      await s.step('hard delete', [b!]);
      // Whatever unmergeIdentities answers (preconditions are "not shown"), nothing of the deleted source comes back.
      await s.step('unmerge', [a!, b!], ['PROV-HARDDELETE-HISTORY']);
    },
  );
}
