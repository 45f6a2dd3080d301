/**
 * Generated bad input for the person service: structurally invalid request content per operation
 * is rejected, never a 5xx, and changes none of the run's records; createDataSource with more than
 * 10 names (all in the run's namespace) is rejected too, where the profile lets the run create
 * data sources. Source: person-provider-identity-api.md, Resources ("Person identity", "Person
 * request content options"), Limits, Errors.
 */
import fc from 'fast-check';
import { requirementFor } from '../../specs/services.js';
import { personIdentity } from '../../generators/person.js';
import type { BadInputConfig } from '../shared/bad-input-sites.js';
import { badInputRequirementIds, runBadInputs } from '../shared/bad-input.js';
import { area, dataSourceName } from './person.js';
import { OVER_LIMIT_ACCEPTED } from '../../specs/clauses/bad-input.js';

const { check } = area('generated-bad-input');
const config: BadInputConfig = {
  service: 'person',
  generate: (t, source) => personIdentity(t.faker, source),
  extraSites: ({ t }) =>
    t.profile.createDataSources
      ? [
          {
            op: 'createDataSource',
            path: ['sources'],
            kind: 'more than 10 data sources',
            values: fc.integer({ min: 11, max: 14 }),
            cites: [requirementFor('person', 'badInput.dataSourceLimit')!],
            clause: OVER_LIMIT_ACCEPTED,
            content: (n) => ({ sources: Array.from({ length: Number(n) }, (_, i) => dataSourceName(t, i)) }),
          },
        ]
      : [],
};
const title = 'generated invalid requests are rejected, never a server error, and change nothing';
check(title, badInputRequirementIds(config), (t) =>
  runBadInputs(t, config, { file: 'scenarios/person/generated-bad-input.test.ts', title }),
);
