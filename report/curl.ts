/**
 * A `curl` command that replays a recorded exchange. Never carries a secret: the Authorization header becomes a
 * reference to the service's credential setting ("$ORG_TOKEN" for bearer, "$ORG_USERNAME:$ORG_PASSWORD" for basic),
 * expanded by the shell of whoever replays it. Every other word is quoted for a POSIX shell: in single quotes when it
 * holds none, else by shell-quote (test/report-curl.test.ts runs the words through bash). A token the run fetched from
 * an OAuth2 token endpoint is fetched again by a line before the replay, from the same settings.
 */
import { quote } from 'shell-quote';
import { SERVICES } from '../specs/services.js';
import type { OAuthShown } from '../harness/oauth.js';
import type { Exchange } from '../harness/reply.js';
import { redactJson, redactText } from '../harness/redact.js';

const SKIP_HEADERS = /^(content-length|host|connection|authorization)$/i;

/**
 * The command that fetches a bearer token from the service's OAuth2 token endpoint into `<PREFIX>_TOKEN` (client
 * credentials, the client authenticated with HTTP basic, as the run did: harness/oauth.ts), every value a setting
 * variable: `<PREFIX>_OAUTH_TOKEN_URL`, `_CLIENT_ID`, `_CLIENT_SECRET`, and `_SCOPE` / `_AUDIENCE` when the run sent
 * them.
 */
export function tokenCommand(prefix: string, oauth: OAuthShown): string {
  const form = [
    '--data-urlencode grant_type=client_credentials',
    ...(oauth.scope ? [`--data-urlencode "scope=$${prefix}_OAUTH_SCOPE"`] : []),
    ...(oauth.audience ? [`--data-urlencode "audience=$${prefix}_OAUTH_AUDIENCE"`] : []),
  ];
  return (
    `${prefix}_TOKEN=$(curl -sS -u "$${prefix}_OAUTH_CLIENT_ID:$${prefix}_OAUTH_CLIENT_SECRET" ${form.join(' ')} ` +
    `"$${prefix}_OAUTH_TOKEN_URL" | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).access_token')`
  );
}

/**
 * The command as one line: `curl -sS -X POST '<url>' ... --data-raw '<body>'`; when the service's token came from an
 * OAuth2 client (`oauth`), preceded by a comment and the line that fetches one (tokenCommand).
 */
export function curlCommand(e: Exchange, oauth?: OAuthShown): string {
  const spec = (SERVICES as Record<string, { envPrefix: string } | undefined>)[e.service];
  const prefix = spec?.envPrefix ?? 'SERVICE';
  // A word without a single quote reads best in single quotes (POSIX: everything inside is literal); shell-quote does
  // the rest.
  const words = (...w: string[]) =>
    w.map((x) => (/^[A-Za-z0-9_./-]+$/.test(x) ? x : x.includes("'") ? quote([x]) : `'${x}'`)).join(' ');
  const parts = [words('curl', '-sS', '-X', 'POST', redactText(e.url))];
  const auth = Object.entries(e.request.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  // The credential stays a shell variable in double quotes, so the replaying shell expands it.
  if (auth?.startsWith('Bearer')) parts.push(`-H "Authorization: Bearer $${prefix}_TOKEN"`);
  else if (auth?.startsWith('Basic')) parts.push(`-u "$${prefix}_USERNAME:$${prefix}_PASSWORD"`);
  else if (auth) parts.push(words('-H', `Authorization: ${auth}`)); // a deliberately malformed header a check sent
  for (const [k, v] of Object.entries(e.request.headers))
    if (!SKIP_HEADERS.test(k)) parts.push(words('-H', `${k}: ${redactText(v)}`));
  const body = e.request.body;
  parts.push(words('--data-raw', typeof body === 'string' ? redactText(body) : JSON.stringify(redactJson(body))));
  const command = parts.join(' ');
  if (!oauth || !auth?.startsWith('Bearer')) return command;
  return [
    `# ${prefix}_TOKEN from the OAuth2 token endpoint of the run (${oauth.tokenHost}, client ${oauth.clientId}):`,
    tokenCommand(prefix, oauth),
    command,
  ].join('\n');
}
