/**
 * One match-quality benchmark run against one service: builds the data set, posts the records through the harness
 * client (guard, run-namespaced native IDs, ledger), searches the sampled query records before posting them (so a query
 * never scores against itself), reads the link ID of every record back by nativeIdQuery (a record named among the
 * sources of an identity already read takes its link ID without a request of its own), and hard-deletes everything
 * through the ledger. The corruption log and ground truth stay in the report folder; the API only ever sees the
 * records' identities.
 *
 * Repeatability: how an incremental matcher links a record depends on which records it already holds, so posts go in
 * the data set's fixed order, one at a time by default (`postConcurrency` 1): with the same seed the embedded reference
 * then ends with the same clustering every run, which `--compare` relies on. Concurrent posting is not order-safe even
 * across entities: if records A, B, C of three look-alike entities satisfy A~B and B~C but not A~C, the order A, B, C
 * gives one cluster {A, B, C} and A, C, B gives two; more than `maxInFlight` posts are never in flight. Reads, searches
 * and the clean-up do not change the clustering and run `maxInFlight` at a time. Every phase takes its records in order
 * with that many requests alive (linkage/bounded.ts), never a queued promise per record.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { postContent } from '../generators/common.js';
import { type Dataset, type PresetName, buildDataset } from './data/dataset.js';
import { type LinkageService, linkageService } from './data/wire.js';
import type { ServiceName } from '../specs/common/model.js';
import type { SourceRef } from '../specs/common/wire.js';
import { ServiceClient } from '../harness/client.js';
import type { Reply } from '../harness/reply.js';
import type { Profile } from '../harness/profile.js';
import type { RunContext } from '../harness/run.js';
import type { ServiceTarget } from '../harness/config.js';
import { type Analysis, type SearchPair, analyse } from './analysis.js';
import { forEachBounded } from './bounded.js';
import { removeRunRecords } from './cleanup.js';
import { type ProgressFactory, quietProgress } from './progress.js';
import { type PostedRecord, writePostedRecords } from '../report/pair-decisions.js';

/** The truth set a run measured (absent for generated data): its format, files and content digest. */
export interface TruthSetInfo {
  format: 'senzing' | 'plain';
  records: string[];
  key: string;
  sha256: string;
}

export interface BenchmarkOptions {
  service: ServiceName;
  preset: PresetName | 'truth-set';
  size: number;
  seed: number;
  /** Entities whose last record is searched before it is posted. */
  searchSample: number;
  maxSearchResults: number;
  resamples: number;
  target: ServiceTarget;
  profile: Profile;
  run: RunContext;
  maxInFlight: number;
  /** Posts in flight at once (default 1: deterministic order; more trades repeatability for speed). */
  postConcurrency?: number;
  timeoutMs: number;
  /** Folder for this benchmark's outputs (corruption log etc.). */
  folder: string;
  progress?: ProgressFactory;
  /**
   * A data set built already (a truth set: linkage/truth/truth-set.ts), instead of one generated from preset, size and
   * seed.
   */
  dataset?: Dataset;
  /** The truth set `dataset` comes from, recorded in the results. */
  truthSet?: TruthSetInfo;
}

export interface Observation {
  /** Link ID per record id (absent when the record could not be posted or read back). */
  labels: Map<string, string>;
  search: SearchPair[];
  /**
   * Search results returned, and those whose records could be told neither by identityGroupedBySource nor by link ID.
   */
  searchResults: { returned: number; unmapped: number };
  failures: {
    post: number;
    read: number;
    search: number;
    examples: Array<{ operation: string; status?: number; error?: string; message?: unknown }>;
  };
  timings: { postMs: number; searchMs: number; readMs: number; cleanupMs: number };
}

export interface BenchmarkResult {
  /** The options that decide the data and the figures, as the run took them. */
  options: Pick<
    BenchmarkOptions,
    'service' | 'preset' | 'size' | 'seed' | 'searchSample' | 'maxSearchResults' | 'resamples' | 'truthSet'
  > & { postConcurrency: number };
  target: { baseUrl: string; servicePath: string; embedded: boolean };
  runId: string;
  dataset: Dataset;
  observation: Observation;
  analysis: Analysis;
  cleanup: { deleted: number; alreadyGone: number; failures: number };
  /** Every record as posted, with its ground-truth cluster and the link ID it ended with (also records.jsonl.gz). */
  posted: PostedRecord[];
}

const sourceKey = (s: { name?: unknown; id?: unknown }) => `${s?.name}\u0000${s?.id}`;
const failure = (r: Reply, operation: string) => ({
  operation,
  status: r.status,
  error: r.exchange.error,
  message: r.body?.errors ?? r.body?.message,
});

/**
 * Writes the ground truth and corruption log of every record, one JSON line each, streamed (a line is made when the
 * file can take it).
 */
