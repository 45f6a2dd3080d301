/**
 * Envelope promises shared by every service: per operation, a valid request gets a JSON reply
 * envelope at the documented path that echoes trackingId and auditId, with content of the
 * documented shape; and a failure is carried in the envelope (success=false plus a reason).
 * Source: organization-identity-api.md, Resources (envelopes), Endpoints, Errors;
 * person-provider-identity-api.md, Resources (Envelope), Endpoints, Errors.
 */
import { expect } from 'vitest';
import type { OperationSpec } from '../../../specs/common/model.js';
import { describeReply } from '../../../harness/check.js';
import type { CheckOptions } from '../../../harness/register.js';
import { exerciseRequest } from '../requests.js';
import { type Shared, idsFor, titled } from './types.js';

/** Statuses that say the path itself is wrong (no such resource, method or operation there). */
const PATH_STATUSES = new Set([404, 405, 501]);

export const ENVELOPE_ROLES = ['reply', 'echo', 'paths', 'errCarried', 'viewsDefault'] as const;
export type EnvelopeRole = (typeof ENVELOPE_ROLES)[number];

export interface EnvelopeOptions {
  operations: OperationSpec[];
  /** Check options per operation (e.g. createsDataSources for person createDataSource). */
  optionsFor?: (op: OperationSpec) => CheckOptions;
  /**
   * Lookups a valid request of which may find nothing on a conformant deployment (person
   * householdQuery: how households form is not shown): an enveloped rejection of them says nothing
   * about the path or the reply shape, so the check skips.
   */
  mayFindNothing?: readonly string[];
}

export function envelopeChecks({
  check,
  verifies,
  kit,
  label,
  operations,
  optionsFor,
  mayFindNothing = [],
}: Shared & EnvelopeOptions): void {
  const ids = idsFor(check, 'envelope', ENVELOPE_ROLES, verifies);
  const T = (s: string) => titled(s, label);
  const { reply: replyId, echo, paths } = ids;
  if (replyId && echo && paths) {
    for (const op of operations) {
      check(
        T(`${op.name} replies with a valid envelope that echoes trackingId and auditId`),
        [replyId, echo, paths, op.shapeRequirement],
        async (t) => {
          // scenarios/shared/requests.ts: the one table of valid requests, with the prior state each needs.
          const content = await exerciseRequest(kit, t, op.name, [op.shapeRequirement]);
          if (!content) t.skip(`${op.name}: the profile does not let the run send it (createDataSources is off)`);
          const auditId = `cf-audit-${t.faker.string.alphanumeric(12)}`;
          const trackingId = `cf-track-${t.faker.string.alphanumeric(12)}`;
          const reply = await t.call(op.name, content, { envelope: { auditId, trackingId } });
          if (mayFindNothing.includes(op.name) && reply.success === false)
            t.skip(
              `${op.name} found nothing (${describeReply(reply)}), which a conformant deployment may answer, so its path and reply shape cannot be judged`,
            );
          // Statuses other than 200 are "not shown": the path is judged by whether the operation answers there
          // (an envelope that is not a "no such path" status); whether it accepts the request is the operation's rule.
          await t.rule(paths, () =>
            expect(
              PATH_STATUSES.has(reply.status ?? 0) && reply.success !== true,
              `${op.name} answers at its documented path (${describeReply(reply)})`,
            ).toBe(false),
          );
          await t.rule(op.shapeRequirement, () =>
            expect(reply.success, `${op.name} accepts a valid request: ${describeReply(reply)}`).toBe(true),
          );
          await t.rule(echo, () => {
            expect(reply.body?.trackingId, 'trackingId echoed').toBe(trackingId);
            expect(reply.body?.auditId, 'auditId echoed').toBe(auditId);
          });
        },
        optionsFor?.(op),
      );
    }
  }

  if (ids.viewsDefault) {
    const id = ids.viewsDefault;
    check(T('omitting responseIdentityFormatNames gives the DEFAULT view'), [id], async (t) => {
      const a = await kit.postNew(t, [id]);
      const [implicit, explicit] = await Promise.all([kit.lookup(t, a.source), kit.lookup(t, a.source, ['DEFAULT'])]);
      await t.rule(id, () => {
        expect(implicit.content?.linkId).toBe(explicit.content?.linkId);
        expect(implicit.content?.identity ?? null).toEqual(explicit.content?.identity ?? null);
      });
    });
  }

  if (ids.errCarried) {
    const id = ids.errCarried;
    const cites = [id, ...(echo ? [echo] : []), ...(replyId ? [replyId] : [])];
    check(T('a failure is carried in the envelope with success=false and a reason'), cites, async (t) => {
      // maxSearchResults 0 must be rejected (Limits), so it is a failure every deployment produces.
      const trackingId = `cf-track-${t.faker.string.alphanumeric(12)}`;
      const auditId = `cf-audit-${t.faker.string.alphanumeric(12)}`;
      // t.call: the failure reply must be a valid envelope too (ENV-REPLY).
      const reply = await t.call(
        'demographicsSearch',
        { identity: kit.make(t).identity, maxSearchResults: 0 },
        { envelope: { trackingId, auditId }, sentInvalid: true },
      );
      if (reply.success === true)
        t.skip('the deployment accepted maxSearchResults=0 (the maxSearchResults rule reports it), so no failure envelope to inspect');
      await t.rule(id, () => {
        expect(reply.body, `the failure reply is a JSON envelope (${describeReply(reply)})`).toBeTypeOf('object');
        expect(reply.body!.success, 'success is false on a failure').toBe(false);
        const reasons = [reply.body!.message, ...(Array.isArray(reply.body!.errors) ? reply.body!.errors : [])].filter(
          (x) => typeof x === 'string' && x.trim(),
        );
        expect(reasons.length, 'message or errors says what went wrong').toBeGreaterThan(0);
      });
      if (echo)
        await t.rule(echo, () => {
          expect(reply.body?.trackingId, 'trackingId echoed on a failure too').toBe(trackingId);
          expect(reply.body?.auditId, 'auditId echoed on a failure too').toBe(auditId);
        });
    });
  }
}
