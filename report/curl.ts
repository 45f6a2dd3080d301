/**
 * A `curl` command that replays a recorded exchange. Never carries a secret: the Authorization
 * header becomes a reference to the service's credential setting ("$ORG_TOKEN" for bearer,
 * "$ORG_USERNAME:$ORG_PASSWORD" for basic), expanded by the shell of whoever replays it.
 */
import { SERVICES } from '../specs/services.js';
import type { Exchange } from '../harness/reply.js';
import { redactJson, redactText } from '../harness/redact.js';

/** POSIX shell single-quoting. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

const SKIP_HEADERS = /^(content-length|host|connection|authorization)$/i;

export function curlCommand(e: Exchange): string {
  const spec = (SERVICES as Record<string, { envPrefix: string } | undefined>)[e.service];
  const prefix = spec?.envPrefix ?? 'SERVICE';
  const parts = ['curl', '-sS', '-X', 'POST', shellQuote(redactText(e.url))];
  const auth = Object.entries(e.request.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  if (auth?.startsWith('Bearer')) parts.push('-H', `"Authorization: Bearer \$${prefix}_TOKEN"`);
  else if (auth?.startsWith('Basic')) parts.push('-u', `"\$${prefix}_USERNAME:\$${prefix}_PASSWORD"`);
  else if (auth) parts.push('-H', shellQuote(`Authorization: ${auth}`)); // a deliberately malformed header a check sent
  for (const [k, v] of Object.entries(e.request.headers)) if (!SKIP_HEADERS.test(k)) parts.push('-H', shellQuote(`${k}: ${redactText(v)}`));
  const body = e.request.body;
  parts.push('--data-raw', shellQuote(typeof body === 'string' ? redactText(body) : JSON.stringify(redactJson(body))));
  return parts.join(' ');
}
