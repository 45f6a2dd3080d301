/**
 * Boundary values of the request numbers (scenarios/shared/rules/boundaries.ts registers the check): the numbers of a
 * search and of a notification page at the edges of their types, each held to its own rule (specs/clauses/search.ts
 * BELOW-THRESHOLD, OVER-MAX; specs/clauses/notifications.ts PAGE-OVER-SIZE; specs/clauses/boundaries.ts
 * PAGE-PAST-END). Refusing a number at the edge of its type is legal: its bounds are not shown.
 *
 * Source: as scenarios/shared/rules/boundaries.ts says.
 */
import { boundaryRequests, boundaryTable, withBoundaries } from '../../../generators/boundaries.js';
import type { Check } from '../../../harness/check.js';
import { runInfo } from '../../../harness/targets.js';
import { PAGE_PAST_END, pagePastEnd } from '../../../specs/clauses/boundaries.js';
import { PAGE_OVER_SIZE, pageOverSize } from '../../../specs/clauses/notifications.js';
import { BELOW_THRESHOLD, OVER_MAX, belowThreshold, overMax } from '../../../specs/clauses/search.js';
import type { Clause } from '../../../specs/common/clause.js';
import { valueLeaves } from '../../../specs/common/leaf-types.js';
import { operation } from '../../../specs/services.js';
import type { Kit } from './types.js';

/** The roles of the rules the request numbers are held to. */
type NumberRole = 'search.maxResults' | 'search.threshold' | 'notifications.paging';

/** The request numbers judged, by member: the role of the rule that judges it and the judging function. */
const NUMBER_RULES: Record<
  string,
  { role: NumberRole; clause: Clause; judge: (content: any, value: number, req: any) => string[] }
> = {
  maxSearchResults: {
    role: 'search.maxResults',
    clause: OVER_MAX,
    judge: (c, v) => overMax(c?.searchResults ?? [], v),
  },
  matchScoreThreshold: {
    role: 'search.threshold',
    clause: BELOW_THRESHOLD,
    judge: (c, v) => belowThreshold(c?.searchResults ?? [], v),
  },
  pageSize: {
    role: 'notifications.paging',
    clause: PAGE_OVER_SIZE,
    judge: (c, v) => pageOverSize([{ notifications: c?.notifications ?? [] }], v),
  },
  pageNumber: {
    role: 'notifications.paging',
    clause: PAGE_PAST_END,
    judge: (c, v, req) =>
      pagePastEnd(
        { pageNumber: v, firstPage: req.firstPage, pageSize: req.pageSize },
        c?.totalElements,
        (c?.notifications ?? []).length,
      ),
  },
};

/**
 * The request numbers at the edges of their types: searches with an identity the check posted (so
 * they find something) and notification pages of the last hour, each number held to its rule.
 */
export async function requestNumbers(t: Check, kit: Kit, ids: Partial<Record<NumberRole, string>>): Promise<void> {
  const posted = await kit.postNew(
    t,
    Object.values(ids).filter((x): x is string => Boolean(x)),
  );
  const page = { pageNumber: t.profile.notifications.firstPage, pageSize: t.profile.notifications.pageSize };
  const window = { startDate: new Date(Date.now() - 3600_000).toISOString(), endDate: new Date().toISOString() };
  const bases = [
    {
      op: 'demographicsSearch' as const,
      base: { identity: posted.identity, maxSearchResults: 5, matchScoreThreshold: 0.5 },
    },
    { op: 'searchNotifications' as const, base: { ...page, ...window } },
  ];
  const found: Array<{ clause: Clause; requirements: string; rejected: string[] }> = [];
  for (const { op, base } of bases) {
    const leaves = valueLeaves(operation(t.service, op).request).filter((l) => {
      const rule = NUMBER_RULES[l.path.join('.')];
      return rule !== undefined && ids[rule.role] !== undefined;
    });
    if (!leaves.length) continue;
    // Two samples a run: a number's rule shows at its small and at its large values alike.
    for (const placed of boundaryRequests(
      leaves,
      (type) => boundaryTable(type, ''),
      runInfo().budgets.scope,
      t.faker,
      2,
    )) {
      const content = withBoundaries(base, placed) as Record<string, any>;
      const r = await t.call(op, content);
      if (r.success !== true) continue; // refusing a number at the edge of its type is legal: its bounds are not shown
      for (const p of placed) {
        const rule = NUMBER_RULES[p.leaf.path.join('.')]!;
        const req = { firstPage: page.pageNumber, pageSize: content.pageSize };
        found.push({
          clause: rule.clause,
          requirements: ids[rule.role]!,
          rejected: rule.judge(r.content, p.boundary.value as number, req),
        });
      }
    }
  }
  t.judgeAll(found);
}
