/**
 * Metamorphic checks on provider matching (no knowledge of scores or threshold), on
 * practitioners: threshold monotonicity, maxSearchResults prefix, self-match, determinism, one
 * threshold for all decisions, demographicsQuery = top demographicsSearch result.
 * Source: person-provider-identity-api.md, Endpoints ("Provider service": demographicsSearch,
 * demographicsQuery), Limits, "What the service does".
 */
import { providerIdentity } from '../../generators/provider.js';
import { runInfo } from '../../harness/targets.js';
import { metamorphicChecks } from '../shared/rules/metamorphic-checks.js';
import { area } from './provider.js';

metamorphicChecks(area('metamorphic').check, (t, source) =>
  providerIdentity('practitioner', t.faker, source, runInfo().profile.provider),
);
