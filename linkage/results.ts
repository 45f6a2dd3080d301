/**
 * The serialisable results of a match-quality run: what `--compare` reads back as a baseline (the data set itself is
 * rebuilt from the options).
 */
import type { Analysis } from './analysis.js';
import type { BenchmarkResult } from './benchmark.js';

export const RESULTS_VERSION = 1;

/** The serialisable results of a run (the data set itself is rebuilt from options). */
export interface ResultsFile {
  version: number;
  runId: string;
  writtenAt: string;
  options: BenchmarkResult['options'];
  target: BenchmarkResult['target'];
  failures: BenchmarkResult['observation']['failures'];
  timings: BenchmarkResult['observation']['timings'];
  cleanup: BenchmarkResult['cleanup'];
  analysis: Analysis;
  /** Record ids in posting order and the link ID each ended with (null: not read back). */
  records: string[];
  linkIds: Array<string | null>;
  searchPairs: Array<[string, string, number]>;
  /** Search results returned, and those that could not be mapped to records (absent in results of older runs). */
  searchResults?: { returned: number; unmapped: number };
}

export function toResultsFile(r: BenchmarkResult): ResultsFile {
  return {
    version: RESULTS_VERSION,
    runId: r.runId,
    writtenAt: new Date().toISOString(),
    options: r.options,
    target: r.target,
    failures: r.observation.failures,
    timings: r.observation.timings,
    cleanup: r.cleanup,
    analysis: { ...r.analysis, search: { ...r.analysis.search, curve: r.analysis.search.curve } },
    records: r.dataset.records.map((x) => x.id),
    linkIds: r.dataset.records.map((x) => r.observation.labels.get(x.id) ?? null),
    searchPairs: r.observation.search.map((p) => [p.query, p.candidate, p.score]),
    searchResults: r.observation.searchResults,
  };
}
