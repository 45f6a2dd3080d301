/**
 * Generated bad input for the provider service (both provider types): structurally invalid
 * request content per operation is rejected, never a 5xx, and changes none of the run's records.
 * Source: person-provider-identity-api.md, Resources, Limits, Errors.
 */
import { providerIdentity } from '../../generators/provider.js';
import { runInfo } from '../../harness/targets.js';
import type { BadInputConfig } from '../shared/bad-input-sites.js';
import { badInputRequirementIds, runBadInputs } from '../shared/bad-input.js';
import { area } from './provider.js';

const { check } = area('generated-bad-input');
/** Practitioners and health facilities alternate, so both identity shapes are mutated across runs. */
let n = 0;
const config: BadInputConfig = {
  service: 'provider',
  generate: (t, source) =>
    providerIdentity(n++ % 2 ? 'healthFacility' : 'practitioner', t.faker, source, runInfo().profile.provider),
};
const title = 'generated invalid requests are rejected, never a server error, and change nothing';
check(title, badInputRequirementIds(config), (t) =>
  runBadInputs(t, config, { file: 'scenarios/provider/generated-bad-input.test.ts', title }),
);
