/**
 * Steps the scenarios of every service compose: make and post a run-owned identity, look a source up, read its link ID.
 * Service differences come in through the identity generator. The oracles here never assert; the checks decide which
 * requirement a result bears on.
 */
import type { Faker } from '@faker-js/faker';
import type { SourceRef } from '../../specs/common/wire.js';
import { postContent } from '../../generators/common.js';
import { type Reply, isAbsent } from '../../harness/reply.js';
import type { Check } from '../../harness/check.js';
import { POSTED_NOT_FOUND, postedNotFound } from '../../specs/clauses/post.js';

export type IdentityGenerator = (f: Faker, source?: SourceRef) => Record<string, unknown>;

export interface Posted {
  source: SourceRef;
  identity: Record<string, unknown>;
  content: Record<string, unknown>;
  reply: Reply;
  /** Link ID of the posted record, read back through nativeIdQuery. */
  linkId: string;
}

export function steps(generate: IdentityGenerator) {
  /** A new identity on a run-owned source (not yet posted). */
  const make = (t: Check, sourceIndex = 0) => {
    const source = t.source(sourceIndex);
    const identity = generate(t.faker, source);
    return { source, identity, content: postContent(identity, source, t.profile.sourcePlacement) };
  };

  /** A new identity on a source marked as invalid on purpose (for bad-input checks: harness/check.ts invalid). */
  const makeInvalid = (t: Check) => {
    const source = t.invalidSource();
    const identity = generate(t.faker, source);
    return { source, identity, content: postContent(identity, source, t.profile.sourcePlacement) };
  };

  /**
   * Posts content for `source` and reads the record's link ID back (within the consistency budget); fails citing
   * `cites` if either step fails.
   */
  const postAndRead = async (t: Check, made: ReturnType<typeof make>, cites: string[]): Promise<Posted> => {
    const reply = await t.ok('postIdentity', made.content, { cites });
    const linkId = await resolved(t, made.source);
    t.judge(POSTED_NOT_FOUND, cites, postedNotFound(made.source, linkId !== undefined));
    return { ...made, reply, linkId: linkId! };
  };

  /** Posts a new distinct identity; `cites` are the requirements a failure of the set-up bears on. */
  const postNew = (t: Check, cites: string[], sourceIndex = 0) => postAndRead(t, make(t, sourceIndex), cites);

  /** nativeIdQuery for a source (validated reply). */
  const lookup = (t: Check, source: SourceRef, views?: string[]) =>
    t.call('nativeIdQuery', {
      source: { name: source.name, id: source.id },
      ...(views ? { responseIdentityFormatNames: views } : {}),
    });

  /** Link ID a source resolves to now, or undefined when the lookup finds nothing. */
  const linkIdOf = async (t: Check, source: SourceRef): Promise<string | undefined> => {
    const r = await lookup(t, source);
    return isAbsent(r) ? undefined : (r.content?.linkId as string);
  };

  /**
   * Link ID a source resolves to once it resolves at all (after a write), or undefined when it never does within the
   * budget.
   */
  const resolved = (t: Check, source: SourceRef) =>
    t.settle(
      `${source.id} resolves`,
      () => linkIdOf(t, source),
      (v) => v !== undefined,
    );

  /**
   * nativeIdQuery of a source after a write, read until `until` holds or the consistency budget is spent; the last
   * reply is returned for the caller to judge.
   */
  const lookupUntil = (t: Check, source: SourceRef, what: string, until: (r: Reply) => boolean) =>
    t.settle(what, () => lookup(t, source), until);

  /** Link ID of a source after a write, read until `until` holds (see lookupUntil). */
  const linkIdUntil = (t: Check, source: SourceRef, what: string, until: (linkId: string | undefined) => boolean) =>
    t.settle(what, () => linkIdOf(t, source), until);

  /**
   * Waits (within the consistency budget) until a search with the posted identity returns its link ID, so a later post
   * can be matched against it even where the search index lags writes. Returns whether it did.
   */
  const searchable = async (t: Check, posted: Pick<Posted, 'identity' | 'linkId'>): Promise<boolean> => {
    const r = await t.settle(
      `search shows ${posted.linkId}`,
      () => t.call('demographicsSearch', { identity: posted.identity }),
      (x) => resultLinkIds(x).includes(posted.linkId),
    );
    return resultLinkIds(r).includes(posted.linkId);
  };

  /**
   * Before a step that relies on it (a copy that should match): waits until a search shows the posted identity (nothing
   * to wait for at a budget of 0).
   */
  const whenSearchable = (t: Check, posted: Pick<Posted, 'identity' | 'linkId'>) =>
    t.waitFor(
      `search ranks ${posted.linkId} first`,
      () => t.call('demographicsSearch', { identity: posted.identity }),
      (x) => ranksFirst(x, posted.linkId),
    );

  return {
    make,
    makeInvalid,
    postAndRead,
    postNew,
    lookup,
    linkIdOf,
    resolved,
    lookupUntil,
    linkIdUntil,
    searchable,
    whenSearchable,
  };
}

