/**
 * Generated bad input for the organization service: structurally invalid request content per
 * operation (from the operations table's request schemas) is rejected, never a 5xx, and changes
 * none of the run's records. Source: organization-identity-api.md, Resources ("Field data
 * types"), Endpoints rule 1, Errors.
 */
import { organizationIdentity } from '../../generators/organization.js';
import type { BadInputConfig } from '../shared/bad-input-sites.js';
import { badInputRequirementIds, runBadInputs } from '../shared/bad-input.js';
import { area } from './org.js';

const { check } = area('generated-bad-input');
const config: BadInputConfig = {
  service: 'organization',
  generate: (t, source) => organizationIdentity(t.faker, source),
};
const title = 'generated invalid requests are rejected, never a server error, and change nothing';
check(title, badInputRequirementIds(config), (t) =>
  runBadInputs(t, config, { file: 'scenarios/organization/generated-bad-input.test.ts', title }),
);
