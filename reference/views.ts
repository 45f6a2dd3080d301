/**
 * Response views of the reference. By default every identity-returning reply carries identityGroupedBySource. With
 * `groupedBySource: 'on-request'` (REFERENCE_GROUPED_BY_SOURCE=on-request) the reference behaves like a deployment
 * whose DEFAULT view does not group by source: the member is null unless the request names the view GROUP_BY_SOURCE in
 * responseIdentityFormatNames.
 *
 * Source: organization-identity-api.md, "What the service does" (a request names response views; DEFAULT when omitted)
 * and Resources, "Search result" (identityGroupedBySource: not required); the views' contents are not shown, so both
 * behaviours are legitimate.
 */

export type GroupedBySource = 'always' | 'on-request';

/** The view that asks for identityGroupedBySource when the reference gives it on request only. */
export const GROUP_BY_SOURCE_VIEW = 'GROUP_BY_SOURCE';

/** Reads REFERENCE_GROUPED_BY_SOURCE. @throws Error naming the setting on any other value */
export function groupedBySourceSetting(raw: string | undefined): GroupedBySource | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'always' || raw === 'on-request') return raw;
  throw new Error(`REFERENCE_GROUPED_BY_SOURCE: expected always or on-request, got ${JSON.stringify(raw)}`);
}

/**
 * Sets identityGroupedBySource to null in a reply's content (and its search results) unless the request asked for the
 * view.
 */
export function applyGroupedView(mode: GroupedBySource, request: Record<string, unknown>, content: unknown): void {
  if (mode === 'always' || !content || typeof content !== 'object') return;
  const views = Array.isArray(request.responseIdentityFormatNames) ? request.responseIdentityFormatNames : [];
  if (views.includes(GROUP_BY_SOURCE_VIEW)) return;
  const c = content as Record<string, unknown>;
  const holders = Array.isArray(c.searchResults) ? (c.searchResults as unknown[]) : [c];
  for (const h of holders)
    if (h && typeof h === 'object' && 'identityGroupedBySource' in h)
      (h as Record<string, unknown>).identityGroupedBySource = null;
}
