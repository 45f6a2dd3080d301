/**
 * Authentication: requests without a bearer token, with a malformed one, or with a JWT the
 * deployment did not issue are rejected; a rejection whose body is not JSON is handled (shared table).
 * Source: organization-identity-api.md, Authentication.
 */
import { SignJWT } from 'jose';
import { authRejectionChecks } from '../shared/rules/auth.js';
import { area, org } from './org.js';

const foreignJwt = () =>
  new SignJWT({ scope: 'identity' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('not-issued-by-the-deployment')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(`a-key-the-deployment-does-not-know-${Math.random()}`));

authRejectionChecks({
  check: area('auth').check,
  kit: org,
  modes: [
    {
      id: 'every-operation-without-an-authorization-header-is-rejected-and-changes-nothing',
      name: 'without an Authorization header',
      auth: () => 'none',
    },
    {
      id: 'every-operation-with-a-malformed-bearer-token-is-rejected-and-changes-nothing',
      name: 'with a malformed bearer token',
      auth: () => 'malformed',
    },
    {
      id: 'every-operation-with-a-jwt-the-deployment-did-not-issue-is-rejected-and-changes-nothing',
      name: 'with a JWT the deployment did not issue',
      auth: async () => ({ header: `Bearer ${await foreignJwt()}` }),
    },
  ],
});
