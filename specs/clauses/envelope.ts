/**
 * Clauses of the envelope checks: an operation answers at its documented path, echoes trackingId and auditId, omitting
 * responseIdentityFormatNames gives the DEFAULT view, a failure says what went wrong; person: customerId and
 * includeEnrichData.
 * Source: organization-identity-api.md, What the service does, Endpoints, Errors; person-provider-identity-api.md,
 * Resources (Envelope, Person request content options).
 */
import { type Answer, accepted, said } from '../common/answer.js';
import { clause } from '../common/clause.js';

/** Statuses that say the path itself is wrong (no such resource, method or operation there). */
const PATH_STATUSES = new Set([404, 405, 501]);

export const PATH_NOT_ANSWERED = clause(
  'PATH-NOT-ANSWERED',
  'an operation answered at its documented path with a "no such path" status (404, 405 or 501) and no success',
  ['envelope.paths'],
);
/** PATH-NOT-ANSWERED: the reply to `op` at its documented path, when it says the path is not there. */
export function pathNotAnswered(op: string, a: Answer): string[] {
  return PATH_STATUSES.has(a.status ?? 0) && a.success !== true ? [`${op} at its documented path: ${said(a)}`] : [];
}

export const ECHO_DIFFERS = clause('ECHO-DIFFERS', "a reply whose trackingId or auditId is not the request's", [
  'envelope.echo',
]);
/** ECHO-DIFFERS: the envelope members that do not give back what the request sent. */
export function echoDiffers(
  sent: { trackingId: string; auditId: string },
  body: Record<string, unknown> | undefined,
): string[] {
  return (['trackingId', 'auditId'] as const)
    .filter((m) => body?.[m] !== sent[m])
    .map((m) => `${m} ${JSON.stringify(body?.[m])}, the request sent ${JSON.stringify(sent[m])}`);
}

export const VIEW_DEFAULT_DIFFERS = clause(
  'VIEW-DEFAULT-DIFFERS',
  'a reply to a request without responseIdentityFormatNames whose link ID or identity differs from the reply to ' +
    'the same request naming ["DEFAULT"] (the order of array elements aside)',
  ['envelope.viewsDefault'],
);
/** VIEW-DEFAULT-DIFFERS: what differs between the reply without views and the one with ["DEFAULT"]. */
export function viewDefaultDiffers(
  omitted: { linkId?: unknown; identity?: unknown },
  named: { linkId?: unknown; identity?: unknown },
): string[] {
  const out: string[] = [];
  if ((omitted.linkId ?? null) !== (named.linkId ?? null))
    out.push(
      `linkId ${JSON.stringify(omitted.linkId)} without views, ${JSON.stringify(named.linkId)} with ["DEFAULT"]`,
    );
  if (canonical(omitted.identity) !== canonical(named.identity))
    out.push(
      `identity ${clip(canonical(omitted.identity))} without views, ${clip(canonical(named.identity))} with ` +
        `["DEFAULT"]`,
    );
  return out;
}

export const FAILURE_WITHOUT_REASON = clause(
  'FAILURE-WITHOUT-REASON',
  'a failure reply (success=false) whose message and errors are both empty',
  ['envelope.errCarried'],
);
/** FAILURE-WITHOUT-REASON: a failure's envelope that names no reason. */
export function failureWithoutReason(body: Record<string, unknown> | undefined): string[] {
  if (body?.success !== false) return [];
  const reasons = [body.message, ...(Array.isArray(body.errors) ? body.errors : [])].filter(
    (x) => typeof x === 'string' && x.trim(),
  );
  return reasons.length
    ? []
    : [`success=false with message ${JSON.stringify(body.message)} and errors ${JSON.stringify(body.errors)}`];
}

export const CUSTOMERID_REFUSED = clause(
  'CUSTOMERID-REFUSED',
  "a request whose envelope carries the deployment's customerId refused, or answered without the identity it asks for",
  ['PERSON-ENV-CUSTOMERID'],
);
/** CUSTOMERID-REFUSED: the reply to a nativeIdQuery of a posted record sent with customerId. */
export function customerIdRefused(a: Answer, linkId: unknown, expected: string): string[] {
  if (!accepted(a)) return [`nativeIdQuery with customerId: ${said(a)}`];
  return linkId === expected
    ? []
    : [`nativeIdQuery with customerId answered link ID ${JSON.stringify(linkId)}, not ${expected}`];
}