async function writeCorruptionLog(folder: string, dataset: Dataset, sources: Map<string, SourceRef>): Promise<void> {
  mkdirSync(folder, { recursive: true });
  function* lines() {
    for (const r of dataset.records) {
      const { hardNegative } = dataset.entities[r.entity]!;
      const { id, entity, kind, index, ops } = r;
      yield `${JSON.stringify({ record: id, source: sources.get(id), entity, kind, index, hardNegative, ops })}\n`;
    }
  }
  await pipeline(Readable.from(lines()), createWriteStream(join(folder, 'corruption-log.jsonl')));
}

/** What the phases of one run share: its options, client and post bound, each record's source, where failures go. */
interface Run {
  o: BenchmarkOptions;
  client: ServiceClient;
  progress: ProgressFactory;
  /** Posts in flight at once, within the service's bound (the client's maxInFlight) whatever is asked. */
  postConcurrency: number;
  sources: Map<string, SourceRef>;
  recordOfSource: Map<string, string>;
  identityOf: (id: string) => Record<string, unknown>;
  failures: Observation['failures'];
  note: (kind: 'post' | 'read' | 'search', r: Reply, operation: string) => void;
}

/** The client of a run, and a source in the run namespace for every record (round-robin over the test sources). */
function startRun(o: BenchmarkOptions, spec: LinkageService, dataset: Dataset): Run {
  const client = new ServiceClient(o.target, o.profile, o.run, { timeoutMs: o.timeoutMs, maxInFlight: o.maxInFlight });
  const wireProfile = {
    providerTypeMember:
      (o.profile as Profile & { provider?: { typeMember?: string } }).provider?.typeMember ?? 'npis.entityTypeCode',
  };
  const sources = new Map<string, SourceRef>();
  dataset.records.forEach((r, i) =>
    sources.set(r.id, { name: o.target.sources[i % o.target.sources.length]!, id: o.run.newNativeId() }),
  );
  const failures: Observation['failures'] = { post: 0, read: 0, search: 0, examples: [] };
  const recordById = new Map(dataset.records.map((r) => [r.id, r]));
  return {
    o,
    client,
    progress: o.progress ?? quietProgress,
    postConcurrency: Math.min(o.maxInFlight, Math.max(1, o.postConcurrency ?? 1)),
    sources,
    recordOfSource: new Map([...sources].map(([rid, s]) => [sourceKey(s), rid])),
    identityOf: (id) => {
      const r = recordById.get(id)!;
      return spec.toWire(r.kind, r.fields, wireProfile);
    },
    failures,
    note: (kind, r, operation) => {
      failures[kind]++;
      if (failures.examples.length < 5) failures.examples.push(failure(r, operation));
    },
  };
}

/** Posts the records `ids` in their order, `postConcurrency` at a time. */
async function postAll(run: Run, ids: string[], label: string): Promise<void> {
  const bar = run.progress(label, ids.length);
  await forEachBounded(ids, run.postConcurrency, async (id) => {
    const content = postContent(run.identityOf(id), run.sources.get(id)!, run.o.profile.sourcePlacement);
    const r = await run.client.call('postIdentity', content);
    if (r.success !== true) run.note('post', r, 'postIdentity');
    bar.tick();
  });
  bar.stop();
}

/**
 * Link ID of each record, read back by nativeIdQuery (absent when it cannot be read). A reply naming the identity's
 * sources (identityGroupedBySource) gives the link ID of every record of the run among them too: nothing changes the
 * clustering while the reads run, so reading those records again would return the same link ID, and their own
 * requests are skipped.
 */
async function readLinkIds(run: Run, ids: string[], label: string): Promise<Map<string, string>> {
  const wanted = new Set(ids);
  const out = new Map<string, string>();
  const bar = run.progress(label, ids.length);
  await forEachBounded(ids, run.o.maxInFlight, async (id) => {
    if (out.has(id)) return bar.tick();
    const s = run.sources.get(id)!;
    const r = await run.client.call('nativeIdQuery', { source: { name: s.name, id: s.id } });
    bar.tick();
    const linkId = r.content?.linkId;
    if (r.success !== true || typeof linkId !== 'string' || !linkId) return run.note('read', r, 'nativeIdQuery');
    out.set(id, linkId);
    const grouped = r.content?.identityGroupedBySource;
    for (const m of Array.isArray(grouped) ? grouped : []) {
      const other = run.recordOfSource.get(sourceKey(m?.source ?? {}));
      if (other && wanted.has(other) && !out.has(other)) out.set(other, linkId);
    }
  });
  bar.stop();
  return out;
}

/**
 * Searches each query record before it is posted. Search results map to records by the sources they name
 * (identityGroupedBySource). A result naming none (the member is often left null unless the GROUP_BY_SOURCE view is
 * asked for) maps by its link ID to the records `posted` read back with it; those link IDs are read only when such a
 * result comes, still before the sample is posted, so they are the ones the search saw.
 */
