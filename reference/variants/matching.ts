/**
 * Matching variants.
 * - threshold: the match threshold of postIdentity linking and demographicsQuery (organization-identity-api.md, "What
 *   the service does": "The match threshold that demographicsQuery applies: not shown";
 *   person-provider-identity-api.md, Endpoints, /v2/demographicsQuery: "the same threshold used when matching in
 *   postIdentity").
 * - max-results: a system maximum of search results, applied when maxSearchResults is absent and as a hard cap when it
 *   asks for more (person-provider-identity-api.md, Limits: "when absent, the system maximum number of results is
 *   returned" / "The value of that system maximum: not shown"). Neither seed promises more than maxSearchResults; none
 *   promises exactly that many.
 */
import type { Handler, HandlerContext } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';

export const threshold = (value: number): ReferenceHook[] => [
  {
    handler: (next: Handler, ctx: HandlerContext) =>
      next({
        ...ctx,
        matcher: { ...ctx.matcher, threshold: value, uncertain: Math.min(ctx.matcher.uncertain, value) },
      }),
  },
];

export const maxResults = (n: number): ReferenceHook[] => [
  {
    operations: ['demographicsSearch'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const out = next(ctx);
      return Array.isArray(out.searchResults) ? { ...out, searchResults: out.searchResults.slice(0, n) } : out;
    },
  },
];
