/**
 * The scan of an evidence bundle for what it must never hold (docs/safety.md: redaction by ownership): secrets and
 * another source's identity data. The bundle's writer runs it before it calls a bundle done, and `npm run
 * evidence:verify` runs it again on whatever it is given. A finding names the file, where in it and what kind of thing
 * was found, never the value.
 *
 * Secrets, in every file (HTML decoded first): a credential of the settings the scan is given (and its base64 form), a
 * bearer or basic credential that is not `[REDACTED]` or a shell variable, a JSON member named like a secret (password,
 * token, secret, authorization, cookie, x-api-key) whose value is not `[REDACTED]`, a JSON Web Token, a PEM private
 * key. Identity data of other sources, in the HAR: every reply body is redacted once more by ownership
 * (harness/redact-foreign.ts), judged by what the run owned as its guards recorded it (harness/ownership.ts, the
 * bundle's ownership.json): the judgement every sink of the run was redacted by; a body that changes held something the
 * run did not create. Requests (the run's own data) and the other files: a source reference naming a native ID outside
 * the run's namespace.
 */
import he from 'he';
import { wireNames } from '../../harness/guard.js';
import type { OwnershipRecord } from '../../harness/ownership.js';
import type { Profile } from '../../harness/profile.js';
import { type Ownership, redactForeign } from '../../harness/redact-foreign.js';
import type { ServiceName } from '../../specs/common/model.js';
import type { Har } from './har.js';

export interface Finding {
  file: string;
  /** Where in the file: a line, or a HAR entry and body. */
  where: string;
  kind: 'secret' | 'foreign identity data';
  /** What was found, never its value. */
  what: string;
}

const SECRET_MEMBER =
  /["']?(password|passwd|token|access_token|secret|client_secret|authorization|proxy-authorization|cookie|x-api-key)["']?\s*[:=]\s*"([^"]*)"/gi;
const ALLOWED_SECRET_VALUE =
  /^(\[REDACTED\]|(Bearer|Basic) \[REDACTED\]|\$\{?[A-Z_][A-Z0-9_]*\}?|(Bearer|Basic) \$\{?[A-Z_][A-Z0-9_]*\}?|)$/;
const CREDENTIAL = /\b(Bearer|Basic)\s+(?!\[REDACTED\])(?!\$)([A-Za-z0-9._~+/=-]{8,})/g;
const JWT = /\beyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}/g;
const PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----/g;

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Secrets in one file's text. `known`: credentials of the settings (each also looked for in base64). */
export function scanSecrets(file: string, raw: string, known: string[] = []): Finding[] {
  const text = /\.html?$/.test(file) ? he.decode(raw) : raw;
  const out: Finding[] = [];
  const add = (index: number, what: string) =>
    out.push({ file, where: `line ${lineOf(text, index)}`, kind: 'secret', what });
  for (const secret of known.filter((s) => s.length >= 4))
    for (const form of [secret, Buffer.from(secret).toString('base64')]) {
      const at = text.indexOf(form);
      if (at >= 0) add(at, 'a credential of the settings');
    }
  for (const m of text.matchAll(SECRET_MEMBER))
    if (!ALLOWED_SECRET_VALUE.test(m[2]!)) add(m.index!, `a "${m[1]}" member with a value other than [REDACTED]`);
  for (const m of text.matchAll(CREDENTIAL)) add(m.index!, `a ${m[1]} credential`);
  for (const m of text.matchAll(JWT)) add(m.index!, 'a JSON Web Token');
  for (const m of text.matchAll(PEM)) add(m.index!, 'a PEM private key');
  return out;
}

/**
 * What the run owned, as the bundle tells it: its ID (native-ID namespace), each service's test sources, the profile,
 * and what its guards adopted.
 */
export interface RunOwnership {
  runId: string;
  services: Array<{ service: ServiceName; sources: string[] }>;
  profile: Profile;
  /** The run's ownership record (harness/ownership.ts): link IDs, relationships and data sources its guards adopted. */
  owned: OwnershipRecord;
}

