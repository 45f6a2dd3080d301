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
import { ranksFirst, resultLinkIds } from '../../specs/common/identity-content.js';
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

/** A new identity on a source, with the post's content (not yet posted). */
export type Made = Pick<Posted, 'source' | 'identity' | 'content'>;

/**
 * Posts content for `source` and reads the record's link ID back (within the consistency budget); fails citing
 * `cites` if either step fails.
 */
const postAndRead = async (t: Check, made: Made, cites: string[]): Promise<Posted> => {
  const reply = await t.ok('postIdentity', made.content, { cites });
  const linkId = await resolved(t, made.source);
  t.judge(POSTED_NOT_FOUND, cites, postedNotFound(made.source, linkId !== undefined));
  return { ...made, reply, linkId: linkId! };
};

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

/**
 * The steps of a service: those that make identities use its generator, the others are the same for every service.
 */
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

  /** Posts a new distinct identity; `cites` are the requirements a failure of the set-up bears on. */
  const postNew = (t: Check, cites: string[], sourceIndex = 0) => postAndRead(t, make(t, sourceIndex), cites);

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
