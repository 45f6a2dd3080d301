/**
 * Metamorphic checks on organization matching (no knowledge of scores or threshold).
 * Source: organization-identity-api.md, Endpoints rule 1, "What the service does".
 */
import { organizationIdentity } from '../../generators/organization.js';
import { metamorphicChecks } from '../shared/rules/metamorphic-checks.js';
import { area } from './org.js';

metamorphicChecks(area('metamorphic').check, (t, source) => organizationIdentity(t.faker, source));
