/**
 * Redaction by ownership: anything in a reply that the run did not create is foreign, wherever it sits and whatever
 * view the deployment chose. Applied to every reply body an exchange holds: its foreign values are registered as the
 * reply arrives (registerForeignIn), and the redacted copy is what the exchange's body is when first read
 * (harness/client.ts and the transport's `keep` hook, judged by what the run owned when the reply arrived), so no sink
 * (exchange files, Allure, HTML, Markdown, JSON, JUnit, console, curl replays) ever holds other people's data.
 *
 * Ownership (harness/guard.ts): a source is the run's when its name is a configured test source and its native ID lies
 * in the run's namespace; a link ID when the guard adopted it (the identity of a run-owned source); a relationship when
 * the run created it.
 *
 * What is judged, by shape rather than by operation (the seeds leave many shapes "not shown"):
 * - identity holders: an object with any of identity, linkIdentity, incomingIdentity, identityGroupedBySource,
 *   customizedIdentities, customizedIdentitiesWithSource or enrichedDetails, and every element of searchResults. The
 *   run's own when every source it shows (identityGroupedBySource[].source, `sources` lists and person source entries
 *   inside its identities) is the run's and it shows one in identityGroupedBySource, or its link ID is the run's, or it
 *   has no link ID and shows only run-owned sources. Anything else is foreign: every member but linkId,
 *   requestedLinkId, matchScore and sameIdentity becomes a stub.
 * - notifications[] and events[] elements (fields "not shown"): the run's when they mention a run-owned native ID or
 *   link ID, else a stub.
 * - relationships (relationship / relationships members): the run's when it created them or both ends are its link IDs;
 *   else a stub keeping the ID and the link IDs of both ends.
 * - source references anywhere (members named like *source*, `sources` entries, person source entries): a foreign one
 *   keeps its source name only.
 * What cannot be attributed is redacted (fail safe).
 *
 * A stub keeps what a reader needs to follow the exchange: a note, the source names, a member count and a stable hash
 * (HMAC-SHA-256 under the run's redaction key, so the same content hashes alike within a run and low-entropy values
 * cannot be guessed back from it). Every value taken out is registered as foreign (harness/foreign-values.ts) so
 * failure messages cannot quote it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { registerForeign, scrubForeign } from './foreign-values.js';

export const FOREIGN_NOTE = 'redacted: content of records this run did not create';

/** What the run owns, as the guard and the run context know it. */
export interface Ownership {
  ownsSource(source: { name?: unknown; id?: unknown } | null | undefined): boolean;
  ownsLinkId(linkId: unknown): boolean;
  ownsNativeId(id: unknown): boolean;
  ownsRelationship(id: unknown): boolean;
  /** Member names of a relationship's subject and object (profile). */
  relationshipMembers: { subject: string; object: string };
}

export interface ForeignStub {
  redacted: typeof FOREIGN_NOTE;
  sources: string[];
  members: number;
  hash: string;
}

let key: Buffer = randomBytes(32);

/** Sets the key of the stable hashes (the run's, shared by its workers; a random one per process otherwise). */
export function setRedactionKey(hex: string): void {
  key = Buffer.from(hex, 'hex');
}

/** A fresh random redaction key (hex) for a run. */
export const newRedactionKey = () => randomBytes(32).toString('hex');

const hashOf = (value: unknown) =>
  createHmac('sha256', key)
    .update(JSON.stringify(value) ?? 'undefined')
    .digest('hex')
    .slice(0, 16);

const IDENTITY_MEMBERS = [
  'identity',
  'linkIdentity',
  'incomingIdentity',
  'identityGroupedBySource',
  'customizedIdentities',
  'customizedIdentitiesWithSource',
  'enrichedDetails',
];
/**
 * Members of a foreign identity holder that stay: they say which identity it is and how it ranked, nothing about
 * anyone.
 */
const HOLDER_KEEPS = new Set(['linkId', 'requestedLinkId', 'matchScore', 'sameIdentity']);

type Obj = Record<string, unknown>;
type Src = { name?: unknown; id?: unknown };
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * A source reference as the run's ownership reads it: {name, id}, a person source entry {sourceName|sourceId,
 * nativeId}, or a flat {source, nativeId} (notification bodies).
 */
function asSource(v: unknown): Src | undefined {
  if (!isObj(v)) return undefined;
  if (str(v.nativeId) !== undefined)
    return {
      name: v.sourceName ?? v.sourceId ?? v.name ?? (typeof v.source === 'string' ? v.source : undefined),
      id: v.nativeId,
    };
  if (str(v.name) !== undefined && str(v.id) !== undefined) return { name: v.name, id: v.id };
  return undefined;
}

