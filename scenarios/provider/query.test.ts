/**
 * postIdentity of both provider types, nativeIdQuery, identityIdQuery and demographicsQuery
 * (shared table, once per type), and the type a posted identity keeps.
 * Source: person-provider-identity-api.md, What the service does; Endpoints (provider service).
 */
import { postContent } from '../../generators/common.js';
import { TYPE_NOT_KEPT, UPDATE_NOT_APPLIED, typeNotKept, updateNotApplied } from '../../specs/clauses/post.js';
import { providerTypeOf } from '../../specs/provider/identity.js';
import { groupedSources, sameSource } from '../../specs/common/identity-content.js';
import { queryChecks } from '../shared/rules/query.js';
import { TYPES, area, typeValue } from './provider.js';

const { check } = area('query');

for (const { kind, label, kit } of TYPES) {
  queryChecks({
    check,
    kit,
    label,
  });

  check(
    `re-posting the same source and native ID updates the ${label} instead of adding an identity`,
    ['PROV-POST-SAME-SOURCE-UPDATES'],
    async (t) => {
      const cites = ['PROV-POST-SAME-SOURCE-UPDATES'];
      const a = await kit.postNew(t, cites);
      const changed = structuredClone(a.identity) as any;
      const line1 = `${t.faker.number.int({ min: 100, max: 9999 })} Update Street`;
      changed.addresses = [{ ...(changed.addresses?.[0] ?? {}), line1 }, ...(changed.addresses ?? []).slice(1)];
      await t.ok('postIdentity', postContent(changed, a.source, t.profile.sourcePlacement), { cites });
      // The new line in any letter case: a standardised view may change case (the standardised-text variant).
      const showsNew = (r: { content?: unknown }) =>
        JSON.stringify(r.content ?? {})
          .toLowerCase()
          .includes(line1.toLowerCase());
      const after = await kit.lookupUntil(t, a.source, 'the update shows', showsNew);
      const shown = {
        linkId: after.content?.linkId,
        timesListed: groupedSources(after.content).filter((s) => sameSource(s, a.source)).length,
        shows: showsNew(after),
      };
      t.judge(UPDATE_NOT_APPLIED, cites, updateNotApplied(a.linkId, shown, line1), after);
    },
  );

  check(`a posted ${label} is accepted and keeps its provider type`, ['PROV-POST-TYPES'], async (t) => {
    const a = await kit.postNew(t, ['PROV-POST-TYPES']);
    const found = await kit.lookup(t, a.source, t.profile.responseViews);
    const expected = typeValue(kind, t.profile.provider);
    const member = t.profile.provider.typeMember;
    const returned = providerTypeOf(found.content?.identity, member);
    if (returned === undefined)
      t.skip(
        `the returned identity carries no ${member} (profile provider.typeMember), so its type could not be read back`,
      );
    t.judge(TYPE_NOT_KEPT, 'PROV-POST-TYPES', typeNotKept(expected, returned), found);
  });
}
