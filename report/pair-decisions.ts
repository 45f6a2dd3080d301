/**
 * Matching decisions that changed between two clusterings of the same records (before and after a vendor upgrade or a
 * configuration change): the record pairs newly merged (in one cluster after, not before) and newly split (in one
 * cluster before, not after), each with its ground-truth label (a true pair: the same entity; a non-pair: two
 * entities). A newly merged non-pair is a false link the change made, a newly split true pair a link it lost; the other
 * two are what it fixed.
 *
 * Counts come from the joint table of (cluster, before, after) labels, never by enumerating record pairs (a run that
 * lumps 20,000 records together has 200 million pairs); the pairs themselves are listed up to a limit per kind, in
 * record order.
 *
 * Also owns the file a match-quality run leaves for this comparison, `records.jsonl.gz` in
 * reports/<run>/match-quality/<service>/: one line per record as the run posted it (its data-set ID, ground-truth
 * cluster, the link ID it ended with and the identity sent), so that `npm run compare` can list the changed pairs of
 * two run folders. It holds the run's own data only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { stringify } from 'csv-stringify/sync';
import { mdTable } from './md-table.js';

/** One record of a match-quality run as it posted it (a line of records.jsonl.gz). */
export interface PostedRecord {
  /** The record's ID in the data set (generated: r000042; a truth set: its key, e.g. CUSTOMERS/1001). */
  id: string;
  /** Its ground-truth cluster. */
  cluster: string;
  /** The link ID it ended with; null when it could not be read back. */
  linkId: string | null;
  /** The identity as posted (without the source reference). */
  identity: Record<string, unknown>;
}

export const POSTED_RECORDS_FILE = 'records.jsonl.gz';

/** Writes records.jsonl.gz into `folder`. */
export function writePostedRecords(folder: string, records: PostedRecord[]): void {
  writeFileSync(join(folder, POSTED_RECORDS_FILE), gzipSync(records.map((r) => `${JSON.stringify(r)}\n`).join('')));
}

/** The records a match-quality service folder holds, or undefined when it has no records.jsonl.gz. */
export function readPostedRecords(folder: string): PostedRecord[] | undefined {
  const file = join(folder, POSTED_RECORDS_FILE);
  if (!existsSync(file)) return undefined;
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as PostedRecord);
}

/** Pair counts of the four kinds of change. */
export interface PairFlips {
  truePairsNewlyLinked: number;
  truePairsNewlyUnlinked: number;
  nonPairsNewlyLinked: number;
  nonPairsNewlyUnlinked: number;
  /** Always false now that the flips are counted, not enumerated (kept for readers of older comparison.json files). */
  truncated: boolean;
}

/** C(n, 2): pairs among n records. */
const c2 = (n: number) => (n * (n - 1)) / 2;

/** Records per key, summed as C(n, 2) over the keys: the pairs of records that share the key. */
function pairsSharing(keys: Iterable<string>): number {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  let pairs = 0;
  for (const n of counts.values()) pairs += c2(n);
  return pairs;
}

/** A record's label in one clustering: its cluster, or one of its own when it was not read back. */
const labelOf = (l: string | null | undefined, i: number) => (l ? `\u0001${l}` : `\u0000unread ${i}`);

/**
 * Record pairs linked in one clustering and not in the other, true (same entity) or not, counted from the joint table
 * of (entity, before cluster, after cluster) instead of enumerating pairs, so memory stays with the number of records
 * however large the clusters. `a[i]` and `b[i]` are the link IDs of record i before and after (null or empty: not read
 * back, linked to nothing), `entity[i]` its ground-truth entity.
 */
