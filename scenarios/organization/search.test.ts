/**
 * demographicsSearch: rule 1 (nothing below matchScoreThreshold; maxSearchResults > 0),
 * ordering best to worst, at most maxSearchResults, score range, sameIdentity values, and the
 * searchResults member itself (shared table).
 * Source: organization-identity-api.md, Endpoints (rule 1), Resources (Search result), Limits.
 */
import { searchChecks } from '../shared/rules/search.js';
import { area, org } from './org.js';

const { check } = area('search');

searchChecks({
  check,
  kit: org,
  /** A variant with the second address only, no EIN and another trading name. */
  variant: (v, i) => {
    v.addresses = [v.addresses[1]];
    v.employerIdentificationNumber = [];
    v.organizationNames[0].tradingName = `${v.organizationNames[0].tradingName} ${i}`;
    return v;
  },
  nonsense: (f) => ({
    organizationNames: [{ legalBusinessName: `Zqxv ${f.string.alpha(12)} Plorth` }],
    addresses: [{ postalCode: '00000', city: f.string.alpha(10) }],
  }),
});
