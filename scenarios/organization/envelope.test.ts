/**
 * Envelope promises, per operation: the reply is a JSON response envelope at the documented
 * path, echoes trackingId and auditId, and its content has the documented shape. Also the
 * failure envelope, the DEFAULT view, and the wire data types of a returned identity.
 * Source: organization-identity-api.md, Resources (envelopes, field data types), Endpoints, Errors.
 */
import { expect } from 'vitest';
import { leafTypes, valuesAt, wireTypeSchema } from '../../specs/common/leaf-types.js';
import { OrganizationIdentity } from '../../specs/organization/identity.js';
import { organizationOperations } from '../../specs/organization/operations.js';
import { describeReply } from '../../harness/check.js';
import { sharedExercises } from '../shared/exercise.js';
import { area, org } from './org.js';

const { check } = area('envelope');
const exercises = sharedExercises(org);

for (const op of organizationOperations) {
  check(`${op.name} replies with a valid envelope that echoes trackingId and auditId`, ['ORG-ENV-REPLY', 'ORG-ENV-ECHO', 'ORG-ENDPOINT-PATHS', op.shapeRequirement], async (t) => {
    const content = await exercises[op.name]!(t, [op.shapeRequirement]);
    const auditId = `cf-audit-${t.faker.string.alphanumeric(12)}`;
    const trackingId = `cf-track-${t.faker.string.alphanumeric(12)}`;
    const reply = await t.call(op.name, content, { envelope: { auditId, trackingId } });
    await t.rule('ORG-ENDPOINT-PATHS', () => expect(reply.status, `${op.name} answers at its documented path`).toBeLessThan(300));
    await t.rule(op.shapeRequirement, () => expect(reply.success, `${op.name} accepts a valid request: ${describeReply(reply)}`).toBe(true));
    await t.rule('ORG-ENV-ECHO', () => {
      expect(reply.body?.trackingId, 'trackingId echoed').toBe(trackingId);
      expect(reply.body?.auditId, 'auditId echoed').toBe(auditId);
    });
  });
}

check('a failure is carried in the envelope with success=false and a reason', ['ORG-ERR-CARRIED', 'ORG-ENV-ECHO'], async (t) => {
  // maxSearchResults 0 must be rejected (rule 1), so it is a failure every deployment produces.
  const trackingId = `cf-track-${t.faker.string.alphanumeric(12)}`;
  const reply = await t.raw('demographicsSearch', { identity: org.make(t).identity, maxSearchResults: 0 }, { envelope: { trackingId } });
  if (reply.success === true) t.skip('the deployment accepted maxSearchResults=0 (ORG-SEARCH-MAX-POSITIVE reports it), so no failure envelope to inspect');
  await t.rule('ORG-ERR-CARRIED', () => {
    expect(reply.body, `the failure reply is a JSON envelope (${describeReply(reply)})`).toBeTypeOf('object');
    expect(reply.body!.success, 'success is false on a failure').toBe(false);
    const reasons = [reply.body!.message, ...(Array.isArray(reply.body!.errors) ? reply.body!.errors : [])].filter((x) => typeof x === 'string' && x.trim());
    expect(reasons.length, 'message or errors says what went wrong').toBeGreaterThan(0);
  });
  await t.rule('ORG-ENV-ECHO', () => expect(reply.body?.trackingId, 'trackingId echoed on a failure too').toBe(trackingId));
});

check('omitting responseIdentityFormatNames gives the DEFAULT view', ['ORG-VIEWS-DEFAULT'], async (t) => {
  const a = await org.postNew(t, ['ORG-VIEWS-DEFAULT']);
  const [implicit, explicit] = await Promise.all([org.lookup(t, a.source), org.lookup(t, a.source, ['DEFAULT'])]);
  await t.rule('ORG-VIEWS-DEFAULT', () => {
    expect(implicit.content?.linkId).toBe(explicit.content?.linkId);
    expect(implicit.content?.identity ?? null).toEqual(explicit.content?.identity ?? null);
  });
});

const LEAVES = leafTypes(OrganizationIdentity);
const TYPE_REQUIREMENT = { TEXT: 'ORG-TYPE-TEXT', NUMBER: 'ORG-TYPE-NUMBER', DATE: 'ORG-TYPE-DATE', TIME: 'ORG-TYPE-TIME', BOOLEAN: 'ORG-TYPE-BOOLEAN', 'DATE-TIME': 'ORG-TYPE-DATETIME' } as const;

for (const type of ['TEXT', 'NUMBER', 'DATE', 'TIME', 'BOOLEAN'] as const) {
  const req = TYPE_REQUIREMENT[type];
  check(`${type} values of a returned identity have the ${type} wire form`, [req], async (t) => {
    const a = await org.postNew(t, [req]);
    const reply = await org.lookup(t, a.source, t.profile.responseViews);
    const identity = reply.content?.identity;
    const values = LEAVES.filter((l) => l.type === type).flatMap((l) => valuesAt(identity, l.path, '/content/identity'));
    if (!values.length) t.skip(`the returned identity holds no ${type} value to check`);
    const bad = values.filter((v) => v.value !== null && !wireTypeSchema[type].safeParse(v.value).success);
    await t.rule(req, () => expect(bad.map((b) => `${b.pointer}=${JSON.stringify(b.value)}`), `${type} values in the wire form`).toEqual([]));
  });
}
