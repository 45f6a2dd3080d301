/**
 * Redaction of secrets before anything reaches a report, a log or the console.
 * Header values of Authorization (and any header or member named like a secret) are replaced;
 * known secret strings (tokens, passwords from the settings) are masked wherever they occur.
 */
const SECRET_KEY = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|password|token|access_token|secret)$/i;
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

export const FOREIGN_REDACTED = '[REDACTED: identity content of records this run did not create]';
const IDENTITY_MEMBERS = ['identity', 'linkIdentity', 'incomingIdentity', 'customizedIdentities'];

/**
 * Deep copy of a reply body in which the identity content of every identity holding a source
 * record the run did not create is replaced by FOREIGN_REDACTED. An identity is recognised as
 * an object with `identityGroupedBySource` (search results, query and post replies); its link
 * ID, match score, sameIdentity and source references stay, its attribute data goes. An
 * identity whose sources are not listed cannot be shown to be the run's own and is redacted too.
 * Source: README, "Safety with shared staging data" (other people's data never reaches a report).
 */
export function redactForeignIdentities<T>(value: T, owns: (source: { name?: string; id?: string } | undefined) => boolean): T {
  if (Array.isArray(value)) return value.map((v) => redactForeignIdentities(v, owns)) as T;
  if (!value || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = redactForeignIdentities(v, owns);
  if (Array.isArray(o.identityGroupedBySource)) {
    const grouped = o.identityGroupedBySource as Array<{ source?: { name?: string; id?: string } } | null>;
    const hasContent = IDENTITY_MEMBERS.some((m) => o[m] !== undefined && o[m] !== null) || grouped.some((g) => g && Object.keys(g).some((k) => k !== 'source'));
    const foreign = grouped.some((g) => !owns(g?.source ?? undefined)) || (grouped.length === 0 && hasContent && o.identity !== null && o.identity !== undefined);
    if (foreign) {
      for (const m of IDENTITY_MEMBERS) if (o[m] !== undefined && o[m] !== null) out[m] = FOREIGN_REDACTED;
      out.identityGroupedBySource = grouped.map((g) => (g && typeof g === 'object' ? { source: g.source, ...(Object.keys(g).length > 1 ? { redacted: FOREIGN_REDACTED } : {}) } : g));
    }
  }
  return out as T;
}
