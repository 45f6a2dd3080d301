/**
 * The clauses of a walk's notification feed (scenarios/shared/walk/feed.ts reads the feed): every change the walk made
 * whose row promises a notification (a row's `feed`) appears as a notification of its own, and the pages of a closed
 * window that held still hold every notification once, as many as totalElements says. A notification counts for a
 * change when it names one of the native IDs or link IDs the change involved (notification fields are "not shown");
 * changes and notifications are matched one to one, so two changes of one record need two notifications.
 *
 * Source: organization-identity-api.md, Events ("a paginated feed of notifications for a date range; `hasNext` tells
 * whether more pages exist and `totalElements` gives the total count"); person-provider-identity-api.md, Events.
 */
import { type Cite, type Finding, clause, finding } from '../common/clause.js';

/** True when some notification mentions `id` anywhere (notification fields are "not shown"). */
export const mentions = (notification: unknown, id: string) => JSON.stringify(notification ?? null).includes(id);

/**
 * The largest one-to-one matching of changes to notifications naming them (augmenting paths); the changes left
 * unmatched.
 */
export function unmatched<E extends { ids: string[] }>(events: E[], notifications: unknown[]): E[] {
  const names = events.map((e) => notifications.flatMap((n, j) => (e.ids.some((id) => mentions(n, id)) ? [j] : [])));
  const owner = new Map<number, number>();
  const assign = (i: number, seen: Set<number>): boolean => {
    for (const j of names[i]!) {
      if (seen.has(j)) continue;
      seen.add(j);
      const held = owner.get(j);
      if (held === undefined || assign(held, seen)) {
        owner.set(j, i);
        return true;
      }
    }
    return false;
  };
  return events.filter((_, i) => !assign(i, new Set()));
}

export const FEED_CHANGE_MISSING = clause(
  'FEED-CHANGE-MISSING',
  'a change a walk made, of a kind the feed reports, that no notification of its own in the closed window ' +
    'naming one of its native IDs or link IDs shows',
  ['state:feed'],
);
export const FEED_DUPLICATE = clause(
  'FEED-DUPLICATE',
  'the pages of a closed window that held still returning one notification twice',
  ['state:partition'],
);
export const FEED_TOTAL_DIFFERS = clause(
  'FEED-TOTAL-DIFFERS',
  'a page of a closed window that held still whose totalElements differs from the number of notifications the ' +
    "window's pages hold",
  ['state:partition'],
);

/** Duplicates and a count that disagrees with totalElements, in a window read in full. */
export function partitionFindings(pages: Array<{ content?: any }>, notifications: unknown[], cite: Cite): Finding[] {
  const out: Finding[] = [];
  const texts = notifications.map((n) => JSON.stringify(n));
  const twice = texts.length - new Set(texts).size;
  if (twice)
    out.push(finding(FEED_DUPLICATE, cite, `the pages of the walk's window return ${twice} notification(s) twice`));
  for (const [i, p] of pages.entries()) {
    const total = p.content?.totalElements;
    if (typeof total === 'number' && total !== notifications.length)
      out.push(
        finding(
          FEED_TOTAL_DIFFERS,
          cite,
          `page ${i} gives totalElements ${total}, but the window's pages hold ${notifications.length} notifications`,
        ),
      );
  }
  return out;
}

/** The feed's clauses, for the registry. */
export const FEED_CLAUSES = [FEED_CHANGE_MISSING, FEED_DUPLICATE, FEED_TOTAL_DIFFERS] as const;