export const ENRICH_DEFAULT_DIFFERS = clause(
  'ENRICH-DEFAULT-DIFFERS',
  'a reply to a request without includeEnrichData whose identity or enrichedDetails differ from the reply with ' +
    'includeEnrichData=false (the order of array elements aside)',
  ['PERSON-ENRICH-DEFAULT'],
);
/** ENRICH-DEFAULT-DIFFERS: members that differ between the reply without the option and the one with false. */
export function enrichDefaultDiffers(
  omitted: Record<string, unknown> | null | undefined,
  off: Record<string, unknown> | null | undefined,
): string[] {
  return (['identity', 'enrichedDetails'] as const)
    .filter((m) => canonical(omitted?.[m]) !== canonical(off?.[m]))
    .map((m) => `${m} without the option ${clip(canonical(omitted?.[m]))}, with false ${clip(canonical(off?.[m]))}`);
}

export const ENRICH_TRUE_REFUSED = clause(
  'ENRICH-TRUE-REFUSED',
  'a request with includeEnrichData=true refused, or answered without the identity it asks for',
  ['PERSON-ENRICH-DEFAULT'],
);
/** ENRICH-TRUE-REFUSED: the reply to a nativeIdQuery of a posted record with includeEnrichData=true. */
export function enrichTrueRefused(a: Answer, linkId: unknown, expected: string): string[] {
  if (!accepted(a)) return [`nativeIdQuery with includeEnrichData=true: ${said(a)}`];
  return linkId === expected
    ? []
    : [`nativeIdQuery with includeEnrichData=true answered link ID ${JSON.stringify(linkId)}, not ${expected}`];
}

export const ENRICH_NOT_ASKED = clause(
  'ENRICH-NOT-ASKED',
  'a reply to a request without includeEnrichData, or with false, whose enrichedDetails holds a value (a leaf that ' +
    'is not null, an empty string, an empty array or an empty object)',
  ['PERSON-ENRICH-DEFAULT'],
);
/**
 * ENRICH-NOT-ASKED: the enrichment a reply carries although its request did not ask for it. The structure of
 * enrichedDetails is not shown, so only content is judged: an absent, null or empty member is no enrichment data. The
 * finding names where values stand, never the values: the identity enriched may hold other sources' records.
 * Source: person-provider-identity-api.md, Resources, Person request content options ("include enrichment data in the
 * reply; default false").
 */
export function enrichNotAsked(op: string, content: Record<string, unknown> | null | undefined): string[] {
  const at = valuePaths(content?.enrichedDetails, 'enrichedDetails');
  return at.length ? [`${op} not asking for enrichment answered values at ${clip(at.join(', '))}`] : [];
}

/** Paths of the leaves of `x` that hold a value (not null, an empty string, an empty array or an empty object). */
const valuePaths = (x: unknown, path: string): string[] => {
  if (x === undefined || x === null || x === '') return [];
  if (Array.isArray(x)) return x.flatMap((e, i) => valuePaths(e, `${path}[${i}]`));
  if (typeof x === 'object') return Object.entries(x as object).flatMap(([k, v]) => valuePaths(v, `${path}.${k}`));
  return [path];
};

/**
 * A value as JSON with every array's elements in one order and absent, undefined and null alike: equal views compare
 * equal.
 */
export function canonical(v: unknown): string {
  const norm = (x: unknown): unknown => {
    if (x === undefined || x === null) return null;
    if (Array.isArray(x)) return x.map((e) => JSON.stringify(norm(e))).sort();
    if (typeof x === 'object')
      return Object.fromEntries(
        Object.keys(x as object)
          .sort()
          .filter((k) => (x as Record<string, unknown>)[k] !== undefined && (x as Record<string, unknown>)[k] !== null)
          .map((k) => [k, norm((x as Record<string, unknown>)[k])]),
      );
    return x;
  };
  return JSON.stringify(norm(v));
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}...` : s);

export const ENVELOPE_CLAUSES = [
  PATH_NOT_ANSWERED,
  ECHO_DIFFERS,
  VIEW_DEFAULT_DIFFERS,
  FAILURE_WITHOUT_REASON,
  CUSTOMERID_REFUSED,
  ENRICH_DEFAULT_DIFFERS,
  ENRICH_TRUE_REFUSED,
  ENRICH_NOT_ASKED,
];
