/**
 * demographicsSearch rules for both provider types (shared table): threshold, order, at most
 * maxSearchResults, maxSearchResults > 0, score range, searchResults present, exact copy found.
 * Source: person-provider-identity-api.md, Endpoints (provider demographicsSearch), Limits.
 */
import { providerTypeOf } from '../../specs/provider/identity.js';
import { runInfo } from '../../harness/targets.js';
import { searchChecks } from '../shared/rules/search.js';
import { TYPES, area, providerNonsense, providerVariant } from './provider.js';

const { check } = area('search');

/** `value` with only what lies at the dot path `segs` (arrays walked): the provider type without its neighbours. */
const onlyAt = (value: unknown, segs: string[]): unknown => {
  if (Array.isArray(value)) return value.map((v) => onlyAt(v, segs));
  if (!segs.length || !value || typeof value !== 'object') return value;
  return { [segs[0]!]: onlyAt((value as Record<string, unknown>)[segs[0]!], segs.slice(1)) };
};

for (const { label, kit } of TYPES) {
  searchChecks({
    check,
    kit,
    label,
    variant: providerVariant,
    // A partial copy keeps the provider type (profile provider.typeMember), and nothing else of the member that holds it.
    completePartial: (copy, from) => {
      const path = runInfo().profile.provider.typeMember.split('.');
      return providerTypeOf(copy, path.join('.')) || from[path[0]!] === undefined
        ? copy
        : { ...copy, [path[0]!]: onlyAt(from[path[0]!], path.slice(1)) };
    },
    nonsense: providerNonsense,
  });
}
