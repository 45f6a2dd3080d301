/**
 * Provider merge, unmerge, link and unlink rows for both types (shared table), plus the provider's
 * own rules: the survivor holds the combined data, unlink names both sources, and merge or link
 * across provider types is rejected and changes nothing.
 * Source: person-provider-identity-api.md, States and transitions (provider rows).
 */
import { expect } from 'vitest';
import type { Check } from '../../harness/check.js';
import { describeReply } from '../../harness/check.js';
import { isRejection } from '../../harness/reply.js';
import { mergeLinkChecks } from '../shared/rules/merge-link.js';
import { src } from '../shared/rules/types.js';
import { TYPES, area, healthFacility, practitioner } from './provider.js';

const { check } = area('merge-link');

for (const { label, kit } of TYPES) {
  mergeLinkChecks({
    check,
    kit,
    label,
  });

  check(`after mergeIdentities the surviving identity holds the retired record's data (${label})`, ['PROV-MERGE-EFFECT'], async (t) => {
    const cites = ['PROV-MERGE-EFFECT'];
    const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
    const marker = (b.identity as any).npis?.[0]?.npi as string;
    await t.ok('mergeIdentities', { toSurviveSource: src(a.source), toRetireSource: src(b.source) }, { cites });
    const survivor = await t.settle(
      "the survivor shows the retired record's data",
      () => kit.lookup(t, a.source, t.profile.responseViews),
      (r) => JSON.stringify(r.content ?? {}).includes(marker),
    );
    await t.rule(cites, () =>
      expect(JSON.stringify(survivor.content ?? {}), `the survivor's reply carries the retired record's NPI ${marker}`).toContain(marker),
    );
  });

  check(`unlinkIdentities names both sources in its reply (${label})`, ['PROV-UNLINK-REPLY'], async (t) => {
    const cites = ['PROV-UNLINK-REPLY'];
    const [a, b] = await Promise.all([kit.postNew(t, cites), kit.postNew(t, cites)]);
    await t.ok('linkIdentities', { linkToSource: src(a.source), source: src(b.source) }, { cites });
    const r = await t.ok('unlinkIdentities', { unlinkFromSource: src(a.source), source: src(b.source) });
    await t.rule(cites, () => {
      expect(r.content?.unlinkedSource, 'unlinkedSource is the source split off').toMatchObject(src(b.source));
      expect(r.content?.unlinkedFromSource, 'unlinkedFromSource is the source it was unlinked from').toMatchObject(src(a.source));
    });
  });
}

/** Posts one practitioner and one health facility. */
const mixed = (t: Check, cites: string[]) => Promise.all([practitioner.postNew(t, cites), healthFacility.postNew(t, cites)]);

const CROSS = [
  {
    op: 'mergeIdentities',
    id: 'PROV-MERGE-SAME-TYPE',
    content: (x: any, y: any) => ({ toSurviveSource: src(x.source), toRetireSource: src(y.source) }),
  },
  {
    op: 'linkIdentities',
    id: 'PROV-LINK-SAME-TYPE',
    content: (x: any, y: any) => ({ linkToSource: src(x.source), source: src(y.source) }),
  },
];

for (const { op, id, content } of CROSS) {
  for (const order of ['practitioner first', 'health facility first'] as const) {
    check(`${op} of a practitioner and a health facility is rejected and changes nothing (${order})`, [id], async (t) => {
      const [p, f] = await mixed(t, [id]);
      const [x, y] = order === 'practitioner first' ? [p, f] : [f, p];
      const r = await t.raw(op, content(x, y));
      const [lp, lf] = await Promise.all([practitioner.linkIdOf(t, p.source), healthFacility.linkIdOf(t, f.source)]);
      await t.rule(id, () => {
        expect(isRejection(r), `${op} across provider types must be rejected, got ${describeReply(r)}`).toBe(true);
        expect(lp, 'the practitioner still resolves to its own identity').toBe(p.linkId);
        expect(lf, 'the health facility still resolves to its own identity').toBe(f.linkId);
      });
    });
  }
}
