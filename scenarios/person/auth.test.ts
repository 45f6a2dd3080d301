/**
 * Authentication: a request without credentials, with malformed ones, or with credentials the
 * deployment did not issue is rejected, whichever of the two schemes (bearer JWT, HTTP basic)
 * the profile chose (person.auth).
 * Source: person-provider-identity-api.md, Authentication.
 */
import { SignJWT } from 'jose';
import type { Check } from '../../harness/check.js';
import type { AuthMode } from '../../harness/check.js';
import { type AuthRejectionMode, authRejectionChecks } from '../shared/rules/auth.js';
import { area, person } from './person.js';

const { check } = area('auth');

/** Credentials of the target's scheme that the deployment never issued. */
async function foreign(t: Check): Promise<AuthMode> {
  if (t.target.auth.scheme === 'basic')
    return {
      header: `Basic ${Buffer.from(`${t.target.auth.username}:not-the-password-${t.faker.string.alphanumeric(8)}`).toString('base64')}`,
    };
  const jwt = await new SignJWT({ scope: 'identity' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('not-issued-by-the-deployment')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(`a-key-the-deployment-does-not-know-${t.faker.string.alphanumeric(16)}`));
  return { header: `Bearer ${jwt}` };
}

const modes: AuthRejectionMode[] = [
  {
    id: 'every-operation-without-an-authorization-header-is-rejected-and-changes-nothing',
    name: 'without an Authorization header',
    auth: () => 'none',
  },
  {
    id: 'every-operation-with-malformed-credentials-is-rejected-and-changes-nothing',
    name: 'with malformed credentials',
    auth: () => 'malformed',
  },
  {
    id: 'every-operation-with-credentials-the-deployment-did-not-issue-is-rejected-and-changes-nothing',
    name: 'with credentials the deployment did not issue',
    auth: foreign,
  },
];

authRejectionChecks({ check, kit: person, modes });
