/**
 * Request and reply envelopes, shared by all three services.
 *
 * Source: organization-identity-api.md, Resources, "Request envelope" / "Response envelope";
 * person-provider-identity-api.md, Resources, "Envelope" (adds `customerId` for person).
 */
import { z } from 'zod';
import { Text, obj, opt } from './wire.js';

/**
 * The request envelope members whose values the caller chooses ("auditId | string | audit
 * identifier for tracing", "auditLogMap | object | map of string keys to string values",
 * "trackingId | string | caller correlation identifier"); `content` is the operation's, and the
 * person service's customerId the deployment's.
 */
export const RequestEnvelopeChosen = obj({ auditId: Text, auditLogMap: z.record(z.string(), Text), trackingId: Text });

/**
 * Reply envelope. `success` is the one member every reply must carry (the seed's failure
 * signalling depends on it); all others may be absent or null. Unknown members are accepted.
 * `content` is checked separately, against the operation's reply content schema.
 */
export const ReplyEnvelope = obj({
  auditId: opt(z.string()),
  success: z.boolean(),
  unparsedJson: opt(z.string()),
  warnings: opt(z.array(z.string())),
  retryableError: opt(z.boolean()),
  message: opt(z.string()),
  content: opt(z.unknown()),
  errors: opt(z.array(z.string())),
  trackingId: opt(z.string()),
});
export type ReplyEnvelope = z.infer<typeof ReplyEnvelope>;
