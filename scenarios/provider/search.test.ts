/**
 * demographicsSearch rules for both provider types (shared table): threshold, order, at most
 * maxSearchResults, maxSearchResults > 0, score range, searchResults present, exact copy found.
 * Source: person-provider-identity-api.md, Endpoints (provider demographicsSearch), Limits.
 */
import { searchAfterChangeChecks } from '../shared/rules/search-after-changes.js';
import { searchChecks } from '../shared/rules/search.js';
import { TYPES, area, providerNonsense, providerVariant } from './provider.js';

const { check } = area('search');

for (const { label, kit } of TYPES) {
  searchChecks({
    check,
    kit,
    label,
    variant: providerVariant,
    nonsense: providerNonsense,
    ids: {
      threshold: 'PROV-SEARCH-THRESHOLD',
      order: 'PROV-SEARCH-ORDER',
      maxResults: 'PROV-SEARCH-MAX-RESULTS',
      maxPositive: 'PROV-SEARCH-MAX-POSITIVE',
      scoreRange: 'PROV-SEARCH-SCORE-RANGE',
      resultsRequired: 'PROV-SEARCH-RESULTS-REQUIRED',
      findsExact: 'PROV-SEARCH-FINDS-EXACT',
    },
  });
  searchAfterChangeChecks({
    check,
    kit,
    label,
    retire: { what: 'softDeleteSource', send: (t, s) => t.ok('softDeleteSource', { sourceToSoftDelete: { name: s.name, id: s.id } }) },
    ids: { excludesInactive: 'PROV-SOFTDELETE-EFFECT', mergeResolves: 'PROV-MERGE-EFFECT', unlinkResolves: 'PROV-UNLINK-EFFECT', deleteResolves: 'PROV-HARDDELETE-EFFECT' },
  });
}
