/**
 * A deployment that handles one request at a time: every request, once its latency is waited out,
 * waits for one lock shared by all the services and holds it for its operation's handling time
 * (searches and posts several milliseconds, reads well under one). Against it, sending more at
 * once only lengthens the queue at the lock: what `npm run bench:latency -- --deployment
 * serialized` measures the suite's schedule against (docs/performance.md). The seeds leave a
 * deployment's capacity open ("Rate limits: not shown", organization-identity-api.md, Limits).
 *
 * The lock is a virtual single server: each request's turn starts when the lock is free (the end
 * of the turn before it, or its arrival) and lasts its handling time, and the request waits until
 * its turn has ended. So handling times under a millisecond add up exactly, without a busy wait,
 * and a timer that fires late delays only its own request, never the lock's turns after it.
 */
import type { ReferenceHook } from '../hooks.js';

/** Handling time per kind of operation, ms. */
export interface HandlingTimes {
  /** demographicsSearch and demographicsQuery: matching against every record. */
  search: number;
  /** postIdentity: matching, then a write. */
  post: number;
  /** Every other change (merge, link, soft delete, relationships, ...). */
  change: number;
  /** Reads by key (nativeIdQuery, identityIdQuery, householdQuery), searchNotifications, searchRelationshipsService. */
  read: number;
}

export const DEFAULT_HANDLING_MS: HandlingTimes = { search: 10, post: 8, change: 5, read: 0.9 };

const READS = new Set([
  'nativeIdQuery',
  'identityIdQuery',
  'householdQuery',
  'searchNotifications',
  'searchRelationshipsService',
]);
const SEARCHES = new Set(['demographicsSearch', 'demographicsQuery']);

/** The kind of an operation, for its handling time. */
export function handlingKind(operation: string): keyof HandlingTimes {
  if (SEARCHES.has(operation)) return 'search';
  if (operation === 'postIdentity') return 'post';
  return READS.has(operation) ? 'read' : 'change';
}

/**
 * Reads handling times written `search=10,post=8,change=5,read=0.9` (ms, 0 to 1000 each); kinds
 * not named keep DEFAULT_HANDLING_MS.
 * @throws Error naming the part that is not a known kind with a number of ms
 */
export function parseHandlingTimes(text: string): HandlingTimes {
  const times = { ...DEFAULT_HANDLING_MS };
  for (const part of text.split(',').filter((p) => p.trim())) {
    const [kind, value] = part.split('=').map((s) => s.trim());
    const ms = Number(value);
    if (!kind || !(kind in times) || value === undefined || value === '' || !(ms >= 0 && ms <= 1000))
      throw new Error(
        `expected kind=ms with kind one of ${Object.keys(times).join(', ')} and ms from 0 to 1000, ` +
          `got ${JSON.stringify(part)}`,
      );
    times[kind as keyof HandlingTimes] = ms;
  }
  return times;
}

/**
 * What the lock did for one request: when its turn began (on the hook's clock), how long it waited for it and how long
 * it was (ms).
 */
export interface Turn {
  service: string;
  startMs: number;
  waitedMs: number;
  handlingMs: number;
}

/**
 * The serializing hook: one lock shared by every service of the reference, each request's turn
 * `times[handlingKind(operation)]` long; `onTurn` hears of each turn when it is given.
 */
export function serialized(
  times: HandlingTimes,
  onTurn: (turn: Turn) => void = () => {},
  now: () => number = () => performance.now(),
): ReferenceHook[] {
  let freeAt = 0;
  return [
    {
      intercept: async ({ service, operation }) => {
        const arrived = now();
        const handlingMs = times[handlingKind(operation)];
        const start = Math.max(arrived, freeAt);
        freeAt = start + handlingMs;
        onTurn({ service, startMs: start, waitedMs: start - arrived, handlingMs });
        const left = freeAt - now();
        if (left > 0) await new Promise((r) => setTimeout(r, left));
        return false;
      },
    },
  ];
}
