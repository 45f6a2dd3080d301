/**
 * Reading the identity members of a reply's content, as checks and the whole-state oracle compare them: the link IDs of
 * search results, the sources an identity lists (identityGroupedBySource) and the attribute values it shows.
 *
 * Source: organization-identity-api.md, Resources and their fields (search result, identityGroupedBySource);
 * person-provider-identity-api.md, Resources.
 */
import type { SourceRef } from './wire.js';

/**
 * True when a search ranks `linkId` best (among the results of the top score, or first where results carry no score): a
 * search index that has caught up with a write shows its exact copy there, while a deployment that returns every
 * candidate (no threshold) lists it anyway.
 */
export function ranksFirst(r: { content?: any }, linkId: string): boolean {
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
export const resultLinkIds = (r: { content?: any }): string[] =>
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

/** Source references named in identityGroupedBySource of a reply's content. */
export const groupedSources = (content: any): SourceRef[] =>
  (Array.isArray(content?.identityGroupedBySource) ? content.identityGroupedBySource : [])
    .map((g: any) => g?.source)
    .filter(Boolean);

export const sameSource = (a: Partial<SourceRef>, b: Partial<SourceRef>) => a.name === b.name && a.id === b.id;
