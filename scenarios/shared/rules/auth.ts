/**
 * Authentication, shared: for each way of sending bad or no credentials, every operation of the
 * service, mutating ones included, must be rejected, return no identity data, and change
 * nothing (the check's records keep their identities and data, its relationship stays, the
 * unposted source stays unstored). Services supply the modes their scheme has (bearer: none,
 * malformed, foreign JWT; basic: none, wrong password, malformed).
 * Source: organization-identity-api.md, Authentication ("every request carries ...");
 * person-provider-identity-api.md, Authentication.
 */
import { expect } from 'vitest';
import type { AuthMode, Check } from '../../../harness/check.js';
import { describeReply } from '../../../harness/check.js';
import { type Reply, isAbsent, isAuthFailure, isRejection } from '../../../harness/reply.js';
import { SERVICES, requirementFor } from '../../../specs/services.js';
import { postedContext, relationshipContent, validRequests } from '../requests.js';
import { type CheckFn, declared, type Kit, titled } from './types.js';

export interface AuthRejectionMode {
  /** Completes "... is rejected", e.g. "without an Authorization header". */
  name: string;
  auth: (t: Check) => AuthMode | Promise<AuthMode>;
}

/** Identity data a reply should not carry when it is rejected. */
const leaked = (r: Reply) => {
  const c = r.content ?? {};
  return ['linkId', 'identity', 'identityGroupedBySource', 'linkIdentity']
    .filter((k) => c[k] !== undefined && c[k] !== null)
    .concat(Array.isArray(c.searchResults) && c.searchResults.length ? ['searchResults'] : []);
};

export function authRejectionChecks({
  check,
  verifies,
  kit,
  modes,
  label,
}: {
  check: CheckFn;
  /** The requirement these checks verify in the calling service (see Shared.verifies). */
  verifies: readonly string[];
  kit: Kit;
  modes: AuthRejectionMode[];
  label?: string;
}): void {
  const id = requirementFor(check.service, 'auth.rejected');
  declared(check.service, 'auth', verifies, id ? [id] : []);
  if (!id) return;
  for (const mode of modes) {
    check(titled(`every operation ${mode.name} is rejected and changes nothing`, label), [id], async (t) => {
      const ctx = await postedContext(kit, t, [id]);
      const { a, b, fresh } = ctx;
      const added = await t.ok('addRelationshipService', relationshipContent(t, ctx.linkA, ctx.linkB), { cites: [id] });
      const relationshipId = typeof added.content?.relationship?.id === 'string' ? (added.content.relationship.id as string) : undefined;
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
      const before = await state();
      const auth = await mode.auth(t);
      const ops = SERVICES[t.service].operations.filter((op) => requests[op.name] && t.guardAllows(op.name, requests[op.name]!));
      const replies = await Promise.all(
        ops.map(async (op) => ({ op: op.name, reply: await t.raw(op.name, requests[op.name]!, { auth }) })),
      );
      const after = await state();
      await t.rule(id, () => {
        const accepted = replies
          .filter((x) => !(isRejection(x.reply) || isAuthFailure(x.reply)))
          .map((x) => `${x.op}: ${describeReply(x.reply)}`);
        expect(accepted, `operations answered ${mode.name} instead of rejected`).toEqual([]);
        const leaks = replies
          .map((x) => ({ op: x.op, members: leaked(x.reply) }))
          .filter((x) => x.members.length)
          .map((x) => `${x.op}: ${x.members.join(', ')}`);
        expect(leaks, 'identity data in a rejected reply').toEqual([]);
        expect(after, `the check's records, relationship and unposted source after ${ops.length} requests ${mode.name}`).toEqual(before);
      });
    });
  }
}
