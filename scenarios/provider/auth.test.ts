/**
 * Provider authentication is HTTP basic: a request without credentials, with a wrong password or
 * with a malformed basic header is rejected (shared table of modes).
 * Source: person-provider-identity-api.md, Authentication.
 */
import { authRejectionChecks } from '../shared/rules/auth.js';
import { area, practitioner } from './provider.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

authRejectionChecks({
  check: area('auth').check,
  kit: practitioner,
  modes: [
    {
      id: 'every-operation-without-an-authorization-header-is-rejected-and-changes-nothing',
      name: 'without an Authorization header',
      auth: () => 'none',
    },
    {
      id: 'every-operation-with-the-right-user-name-and-a-wrong-password-is-rejected-and-changes-nothing',
      name: 'with the right user name and a wrong password',
      auth: (t) => {
        const a = t.target.auth;
        return {
          header: basic(a.scheme === 'basic' ? a.username : 'conformance', `wrong-${t.faker.string.alphanumeric(16)}`),
        };
      },
    },
    {
      id: 'every-operation-with-a-malformed-basic-header-is-rejected-and-changes-nothing',
      name: 'with a malformed basic header',
      auth: () => 'malformed',
    },
  ],
});
