/**
 * postIdentity of both provider types, nativeIdQuery, identityIdQuery and demographicsQuery
 * (shared table, once per type), and the type a posted identity keeps.
 * Source: person-provider-identity-api.md, What the service does; Endpoints (provider service).
 */
import { expect } from 'vitest';
import { providerTypeOf } from '../../specs/provider/identity.js';
import { queryChecks } from '../shared/rules/query.js';
import { TYPES, area, typeValue } from './provider.js';

const { check } = area('query');

for (const { kind, label, kit } of TYPES) {
  queryChecks({
    check,
    kit,
    label,
    ids: { postAdds: 'PROV-POST-ADDS', nativeIdQuery: 'PROV-NATIVEID-QUERY', bestMatch: 'PROV-QUERY-BEST-MATCH', idQueryReturns: 'PROV-IDQUERY-RETURNS' },
  });

  check(`a posted ${label} is accepted and keeps its provider type`, ['PROV-POST-TYPES'], async (t) => {
    const a = await kit.postNew(t, ['PROV-POST-TYPES']);
    const found = await kit.lookup(t, a.source, t.profile.responseViews);
    const expected = typeValue(kind, t.profile.provider);
    const member = t.profile.provider.typeMember;
    const returned = providerTypeOf(found.content?.identity, member);
    if (returned === undefined) t.skip(`the returned identity carries no ${member} (profile provider.typeMember), so its type could not be read back`);
    await t.rule('PROV-POST-TYPES', () => expect(returned, `${member} of the returned ${label}`).toBe(expected));
  });
}
