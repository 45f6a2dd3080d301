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
import type { Check } from '../../harness/check.js';
import { envelopeChecks } from '../shared/rules/envelope.js';
import { sharedRead } from '../shared/shared-script.js';
import { area, org } from './org.js';

const { check } = area('envelope');
envelopeChecks({
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

const TYPES = ['TEXT', 'NUMBER', 'DATE', 'TIME', 'BOOLEAN'] as const;
/** One identity, posted and looked up once per run, whose reply every wire-form check reads (scenarios/shared/shared-script.ts). */
const returnedIdentity = (t: Check) =>
  sharedRead(
    t,
    'a returned identity',
    TYPES.map((x) => TYPE_REQUIREMENT[x]),
    async (r) => org.lookup(r, (await org.postNew(r, r.verifies)).source, r.profile.responseViews),
  );

for (const type of TYPES) {
  const req = TYPE_REQUIREMENT[type];
  check(`${type} values of a returned identity have the ${type} wire form`, [req], async (t) => {
    const reply = await returnedIdentity(t);
    const identity = reply.content?.identity;
    const values = LEAVES.filter((l) => l.type === type).flatMap((l) =>
      valuesAt(identity, l.path, '/content/identity'),
    );
    if (!values.length) t.skip(`the returned identity holds no ${type} value to check`);
    t.judge(
      WIRE_FORM,
      req,
      wrongWireForm(values, (v) => wireTypeSchema[type].safeParse(v).success, `in the ${type} wire form`),
      reply,
    );
  });
}