async function searchSample(run: Run, queries: string[], posted: string[]) {
  const search: SearchPair[] = [];
  const byLinkId: Array<{ query: string; linkId: string; score: number }> = [];
  const searchResults = { returned: 0, unmapped: 0 };
  const t0 = Date.now();
  const bar = run.progress('searching sample', queries.length);
  await forEachBounded(queries, run.o.maxInFlight, async (query) => {
    const r = await run.client.call('demographicsSearch', {
      identity: run.identityOf(query),
      matchScoreThreshold: 0,
      maxSearchResults: run.o.maxSearchResults,
    });
    bar.tick();
    if (r.success !== true || !Array.isArray(r.content?.searchResults))
      return run.note('search', r, 'demographicsSearch');
    for (const result of r.content.searchResults as Array<Record<string, any>>) {
      const score = Number(result?.matchScore);
      if (!Number.isFinite(score)) continue;
      searchResults.returned++;
      const members = Array.isArray(result.identityGroupedBySource) ? result.identityGroupedBySource : [];
      const bySource = members
        .map((m: any) => run.recordOfSource.get(sourceKey(m?.source ?? {})))
        .filter((c: string | undefined): c is string => Boolean(c));
      if (!bySource.length) byLinkId.push({ query, linkId: String(result.linkId), score });
      for (const candidate of bySource) if (candidate !== query) search.push({ query, candidate, score });
    }
  });
  bar.stop();
  const t1 = Date.now();
  if (byLinkId.length) {
    const recordsOfLink = new Map<string, string[]>();
    for (const [id, linkId] of await readLinkIds(run, posted, 'reading link IDs of search results'))
      recordsOfLink.set(linkId, [...(recordsOfLink.get(linkId) ?? []), id]);
    for (const { query, linkId, score } of byLinkId) {
      const candidates = recordsOfLink.get(linkId) ?? [];
      if (!candidates.length) searchResults.unmapped++;
      for (const candidate of candidates) if (candidate !== query) search.push({ query, candidate, score });
    }
  }
  return { search, searchResults, searchMs: t1 - t0, linkReadMs: byLinkId.length ? Date.now() - t1 : 0 };
}

/** Hard-deletes through the ledger (every postIdentity was recorded there before it was sent). */
async function removeAll(o: BenchmarkOptions): Promise<BenchmarkResult['cleanup']> {
  const swept = await removeRunRecords(o.run, { [o.service]: o.target }, o.profile, {
    timeoutMs: o.timeoutMs,
    maxInFlight: o.maxInFlight,
  });
  return { deleted: swept.sources.deleted, alreadyGone: swept.sources.alreadyGone, failures: swept.failures.length };
}

export async function runBenchmark(o: BenchmarkOptions): Promise<BenchmarkResult> {
  const spec = linkageService(o.service);
  if (!spec) throw new Error(`The match-quality benchmark has no entry for service ${o.service}`);
  const dataset =
    o.dataset ??
    buildDataset({
      preset: o.preset as PresetName,
      size: o.size,
      seed: o.seed,
      kinds: spec.kinds,
      searchSample: o.searchSample,
    });
  const run = startRun(o, spec, dataset);
  await writeCorruptionLog(o.folder, dataset, run.sources);

  const sample = new Set(dataset.searchSample);
  const t0 = Date.now();
  const posted = dataset.records.filter((r) => !sample.has(r.id)).map((r) => r.id);
  await postAll(run, posted, 'posting records');
  const t1 = Date.now();
  const { search, searchResults, searchMs, linkReadMs } = await searchSample(run, dataset.searchSample, posted);
  const t1p = Date.now();
  await postAll(run, dataset.searchSample, 'posting sample');
  const t2 = Date.now();
  const labels = await readLinkIds(
    run,
    dataset.records.map((r) => r.id),
    'reading link IDs',
  );
  const t3 = Date.now();
  await run.client.close();
  const cleanup = await removeAll(o);
  const t4 = Date.now();

  const analysis = analyse(dataset, labels, search, { resamples: o.resamples, seed: o.seed });
  // The records as posted, for the decisions a later comparison lists (report/pair-decisions.ts).
  const asPosted: PostedRecord[] = dataset.records.map((r) => ({
    id: r.id,
    cluster: dataset.entities[r.entity]!.label ?? `e${r.entity}`,
    linkId: labels.get(r.id) ?? null,
    identity: run.identityOf(r.id),
  }));
  writePostedRecords(o.folder, asPosted);
  return {
    options: {
      service: o.service,
      preset: o.preset,
      size: o.size,
      seed: o.seed,
      searchSample: o.searchSample,
      maxSearchResults: o.maxSearchResults,
      resamples: o.resamples,
      postConcurrency: run.postConcurrency,
      ...(o.truthSet ? { truthSet: o.truthSet } : {}),
    },
    target: { baseUrl: o.target.baseUrl, servicePath: o.target.servicePath, embedded: o.target.embedded },
    runId: o.run.runId,
    dataset,
    observation: {
      labels,
      search,
      searchResults,
      failures: run.failures,
      timings: { postMs: t1 - t0 + (t2 - t1p), searchMs, readMs: t3 - t2 + linkReadMs, cleanupMs: t4 - t3 },
    },
    analysis,
    cleanup,
    posted: asPosted,
  };
}
