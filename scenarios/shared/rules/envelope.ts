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
import { type Shared, type SharedCheck, registerShared } from './types.js';

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

type EnvelopeSetup = Shared & EnvelopeOptions;
type EnvelopeCheck = SharedCheck<EnvelopeSetup>;

/** Per operation: a valid request gets a valid envelope at the documented path that echoes trackingId and auditId. */
const replyOf = (op: OperationSpec, options?: CheckOptions): EnvelopeCheck => ({
  id: `${op.name.toLowerCase()}-replies-with-a-valid-envelope-that-echoes-trackingid-and-auditid`,
  role: 'envelope.reply',
  title: `${op.name} replies with a valid envelope that echoes trackingId and auditId`,
  needs: { roles: ['envelope.echo', 'envelope.paths'] },
  also: [op.shapeRequirement],
  ...(options ? { options } : {}),
  body: async (t, { s: { kit, mayFindNothing = [] }, ids }) => {
    const paths = ids['envelope.paths']!;
    const echo = ids['envelope.echo']!;
    // scenarios/shared/requests.ts: the one table of valid requests, with the prior state each needs.
    const content = await exerciseRequest(kit, t, op.name, [op.shapeRequirement]);
    if (!content) t.skip(`${op.name}: the profile does not let the run send it (createDataSources is off)`);
    const auditId = `cf-audit-${t.faker.string.alphanumeric(12)}`;
    const trackingId = `cf-track-${t.faker.string.alphanumeric(12)}`;
    const reply = await t.call(op.name, content, { envelope: { auditId, trackingId } });
    if (mayFindNothing.includes(op.name) && reply.success === false)
      t.skip(
        `${op.name} found nothing (${describeReply(reply)}), which a conformant deployment may answer, ` +
          'so its path and reply shape cannot be judged',
      );
    // Statuses other than 200 are "not shown": the path is judged by whether the operation answers there (an envelope
    // that is not a "no such path" status); whether it accepts the request is the operation's rule.
    t.judge(PATH_NOT_ANSWERED, paths, pathNotAnswered(op.name, answerOf(reply)), reply);
    t.judge(REQUEST_REFUSED, op.shapeRequirement, requestRefused(op.name, answerOf(reply)), reply);
    t.judge(ECHO_DIFFERS, echo, echoDiffers({ trackingId, auditId }, reply.body), reply);
  },
});

const VIEWS_DEFAULT: EnvelopeCheck = {
  id: 'omitting-responseidentityformatnames-gives-the-default-view',
  role: 'envelope.viewsDefault',
  title: 'omitting responseIdentityFormatNames gives the DEFAULT view',
  body: async (t, { s: { kit }, id }) => {
    const a = await kit.postNew(t, [id]);
    const [implicit, explicit] = await Promise.all([kit.lookup(t, a.source), kit.lookup(t, a.source, ['DEFAULT'])]);
    t.judge(VIEW_DEFAULT_DIFFERS, id, viewDefaultDiffers(implicit.content ?? {}, explicit.content ?? {}), implicit);
  },
};

const ERR_CARRIED: EnvelopeCheck = {
  id: 'a-failure-is-carried-in-the-envelope-with-success-false-and-a-reason',
  role: 'envelope.errCarried',
  title: 'a failure is carried in the envelope with success=false and a reason',
  needs: { cites: ['envelope.echo', 'envelope.reply'] },
  body: async (t, { s: { kit }, id, ids }) => {
    const echo = ids['envelope.echo'];
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
        'the deployment accepted maxSearchResults=0 (the maxSearchResults rule reports it), ' +
          'so no failure envelope to inspect',
      );
    // t.call judged the envelope (success a boolean, so false here); what is left is its reason.
    t.judge(FAILURE_WITHOUT_REASON, id, failureWithoutReason(reply.body), reply);
    if (echo) t.judge(ECHO_DIFFERS, echo, echoDiffers({ trackingId, auditId }, reply.body), reply);
  },
};

/** The envelope checks: one per operation, then the DEFAULT view and the failure envelope. */
export const envelopeChecks = (s: EnvelopeSetup) =>
  registerShared(s, [...s.operations.map((op) => replyOf(op, s.optionsFor?.(op))), VIEWS_DEFAULT, ERR_CARRIED]);