export function pairFlips(entity: Array<number | string>, a: Array<string | null>, b: Array<string | null>): PairFlips {
  const ia = a.map(labelOf);
  const ib = b.map(labelOf);
  const key = (...parts: Array<string | number>) => parts.join('\u0002');
  const idx = entity.map((_, i) => i);
  const inA = pairsSharing(ia);
  const inB = pairsSharing(ib);
  const inBoth = pairsSharing(idx.map((i) => key(ia[i]!, ib[i]!)));
  const trueInA = pairsSharing(idx.map((i) => key(entity[i]!, ia[i]!)));
  const trueInB = pairsSharing(idx.map((i) => key(entity[i]!, ib[i]!)));
  const trueInBoth = pairsSharing(idx.map((i) => key(entity[i]!, ia[i]!, ib[i]!)));
  const truePairsNewlyLinked = trueInB - trueInBoth;
  const truePairsNewlyUnlinked = trueInA - trueInBoth;
  return {
    truePairsNewlyLinked,
    truePairsNewlyUnlinked,
    nonPairsNewlyLinked: inB - inBoth - truePairsNewlyLinked,
    nonPairsNewlyUnlinked: inA - inBoth - truePairsNewlyUnlinked,
    truncated: false,
  };
}

/** One record pair whose decision changed: indexes into the records compared, a before b. */
export interface ChangedPair {
  a: number;
  b: number;
}

export interface PairDecisions {
  /** Exact counts of each kind (pairFlips). */
  flips: PairFlips;
  /** The pairs, up to `limit` of each kind, in record order. */
  merged: { truePairs: ChangedPair[]; nonPairs: ChangedPair[] };
  split: { truePairs: ChangedPair[]; nonPairs: ChangedPair[] };
  limit: number;
}

/**
 * Pairs of records in one cluster of `inside` and in different clusters of `across`, split by ground truth, up to
 * `limit` of each.
 */
function pairsParted(
  truth: Array<number | string>,
  inside: string[],
  across: string[],
  limit: number,
): { truePairs: ChangedPair[]; nonPairs: ChangedPair[] } {
  const out = { truePairs: [] as ChangedPair[], nonPairs: [] as ChangedPair[] };
  const groups = new Map<string, number[]>();
  inside.forEach((l, i) => {
    if (!l.startsWith('\u0001')) return;
    const g = groups.get(l);
    if (g) g.push(i);
    else groups.set(l, [i]);
  });
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) {
        if (out.truePairs.length >= limit && out.nonPairs.length >= limit) return out;
        const i = members[x]!;
        const j = members[y]!;
        if (across[i] === across[j]) continue;
        const list = truth[i] === truth[j] ? out.truePairs : out.nonPairs;
        if (list.length < limit) list.push({ a: i, b: j });
      }
  }
  return out;
}

/**
 * The decisions that changed between two clusterings of the same records.
 * @param truth ground-truth entity (cluster) of each record
 * @param before link ID (cluster label) of each record before; null: not read back
 * @param after the same after the change
 * @param limit most pairs listed of each kind (the counts are exact whatever it is)
 */
export function changedPairs(
  truth: Array<number | string>,
  before: Array<string | null>,
  after: Array<string | null>,
  limit = 10000,
): PairDecisions {
  if (truth.length !== before.length || truth.length !== after.length)
    throw new Error('changedPairs: the clusterings label different numbers of records');
  const b = before.map(labelOf);
  const a = after.map(labelOf);
  return {
    flips: pairFlips(truth, before, after),
    merged: pairsParted(truth, a, b, limit),
    split: pairsParted(truth, b, a, limit),
    limit,
  };
}

/**
 * What the tables show of the records compared: their IDs, ground-truth clusters, link IDs before and after, and
 * identities.
 */
export interface DecisionRecords {
  ids: string[];
  truth: Array<number | string>;
  before: Array<string | null>;
  after: Array<string | null>;
  identity: (i: number) => unknown;
}

/** The four kinds of changed pair, in the order a data steward reads them: the harmful first. */
export const DECISION_KINDS = [
  {
    change: 'merged',
    label: 'non-pair',
    key: 'nonPairs',
    title: 'Newly merged non-pairs (false links the change made)',
  },
  { change: 'split', label: 'true pair', key: 'truePairs', title: 'Newly split true pairs (links the change lost)' },
  { change: 'merged', label: 'true pair', key: 'truePairs', title: 'Newly merged true pairs (links the change found)' },
  {
    change: 'split',
    label: 'non-pair',
    key: 'nonPairs',
    title: 'Newly split non-pairs (false links the change undid)',
  },
] as const;

/** Exact count of one kind of changed pair. */
export function decisionCount(d: PairDecisions, kind: (typeof DECISION_KINDS)[number]): number {
  const f = d.flips;
  if (kind.change === 'merged') return kind.key === 'truePairs' ? f.truePairsNewlyLinked : f.nonPairsNewlyLinked;
  return kind.key === 'truePairs' ? f.truePairsNewlyUnlinked : f.nonPairsNewlyUnlinked;
}

