/**
 * Authentication: requests without a bearer token, with a malformed one, or with a JWT the
 * deployment did not issue are rejected; a rejection whose body is not JSON is handled.
 * Source: organization-identity-api.md, Authentication.
 */
import { expect } from 'vitest';
import { SignJWT } from 'jose';
import { describeReply } from '../../harness/check.js';
import { isRejection } from '../../harness/client.js';
import { area, org } from './org.js';

const { check } = area('auth');

const foreignJwt = () =>
  new SignJWT({ scope: 'identity' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('not-issued-by-the-deployment')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(`a-key-the-deployment-does-not-know-${Math.random()}`));

const modes = [
  { name: 'without an Authorization header', auth: async () => 'none' as const },
  { name: 'with a malformed bearer token', auth: async () => 'malformed' as const },
  { name: 'with a JWT the deployment did not issue', auth: async () => ({ header: `Bearer ${await foreignJwt()}` }) },
];

for (const mode of modes) {
  check(`a request ${mode.name} is rejected`, ['ORG-AUTH-BEARER'], async (t) => {
    const a = await org.postNew(t, ['ORG-AUTH-BEARER']);
    const r = await t.raw('nativeIdQuery', { source: { name: a.source.name, id: a.source.id } }, { auth: await mode.auth() });
    if (r.exchange.error) t.fail('ORG-AUTH-BEARER', `no reply to an unauthenticated request: ${r.exchange.error}`);
    await t.rule('ORG-AUTH-BEARER', () => {
      expect(isRejection(r) || r.status === 401 || r.status === 403, `rejected (HTTP 401/403 or success=false), got ${describeReply(r)}`).toBe(true);
      expect(r.content?.linkId ?? null, 'no identity data in a rejected reply').toBeNull();
    });
  });
}
