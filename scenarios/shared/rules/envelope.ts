/**
 * Envelope promises shared by every service: per operation, a valid request gets a JSON reply envelope at the
 * documented path that echoes trackingId and auditId, with content of the documented shape; and a failure is carried in
 * the envelope (success=false) and says why (EXPECT).
 * Source: organization-identity-api.md, Resources (envelopes), Endpoints, Errors; person-provider-identity-api.md,
 * Resources (Envelope), Endpoints, Errors.
 */
import type { OperationSpec } from '../../../specs/common/model.js';
import { REQUEST_REFUSED, requestRefused } from '../../../specs/clauses/contract.js';
import {
  ECHO_DIFFERS,
  FAILURE_WITHOUT_REASON,
  PATH_NOT_ANSWERED,
  VIEW_DEFAULT_DIFFERS,
  echoDiffers,
  failureWithoutReason,
  pathNotAnswered,
  viewDefaultDiffers,
} from '../../../specs/clauses/envelope.js';
import { describeReply } from '../../../harness/check.js';
import { answerOf } from '../../../harness/reply.js';
import type { CheckOptions } from '../../../harness/register.js';
import { exerciseRequest } from '../requests.js';
import { type Shared, idsFor, titled } from './types.js';

export const ENVELOPE_ROLES = ['reply', 'echo', 'paths', 'errCarried', 'viewsDefault'] as const;
export type EnvelopeRole = (typeof ENVELOPE_ROLES)[number];

export interface EnvelopeOptions {
  operations: OperationSpec[];
  /** Check options per operation (e.g. createsDataSources for person createDataSource). */
  optionsFor?: (op: OperationSpec) => CheckOptions;
  /**
   * Lookups a valid request of which may find nothing on a conformant deployment (person householdQuery: how households
   * form is not shown): an enveloped rejection of them says nothing about the path or the reply shape, so the check
   * skips.
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
              `${op.name} found nothing (${describeReply(reply)}), which a conformant deployment may answer, so ` +
                `its path and reply shape cannot be judged`,
            );
          // Statuses other than 200 are "not shown": the path is judged by whether the operation answers there (an
          // envelope that is not a "no such path" status); whether it accepts the request is the operation's rule.
          t.judge(PATH_NOT_ANSWERED, paths, pathNotAnswered(op.name, answerOf(reply)), reply);
          t.judge(REQUEST_REFUSED, op.shapeRequirement, requestRefused(op.name, answerOf(reply)), reply);
          t.judge(ECHO_DIFFERS, echo, echoDiffers({ trackingId, auditId }, reply.body), reply);
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
      t.judge(VIEW_DEFAULT_DIFFERS, id, viewDefaultDiffers(implicit.content ?? {}, explicit.content ?? {}), implicit);
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
        t.skip(
          'the deployment accepted maxSearchResults=0 (the maxSearchResults rule reports it), so no failure ' +
            'envelope to inspect',
        );
      // t.call judged the envelope (success a boolean, so false here); what is left is its reason.
      t.judge(FAILURE_WITHOUT_REASON, id, failureWithoutReason(reply.body), reply);
      if (echo) t.judge(ECHO_DIFFERS, echo, echoDiffers({ trackingId, auditId }, reply.body), reply);
    });
  }
}
