/**
 * Building blocks the fault catalogue composes: roll a handler's state change back (the operation "succeeds" but
 * nothing changes), rewrite leaf values of a reply, cache replies (stale reads).
 */
import type { Handler, HandlerContext } from '../handlers/types.js';
import type { ServiceStore } from '../store.js';

type Json = unknown;

/** Runs the handler, then puts records and relationships back as they were: a reply without the effect. */
export const withoutEffect = (next: Handler, ctx: HandlerContext) => {
  const records = new Map([...ctx.store.records].map(([k, r]) => [k, structuredClone(r)]));
  const relationships = new Map([...ctx.store.relationships].map(([k, r]) => [k, structuredClone(r)]));
  const result = next(ctx);
  ctx.store.records.clear();
  for (const [k, r] of records) ctx.store.records.set(k, r);
  ctx.store.relationships.clear();
  for (const [k, r] of relationships) ctx.store.relationships.set(k, r);
  return result;
};

/** Deep copy of a JSON value with `fn(key, value)` applied to every primitive member value. */
export function mapLeaves(value: Json, fn: (key: string, v: Json) => Json, key = ''): Json {
  if (Array.isArray(value)) return value.map((v) => mapLeaves(v, fn, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapLeaves(v, fn, k)]));
  return fn(key, value);
}

/** Applies `fn` to the identity-bearing members of a reply content (identity, grouped sources, search results). */
export function mapIdentities(content: any, fn: (key: string, v: Json) => Json): void {
  if (!content || typeof content !== 'object') return;
  for (const m of ['identity', 'linkIdentity', 'incomingIdentity', 'identityGroupedBySource'])
    if (content[m]) content[m] = mapLeaves(content[m], fn);
  if (Array.isArray(content.searchResults)) for (const r of content.searchResults) mapIdentities(r, fn);
}

const caches = new WeakMap<ServiceStore, Map<string, Record<string, unknown>>>();

/** Answers repeated identical requests from a cache that is never invalidated (stale reads). */
export const cachedForever = (next: Handler, ctx: HandlerContext, operation: string) => {
  let cache = caches.get(ctx.store);
  if (!cache) caches.set(ctx.store, (cache = new Map()));
  const key = `${operation}|${JSON.stringify(ctx.content)}`;
  const hit = cache.get(key);
  if (hit) return structuredClone(hit);
  const result = next(ctx);
  cache.set(key, structuredClone(result));
  return result;
};
