/**
 * Authentication, shared: for each way of sending bad or no credentials, every operation of the service, mutating ones
 * included, must not be accepted, return no identity data it did not carry itself, and change nothing (the check's
 * records keep their identities and data, its relationship stays, the unposted source stays unstored). Services supply
 * the modes their scheme has (bearer: none, malformed, foreign JWT; basic: none, wrong password, malformed).
 * Source: organization-identity-api.md, Authentication ("every request carries ..."); person-provider-identity-api.md,
 * Authentication.
 */
import type { AuthMode, Check } from '../../../harness/check.js';
import { answerOf, isAbsent } from '../../../harness/reply.js';
import {
  UNAUTHENTICATED_ACCEPTED,
  UNAUTHENTICATED_CHANGES,
  UNAUTHENTICATED_LEAKS,
  unauthenticatedAccepted,
  unauthenticatedChanges,
  unauthenticatedLeaks,
} from '../../../specs/clauses/auth.js';
import { SERVICES } from '../../../specs/services.js';
import { postedContext, relationshipContent, validRequests } from '../requests.js';
import { sharedScript } from '../shared-script.js';
import { type Kit, type Shared, type SharedCheck, registerShared } from './types.js';

export interface AuthRejectionMode {
  /** The ID of its check (stable when the name is reworded). */
  id: string;
  /** Completes "... is rejected", e.g. "without an Authorization header". */
  name: string;
  auth: (t: Check) => AuthMode | Promise<AuthMode>;
}

type AuthSetup = Shared & { modes: AuthRejectionMode[] };

/** Per mode of credentials: every operation sent with them is rejected and changes nothing. */
const rejectedWith = (mode: AuthRejectionMode): SharedCheck<AuthSetup> => ({
  id: mode.id,
  role: 'auth.rejected',
  title: `every operation ${mode.name} is rejected and changes nothing`,
  // The service's modes share one set-up, sent one mode after another, each judged against the state the one before it
  // left; when that run does not pass, each mode runs alone on its own records (scenarios/shared/shared-script.ts), so
  // a failure is reported by its own mode only.
  body: (t, { s: { kit, modes, label }, id }) =>
    sharedScript(t, `auth${label ? `/${label}` : ''}`, [id], (c) =>
      rejectedAndUnchanged(kit, c, id, c === t ? [mode] : modes),
    ),
});

/** The authentication checks: one per mode of credentials the service's scenario file gives. */
export const authRejectionChecks = (s: AuthSetup) => registerShared(s, s.modes.map(rejectedWith));

/**
 * Posts the records, the relationship and the unposted source the requests name, then for each mode in turn sends every
 * operation with its credentials and judges that none was served, none returned identity data it did not carry, and
 * nothing changed since the mode before.
 * @throws ConformanceFailure citing `id` at the first mode that breaks one of them
 */
async function rejectedAndUnchanged(kit: Kit, t: Check, id: string, modes: AuthRejectionMode[]): Promise<void> {
  const ctx = await postedContext(kit, t, [id]);
  const { a, b, fresh } = ctx;
  const added = await t.ok('addRelationshipService', relationshipContent(t, ctx.linkA, ctx.linkB), { cites: [id] });
  const relationshipId =
    typeof added.content?.relationship?.id === 'string' ? (added.content.relationship.id as string) : undefined;
  const requests = validRequests({ ...ctx, relationshipId });
  const state = async () => {
    const [ra, rb, rel, unposted] = await Promise.all([
      kit.lookup(t, a),
      kit.lookup(t, b),
      t.ok('searchRelationshipsService', requests.searchRelationshipsService!, { cites: [id] }),
      kit.lookup(t, fresh),
    ]);
    const relationships = JSON.stringify(rel.content ?? {});
    return {
      a: `${ra.content?.linkId} ${JSON.stringify(ra.content?.identity ?? null)}`,
      b: `${rb.content?.linkId} ${JSON.stringify(rb.content?.identity ?? null)}`,
      relationship: relationshipId ? relationships.includes(relationshipId) : true,
      unposted: isAbsent(unposted),
    };
  };
  let before = await state();
  for (const mode of modes) {
    const auth = await mode.auth(t);
    const ops = SERVICES[t.service].operations.filter(
      (op) => requests[op.name] && t.guardAllows(op.name, requests[op.name]!),
    );
    const replies = await Promise.all(
      ops.map(async (op) => ({ op: op.name, reply: await t.raw(op.name, requests[op.name]!, { auth }) })),
    );
    const after = await state();
    // How a rejection looks is not shown (a 401, an enveloped failure, a redirect to a login page): what the seed
    // forbids is serving the request.
    t.judge(
      UNAUTHENTICATED_ACCEPTED,
      id,
      unauthenticatedAccepted(replies.map((x) => ({ op: x.op, answer: answerOf(x.reply) }))),
    );
    t.judge(
      UNAUTHENTICATED_LEAKS,
      id,
      unauthenticatedLeaks(
        replies.map((x) => ({ op: x.op, sent: requests[x.op]!, content: x.reply.content as Record<string, unknown> })),
      ),
    );
    t.judge(UNAUTHENTICATED_CHANGES, id, unauthenticatedChanges(before, after));
    before = after;
  }
}
