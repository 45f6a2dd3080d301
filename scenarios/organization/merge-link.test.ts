/**
 * Merge, unmerge, link and unlink rows of the state table: the reply members the seed names,
 * and the identities observed afterwards through nativeIdQuery and identityIdQuery (shared table).
 * Source: organization-identity-api.md, States and transitions.
 */
import { mergeLinkChecks } from '../shared/rules/merge-link.js';
import { area, org } from './org.js';
import { organizationWalks } from './walk-config.js';

mergeLinkChecks({
  check: area('merge-link').check,
  kit: org,
  walks: organizationWalks,
});
