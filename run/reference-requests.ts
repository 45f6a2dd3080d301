/**
 * Two requests a user can send to a reference started by `npm run reference` at once, as ready-to-run curl commands: a
 * postIdentity of a small organization identity in a test source, and a demographicsSearch with the same data, which
 * finds it. The bodies are the suite's own request envelope (harness/client.ts: auditId, trackingId, content) with the
 * source reference where the default profile places it (identity.sources; generators/common.ts postContent).
 *
 * Source: organization-identity-api.md, Endpoints (postIdentity, demographicsSearch) and Resources (envelope,
 * organization identity).
 */
import { postContent } from '../generators/common.js';
import { SERVICES, operation } from '../specs/services.js';

/** A fictional organization, small enough to read in a terminal; every member is one the identity table names. */
export const EXAMPLE_ORGANIZATION = {
  organizationNames: [{ legalBusinessName: 'Example Widgets LLC', tradingName: 'Example Widgets' }],
  addresses: [
    {
      addressType: 'work',
      line1: '100 Main Street',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      country: 'US',
    },
  ],
  phoneNumbers: [{ number: '2175550100', type: 'work' }],
  emails: [{ email: 'info@examplewidgets.example.com', type: 'work' }],
};

/** The request envelope the suite sends (harness/client.ts), with fixed IDs a reader can recognise in the reply. */
const envelope = (name: string, content: unknown) => ({
  auditId: `curl-audit-${name}`,
  trackingId: `curl-track-${name}`,
  content,
});

/** One curl command on one line: POST, JSON, the bearer token as given, the body in single quotes (it holds none). */
function curl(url: string, token: string, body: unknown): string {
  const json = JSON.stringify(body);
  if (json.includes("'")) throw new Error('the example body must not hold a single quote');
  return (
    `curl -sS -X POST '${url}' -H 'content-type: application/json' -H 'Authorization: Bearer ${token}' --data-raw ` +
    `'${json}'`
  );
}

/**
 * The two commands for the organization service of a running reference.
 * @param baseUrl the organization service's base URL (before its service path)
 * @param token a bearer token the reference accepts
 * @param source a test source name the reference accepts
 */
export function exampleRequests(
  baseUrl: string,
  token: string,
  source: string,
): { postIdentity: string; demographicsSearch: string } {
  const spec = SERVICES.organization;
  const url = (op: string) => `${baseUrl}${spec.servicePath}${operation('organization', op).path}`;
  const posted = postContent(EXAMPLE_ORGANIZATION, { name: source, id: 'curl-example-1' }, 'identity.sources');
  return {
    postIdentity: curl(url('postIdentity'), token, envelope('post', posted)),
    demographicsSearch: curl(
      url('demographicsSearch'),
      token,
      envelope('search', { identity: EXAMPLE_ORGANIZATION, maxSearchResults: 5 }),
    ),
  };
}
