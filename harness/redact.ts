/**
 * Redaction of secrets before anything reaches a report, a log or the console (other people's identity data:
 * harness/redact-foreign.ts). Header values of Authorization (and any header or member named like a secret) are
 * replaced; known secret strings (tokens, passwords from the settings) are masked wherever they occur.
 */
const SECRET_KEY =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|password|token|access_token|secret)$/i;
export const REDACTED = '[REDACTED]';

const knownSecrets = new Set<string>();

/** Registers a secret value (token, password, basic credential) to be masked wherever it appears. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) {
    knownSecrets.add(value);
    knownSecrets.add(Buffer.from(value).toString('base64'));
  }
}

/** Masks every registered secret inside a string. */
export function redactText(text: string): string {
  let out = text;
  for (const s of knownSecrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** Copy of a header map with secret headers replaced by [REDACTED]. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : String(v);
    if (!SECRET_KEY.test(k)) {
      out[k] = redactText(value);
      continue;
    }
    // Keep the scheme so a reader can tell "Bearer" from "Basic" from a malformed value.
    const scheme = /^(Bearer|Basic)\s/i.exec(value)?.[1];
    out[k] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
  }
  return out;
}

/** Deep copy of a JSON value with secret-named members replaced and known secrets masked. */
export function redactJson<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactJson(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? REDACTED : redactJson(v);
    return out as T;
  }
  return value;
}
