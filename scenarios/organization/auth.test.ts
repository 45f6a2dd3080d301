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
  verifies: ['ORG-AUTH-BEARER'],
  check: area('auth').check,
  kit: org,
  modes: [
    { name: 'without an Authorization header', auth: () => 'none' },
    { name: 'with a malformed bearer token', auth: () => 'malformed' },
    { name: 'with a JWT the deployment did not issue', auth: async () => ({ header: `Bearer ${await foreignJwt()}` }) },
  ],
});
