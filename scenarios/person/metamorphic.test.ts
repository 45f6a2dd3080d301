/**
 * Metamorphic checks on person matching (no knowledge of scores or threshold): threshold
 * monotonicity, maxSearchResults prefix, self-match, determinism, one threshold for all decisions,
 * demographicsQuery = top demographicsSearch result.
 * Source: person-provider-identity-api.md, Resources ("Person request content options"),
 * Endpoints (/v2/demographicsSearch, /v2/demographicsQuery), "What the service does".
 */
import { personIdentity } from '../../generators/person.js';
import { metamorphicChecks } from '../shared/rules/metamorphic-checks.js';
import { area } from './person.js';

metamorphicChecks(area('metamorphic').check, (t, source) => personIdentity(t.faker, source));