/** True for a member named `source` in any case (a reference to one source record). */
const isSourceKey = (k: string) => k.length === 6 && k.toLowerCase() === 'source';

/**
 * Every source reference an identity holder shows: identityGroupedBySource[].source, `sources` lists, `source` members
 * and person source entries, at any depth.
 */
function sourcesShown(holder: Obj): Src[] {
  const out: Src[] = [];
  const walk = (v: unknown, key: string | undefined, depth: number): void => {
    if (depth > 30 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) {
        const s = key === 'sources' ? asSource(x) : undefined;
        if (s) out.push(s);
        else walk(x, undefined, depth + 1);
      }
      return;
    }
    const o = v as Obj;
    const entry = str(o.nativeId) !== undefined ? asSource(o) : undefined;
    if (entry) out.push(entry);
    for (const k in o) {
      const x = o[k];
      const s = isSourceKey(k) ? asSource(x) : undefined;
      if (s) out.push(s);
      else walk(x, k, depth + 1);
    }
  };
  for (const m of IDENTITY_MEMBERS) walk(holder[m], m, 0);
  return out;
}

function isHolder(o: Obj): boolean {
  for (const m of IDENTITY_MEMBERS) if (m in o) return true;
  return false;
}

/**
 * True for what this module leaves in place of foreign content: an object with the note and only flat members (source
 * names, counts, hash, kept IDs). Redacting it again changes nothing, so a redacted body can be checked by redacting it
 * once more (report/evidence/scan.ts).
 */
export function isStub(v: unknown): boolean {
  return (
    isObj(v) &&
    v.redacted === FOREIGN_NOTE &&
    Object.values(v).every(
      (x) => typeof x !== 'object' || x === null || (Array.isArray(x) && x.every((y) => typeof y === 'string')),
    )
  );
}

/** True for a foreign identity holder redacted already: its link ID and ranking beside stubs. */
function redactedAlready(o: Obj): boolean {
  for (const k in o) {
    const v = o[k];
    if (!(HOLDER_KEEPS.has(k) || v === null || v === undefined || isStub(v))) return false;
  }
  return true;
}

/** True when any string anywhere in `v` is a run-owned native ID or link ID. */
function mentionsOwn(v: unknown, own: Ownership, depth = 0): boolean {
  if (depth > 30) return false;
  if (typeof v === 'string') return own.ownsNativeId(v) || own.ownsLinkId(v);
  if (Array.isArray(v)) return v.some((x) => mentionsOwn(x, own, depth + 1));
  if (isObj(v)) return Object.values(v).some((x) => mentionsOwn(x, own, depth + 1));
  return false;
}

/** What a scan (Redactor without `emit`) leaves where a stub would go: it builds no copy. */
const SCANNED: ForeignStub = Object.freeze({
  redacted: FOREIGN_NOTE,
  sources: [],
  members: 0,
  hash: '',
}) as ForeignStub;

/**
 * Walks a reply body and judges what is foreign. With `emit` it returns the redacted copy; without, it only registers
 * every foreign value it would take out (harness/foreign-values.ts) and copies nothing: one judgement, two uses.
 */
class Redactor {
  constructor(
    private readonly own: Ownership,
    private readonly emit = true,
  ) {}

  private stub(value: unknown, sources: string[], members: number, keep: Set<string>): ForeignStub {
    registerForeign(value, keep);
    return this.emit ? { redacted: FOREIGN_NOTE, sources, members, hash: hashOf(value) } : SCANNED;
  }

  /** Each element of an array through `f`: the mapped copy, or (a scan) the array itself. */
  private each(v: unknown[], f: (x: unknown) => unknown): unknown[] {
    if (this.emit) return v.map(f);
    for (const x of v) f(x);
    return v;
  }

  /** An identity holder: the run's is walked on; a foreign one keeps its link ID and ranking and stubs the rest. */
  holder(o: Obj): Obj {
    // A foreign holder redacted already: its link ID and ranking beside stubs.
    if (redactedAlready(o)) return this.emit ? { ...o } : o;
    const shown = sourcesShown(o);
    const foreignShown = shown.some((s) => !this.own.ownsSource(s));
    const grouped = Array.isArray(o.identityGroupedBySource) ? (o.identityGroupedBySource as unknown[]) : [];
    const groupedOwn = grouped.some((g) => isObj(g) && this.own.ownsSource(asSource(g.source)));
    const noLink = o.linkId === null || o.linkId === undefined;
    const owned = !foreignShown && (groupedOwn || this.own.ownsLinkId(o.linkId) || (noLink && shown.length > 0));
    if (owned) return this.members(o);
    const names = [...new Set(shown.map((s) => str(s.name)).filter((n): n is string => Boolean(n)))].sort();
    const keep = new Set<string>([
      ...names,
      ...[o.linkId, o.requestedLinkId].filter((x): x is string => typeof x === 'string'),
    ]);
    const count = grouped.length || new Set(shown.map((s) => `${String(s.name)}\u0000${String(s.id)}`)).size;
    const out: Obj = {};
    for (const [k, v] of Object.entries(o))
      out[k] =
        HOLDER_KEEPS.has(k) && (typeof v !== 'object' || v === null)
          ? v
          : v === null || v === undefined
            ? v
            : this.stub(v, names, count, keep);
    return out;
  }

