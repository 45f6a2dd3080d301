/**
 * Envelope promises, per operation: the reply is a JSON response envelope at the documented
 * path, echoes trackingId and auditId, and its content has the documented shape. Also the
 * failure envelope, the DEFAULT view, and the wire data types of a returned identity.
 * Source: organization-identity-api.md, Resources (envelopes, field data types), Endpoints, Errors.
 */
import { WIRE_FORM } from '../../specs/clauses/contract.js';
import { wrongWireForm } from '../../specs/clauses/types.js';
import { leafTypes, valuesAt, wireTypeSchema } from '../../specs/common/leaf-types.js';
import { OrganizationIdentity } from '../../specs/organization/identity.js';
import { organizationOperations } from '../../specs/organization/operations.js';
import { envelopeChecks } from '../shared/rules/envelope.js';
import { area, org } from './org.js';

const { check } = area('envelope');
envelopeChecks({
  verifies: ['ORG-ENDPOINT-PATHS', 'ORG-ENV-ECHO', 'ORG-ENV-REPLY', 'ORG-ERR-CARRIED', 'ORG-VIEWS-DEFAULT'],
  check,
  kit: org,
  operations: organizationOperations,
});

const LEAVES = leafTypes(OrganizationIdentity);
const TYPE_REQUIREMENT = {
  TEXT: 'ORG-TYPE-TEXT',
  NUMBER: 'ORG-TYPE-NUMBER',
  DATE: 'ORG-TYPE-DATE',
  TIME: 'ORG-TYPE-TIME',
  BOOLEAN: 'ORG-TYPE-BOOLEAN',
  'DATE-TIME': 'ORG-TYPE-DATETIME',
} as const;

for (const type of ['TEXT', 'NUMBER', 'DATE', 'TIME', 'BOOLEAN'] as const) {
  const req = TYPE_REQUIREMENT[type];
  check(`${type} values of a returned identity have the ${type} wire form`, [req], async (t) => {
    const a = await org.postNew(t, [req]);
    const reply = await org.lookup(t, a.source, t.profile.responseViews);
    const identity = reply.content?.identity;
    const values = LEAVES.filter((l) => l.type === type).flatMap((l) => valuesAt(identity, l.path, '/content/identity'));
    if (!values.length) t.skip(`the returned identity holds no ${type} value to check`);
    t.judge(
      WIRE_FORM,
      req,
      wrongWireForm(values, (v) => wireTypeSchema[type].safeParse(v).success, `in the ${type} wire form`),
      reply,
    );
  });
}
