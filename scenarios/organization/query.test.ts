/**
 * demographicsQuery (best match), identityIdQuery (rule 3: requestedLinkId echoed), and the
 * required identity of postIdentity, demographicsSearch and demographicsQuery.
 * Source: organization-identity-api.md, What the service does; Endpoints (rule 3);
 * Resources ("The identity object is required"). The query rules come from the shared table.
 */
import { answerOf } from '../../harness/reply.js';
import { IDENTITY_MISSING_ACCEPTED, invalidAccepted } from '../../specs/clauses/bad-input.js';
import { queryChecks } from '../shared/rules/query.js';
import { area, org } from './org.js';
import { organizationWalks } from './walk-config.js';

const { check } = area('query');

queryChecks({
  check,
  kit: org,
  walks: organizationWalks,
});

for (const op of ['postIdentity', 'demographicsSearch', 'demographicsQuery'] as const) {
  check(`${op} without content.identity is rejected`, ['ORG-IDENTITY-REQUIRED'], async (t) => {
    const r = await t.invalid(op, { responseIdentityFormatNames: ['DEFAULT'] });
    t.judge(
      IDENTITY_MISSING_ACCEPTED,
      'ORG-IDENTITY-REQUIRED',
      invalidAccepted(`${op} without content.identity`, answerOf(r)),
      r,
    );
  });
}