  /** A notification or an event: the run's when it mentions a run-owned native ID or link ID. */
  mention(v: unknown): unknown {
    if (isStub(v)) return v;
    if (!isObj(v)) return typeof v === 'string' && !mentionsOwn(v, this.own) ? this.stub(v, [], 1, new Set()) : v;
    if (mentionsOwn(v, this.own)) return this.members(v);
    return this.stub(v, [], 1, new Set());
  }

  /** A relationship: the run's when it created it or owns both ends. */
  relationship(v: unknown): unknown {
    if (isStub(v)) return v;
    if (!isObj(v)) return this.value(v, undefined);
    const { subject, object } = this.own.relationshipMembers;
    const ends = [v[subject], v[object]];
    if (this.own.ownsRelationship(v.id) || ends.every((e) => this.own.ownsLinkId(e))) return this.members(v);
    const out: Obj = {
      ...this.stub(v, [], 1, new Set([v.id, ...ends].filter((x): x is string => typeof x === 'string'))),
    };
    if (typeof v.id === 'string') out.id = v.id;
    if (typeof v[subject] === 'string') out[subject] = v[subject];
    if (typeof v[object] === 'string') out[object] = v[object];
    return out;
  }

  /** A source reference: a foreign one keeps its source name only. */
  source(v: Obj): Obj {
    const s = asSource(v)!;
    if (this.own.ownsSource(s)) return v;
    registerForeign(v, new Set([str(s.name) ?? '']));
    const out: Obj = { redacted: FOREIGN_NOTE };
    for (const k of ['name', 'sourceName', 'sourceId', 'displayName', 'source'])
      if (typeof v[k] === 'string') out[k] = v[k];
    return out;
  }

  /** An object walked member by member. */
  members(o: Obj): Obj {
    if (!this.emit) {
      for (const k of Object.keys(o)) this.value(o[k], k);
      return o;
    }
    const out: Obj = {};
    for (const k of Object.keys(o)) out[k] = this.value(o[k], k);
    return out;
  }

  value(v: unknown, key: string | undefined): unknown {
    if (v === null || typeof v !== 'object' || isStub(v)) return v;
    if (Array.isArray(v)) {
      if (key === 'searchResults') return this.each(v, (x) => (isObj(x) ? this.holder(x) : this.value(x, undefined)));
      if (key === 'notifications' || key === 'events') return this.each(v, (x) => this.mention(x));
      if (key === 'relationship' || key === 'relationships') return this.each(v, (x) => this.relationship(x));
      if (key === 'sources')
        return this.each(v, (x) => (asSource(x) ? this.source(x as Obj) : this.value(x, undefined)));
      return this.each(v, (x) => this.value(x, undefined));
    }
    const o = v as Obj;
    if (key === 'relationship' || key === 'relationships') return this.relationship(o);
    if (key !== undefined && /source/i.test(key) && asSource(o)) return this.source(o);
    if (str(o.nativeId) !== undefined) return this.source(o);
    if (isHolder(o)) return this.holder(o);
    return this.members(o);
  }
}

/**
 * A copy of a reply body with everything the run did not create replaced by stubs (see the module comment), and the
 * envelope's texts (message, errors, warnings, unparsedJson) cleared of every foreign value seen so far.
 */
export function redactForeign<T>(body: T, own: Ownership): T {
  const out = new Redactor(own).value(body, undefined);
  if (!isObj(out)) return out as T;
  for (const k of ['message', 'unparsedJson']) if (typeof out[k] === 'string') out[k] = scrubForeign(out[k] as string);
  for (const k of ['errors', 'warnings'])
    if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map((x) => (typeof x === 'string' ? scrubForeign(x) : x));
  return out as T;
}

/**
 * Registers as foreign every value `redactForeign` would take out of `body` (so that no text can quote it:
 * harness/foreign-values.ts), without building the redacted copy. The client does this as each reply arrives and makes
 * the copy only when the exchange is first read (harness/client.ts).
 */
export function registerForeignIn(body: unknown, own: Ownership): void {
  new Redactor(own, false).value(body, undefined);
}