const NATIVE_PREFIX = 'cf-';

/**
 * Per service of the run, what it owned by the end of the run, as its guards judged it (harness/guard.ts): a source of
 * a test source or a data source the run created, with a native ID in its namespace; a link ID or relationship it
 * adopted. The same facts redaction judged by as each reply arrived (later ones only add: what was redacted then stays
 * a stub).
 */
function ownerships(run: RunOwnership): Map<string, Ownership> {
  const namespace = `${NATIVE_PREFIX}${run.runId}-`;
  const ownsNativeId = (id: unknown) => typeof id === 'string' && id.startsWith(namespace);
  return new Map(
    run.services.map(({ service, sources }) => {
      const owned = run.owned[service];
      const names = new Set([...sources, ...(owned?.dataSource ?? [])]);
      const linkIds = new Set(owned?.linkId ?? []);
      const relationships = new Set(owned?.relationship ?? []);
      const members = wireNames(run.profile, service);
      const own: Ownership = {
        ownsSource: (s) => Boolean(s) && typeof s!.name === 'string' && names.has(s!.name) && ownsNativeId(s!.id),
        ownsLinkId: (l) => typeof l === 'string' && linkIds.has(l),
        ownsNativeId,
        ownsRelationship: (id) => typeof id === 'string' && relationships.has(id),
        relationshipMembers: { subject: members.relationshipSubjectMember, object: members.relationshipObjectMember },
      };
      return [service, own];
    }),
  );
}

const parse = (text: string | undefined): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Foreign identity data in a HAR: every reply body is redacted once more by ownership, judged by what the run owned
 * (its ownership record); a body that changes held data of records the run did not create.
 */
export function scanHar(file: string, har: Har, run: RunOwnership): Finding[] {
  const byService = ownerships(run);
  const entries = har.log?.entries ?? [];
  const out: Finding[] = [];
  entries.forEach((e, i) => {
    const g = byService.get(e._service);
    // A request is the run's own data (harness/client.ts builds it); it may only name sources of the run.
    for (const f of scanForeignText('exchanges.har', e.request?.postData?.text ?? '', run.runId))
      out.push({ ...f, where: `entry ${i + 1} request (${e._service} ${e._operation}, check ${e._check})` });
    for (const [part, text] of [['reply', e.response?.content?.text]] as const) {
      const body = parse(text);
      if (body === undefined || body === null || typeof body !== 'object') continue;
      if (!g) {
        out.push({
          file,
          where: `entry ${i + 1} ${part}`,
          kind: 'foreign identity data',
          what: `a body of service ${e._service}, which the run did not target`,
        });
        continue;
      }
      if (JSON.stringify(redactForeign(body, g)) !== JSON.stringify(body))
        out.push({
          file,
          where: `entry ${i + 1} ${part} (${e._service} ${e._operation}, check ${e._check})`,
          kind: 'foreign identity data',
          what: 'content of records the run did not create, not redacted',
        });
    }
  });
  return out;
}

const SOURCE_REFERENCE = /"(?:nativeId|id)"\s*:\s*"([^"]+)"/g;

/**
 * Foreign identity data in a file other than the HAR: a native ID or source ID member naming an ID of the suite's form
 * (`cf-...`) outside this run's namespace (another run's records), or a `nativeId` member naming any ID outside it.
 */
export function scanForeignText(file: string, raw: string, runId: string): Finding[] {
  const text = /\.html?$/.test(file) ? he.decode(raw) : raw;
  const namespace = `${NATIVE_PREFIX}${runId}-`;
  const out: Finding[] = [];
  for (const m of text.matchAll(SOURCE_REFERENCE)) {
    const id = m[1]!;
    const nativeId = m[0].startsWith('"nativeId"');
    if (id.startsWith(namespace) || (!nativeId && !id.startsWith(NATIVE_PREFIX))) continue;
    out.push({
      file,
      where: `line ${lineOf(text, m.index!)}`,
      kind: 'foreign identity data',
      what: "a native ID outside the run's namespace",
    });
  }
  return out;
}