const CSV_HEAD = [
  'change',
  'ground_truth',
  'record_a',
  'record_b',
  'cluster_a',
  'cluster_b',
  'link_id_before_a',
  'link_id_before_b',
  'link_id_after_a',
  'link_id_after_b',
  'identity_a',
  'identity_b',
];

/** One row per listed pair, the kinds apart (DECISION_KINDS order). */
function rows(d: PairDecisions, r: DecisionRecords): string[][] {
  return DECISION_KINDS.flatMap((kind) =>
    d[kind.change][kind.key].map(({ a, b }) => [
      kind.change === 'merged' ? 'newly merged' : 'newly split',
      kind.label,
      r.ids[a]!,
      r.ids[b]!,
      String(r.truth[a]),
      String(r.truth[b]),
      r.before[a] ?? '',
      r.before[b] ?? '',
      r.after[a] ?? '',
      r.after[b] ?? '',
      JSON.stringify(r.identity(a)),
      JSON.stringify(r.identity(b)),
    ]),
  );
}

/**
 * The listed pairs as CSV (csv-stringify), with a header: change, ground truth, both records' IDs, clusters, link IDs
 * and identities.
 */
export const decisionsCsv = (d: PairDecisions, r: DecisionRecords): string => stringify([CSV_HEAD, ...rows(d, r)]);

/** One kind of changed pair as a report shows it: title, exact count, up to `shown` rows, and a note on the rest. */
export interface DecisionSection {
  title: string;
  total: number;
  head: string[];
  rows: string[][];
  more?: string;
}

/** The counts table (rows: newly merged, newly split; columns: true pairs, non-pairs). */
export const decisionCounts = (d: PairDecisions): { head: string[]; rows: string[][] } => ({
  head: ['', 'true pairs', 'non-pairs'],
  rows: [
    ['newly merged', String(d.flips.truePairsNewlyLinked), String(d.flips.nonPairsNewlyLinked)],
    ['newly split', String(d.flips.truePairsNewlyUnlinked), String(d.flips.nonPairsNewlyUnlinked)],
  ],
});

/** Every kind with at least one changed pair, harmful kinds first, each with up to `shown` pairs and both records. */
export function decisionSections(
  d: PairDecisions,
  r: DecisionRecords,
  shown = 20,
  csvName = 'changed-pairs.csv',
): DecisionSection[] {
  return DECISION_KINDS.flatMap((kind) => {
    const listed = d[kind.change][kind.key];
    const total = decisionCount(d, kind);
    if (!total) return [];
    const show = Math.min(shown, listed.length);
    return [
      {
        title: `${kind.title}: ${total}`,
        total,
        head: ['record', 'record', 'link IDs before', 'link IDs after', 'identity', 'identity'],
        rows: listed
          .slice(0, show)
          .map(({ a, b }) => [
            r.ids[a]!,
            r.ids[b]!,
            `${r.before[a] ?? '–'} / ${r.before[b] ?? '–'}`,
            `${r.after[a] ?? '–'} / ${r.after[b] ?? '–'}`,
            JSON.stringify(r.identity(a)),
            JSON.stringify(r.identity(b)),
          ]),
        ...(total > show
          ? {
              more:
                `… ${total - show} ` +
                `more${listed.length < total ? ` (${csvName} lists ${listed.length})` : ` in ${csvName}`}.`,
            }
          : {}),
      },
    ];
  });
}

/** The changed pairs as Markdown: the counts, then each kind's pairs (decisionSections). */
export function decisionsMarkdown(
  d: PairDecisions,
  r: DecisionRecords,
  shown = 20,
  csvName = 'changed-pairs.csv',
): string {
  const counts = decisionCounts(d);
  const L = ['### Matching decisions that changed', '', mdTable(counts.head, counts.rows)];
  for (const s of decisionSections(d, r, shown, csvName)) {
    L.push('', `#### ${s.title}`, '', mdTable(s.head, s.rows));
    if (s.more) L.push('', s.more);
  }
  return L.join('\n');
}
