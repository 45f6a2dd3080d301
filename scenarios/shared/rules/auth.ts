/**
 * Authentication rejection, shared: a table of ways to send bad or no credentials; each one must
 * be rejected and return no identity data. Services supply the modes their scheme has (bearer:
 * none, malformed, foreign JWT; basic: none, wrong password, malformed).
 * Source: organization-identity-api.md, Authentication; person-provider-identity-api.md, Authentication.
 */
import { expect } from 'vitest';
import type { Check } from '../../../harness/check.js';
import { describeReply } from '../../../harness/check.js';
import { isRejection } from '../../../harness/reply.js';
import { type AuthMode } from '../../../harness/check.js';
import { type CheckFn, type Kit, titled } from './types.js';

export interface AuthRejectionMode {
  /** Completes "a request ... is rejected", e.g. "without an Authorization header". */
  name: string;
  auth: (t: Check) => AuthMode | Promise<AuthMode>;
}

export function authRejectionChecks({ check, kit, id, modes, label }: { check: CheckFn; kit: Kit; id: string; modes: AuthRejectionMode[]; label?: string }): void {
  for (const mode of modes) {
    check(titled(`a request ${mode.name} is rejected`, label), [id], async (t) => {
      const a = await kit.postNew(t, [id]);
      const r = await t.raw('nativeIdQuery', { source: { name: a.source.name, id: a.source.id } }, { auth: await mode.auth(t) });
      if (r.exchange.error) t.fail(id, `no reply to an unauthenticated request: ${r.exchange.error}`);
      await t.rule(id, () => {
        expect(isRejection(r) || r.status === 401 || r.status === 403, `rejected (HTTP 401/403 or success=false), got ${describeReply(r)}`).toBe(true);
        expect(r.content?.linkId ?? null, 'no identity data in a rejected reply').toBeNull();
      });
    });
  }
}