/**
 * True when a search ranks `linkId` best (among the results of the top score, or first where results carry no score): a
 * search index that has caught up with a write shows its exact copy there, while a deployment that returns every
 * candidate (no threshold) lists it anyway.
 */
export function ranksFirst(r: Reply, linkId: string): boolean {
  const list = (Array.isArray(r.content?.searchResults) ? r.content.searchResults : []) as Array<{
    linkId?: string;
    matchScore?: number;
  }>;
  if (!list.length) return false;
  const top = list[0]!.matchScore;
  return typeof top === 'number'
    ? list.some((x) => x.matchScore === top && x.linkId === linkId)
    : list[0]!.linkId === linkId;
}

/** Link IDs of a demographicsSearch reply's results, best first. */
export const resultLinkIds = (r: Reply): string[] =>
  (Array.isArray(r.content?.searchResults) ? r.content.searchResults : [])
    .map((x: { linkId?: unknown }) => x?.linkId)
    .filter((l: unknown): l is string => typeof l === 'string');

const normalised = (v: string) => v.toLowerCase().replace(/[^a-z0-9]/g, '');
const IDENTIFIER_KEYS = new Set([
  'source',
  'sources',
  'linkId',
  'id',
  'nativeId',
  'sourceId',
  'sourceName',
  'displayName',
  'name',
  'clusterStatus',
]);

/**
 * The attribute values an identity reply shows, as the deployment wrote them, normalised (lower case, letters and
 * digits only) and long enough (5 or more) to tell records apart: the string leaves of `identity` and of each
 * identityGroupedBySource entry, without source references. Checks compare a deployment's replies with its own earlier
 * replies, so its formatting never matters.
 */
export function identityValues(content: any): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, key = '') => {
    if (IDENTIFIER_KEYS.has(key)) return;
    if (typeof v === 'string') {
      const n = normalised(v);
      if (n.length >= 5 && !/^\d{8}$/.test(n)) out.add(n); // dates are shared too often to tell records apart
    } else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(content?.identity);
  for (const g of Array.isArray(content?.identityGroupedBySource) ? content.identityGroupedBySource : []) walk(g);
  return out;
}

/** Values in `a` that are not in `b`. */
export const onlyIn = (a: Set<string>, b: Set<string>) => [...a].filter((v) => !b.has(v));

/** Source references named in identityGroupedBySource of a reply's content. */
export const groupedSources = (content: any): SourceRef[] =>
  (Array.isArray(content?.identityGroupedBySource) ? content.identityGroupedBySource : [])
    .map((g: any) => g?.source)
    .filter(Boolean);

export const sameSource = (a: Partial<SourceRef>, b: Partial<SourceRef>) => a.name === b.name && a.id === b.id;
