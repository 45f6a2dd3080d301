/**
 * Provider merge, unmerge, link and unlink rows for both types (shared checks, judged by the
 * provider's executable state table: the survivor holds the combined data, unlink names both
 * sources), and merge or link across provider types, rejected and changing nothing.
 * Source: person-provider-identity-api.md, States and transitions (provider rows).
 */
import { mergeLinkChecks } from '../shared/rules/merge-link.js';
import { script } from '../shared/script.js';
import { TYPES, area } from './provider.js';
import { providerWalks } from './walk-config.js';

const { check } = area('merge-link');

for (const { kind, label, kit } of TYPES) {
  mergeLinkChecks({
    check,
    kit,
    label,
    walks: providerWalks,
    kind,
  });
}

const CROSS = [
  { step: 'merge', id: 'PROV-MERGE-SAME-TYPE' },
  { step: 'link', id: 'PROV-LINK-SAME-TYPE' },
] as const;

for (const { step, id } of CROSS) {
  for (const order of ['practitioner first', 'health facility first'] as const) {
    check(
      `${step === 'merge' ? 'mergeIdentities' : 'linkIdentities'} of a practitioner and a health facility is rejected and changes nothing (${order})`,
      [id],
      async (t) => {
        const s = script(t, providerWalks);
        const [p] = await s.start(1, 'practitioner');
        const f = await s.add('healthFacility');
        await s.step(step, order === 'practitioner first' ? [p!, f] : [f, p!], [id]);
      },
    );
  }
}
