/**
 * Figures drawn from a run's recorded exchanges (exchanges/: full exchanges or their summary lines,
 * harness/exchange-file.ts): latency per operation (p50, p95, max in ms, and every reply's time, from each exchange's
 * durationMs) and the match scores of the run's search results (every `content.searchResults[].matchScore` of a
 * successful demographicsSearch reply; organization-identity-api.md, "Search result": matchScore is a number in [0,
 * 1]).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { mean, quantileSorted } from 'simple-statistics';
import { type ExchangeLine, exchangeLine, isExchangesFile, readExchangesFile } from '../harness/exchange-file.js';
import type { Exchange } from '../harness/reply.js';

/**
 * How an exchange line's error reads when the circuit breaker kept the request from being sent: harness/transport.ts
 * CIRCUIT_OPEN, the part before its first colon (harness/exchange-file.ts exchangeLine), written here so that reading a
 * run's figures does not load the transport (test/compare-runs.test.ts holds the two equal).
 */
export const CIRCUIT_OPEN_LINE = 'circuit open';

export { searchScores } from '../harness/exchange-file.js';

export interface LatencyStat {
  service: string;
  operation: string;
  /** Exchanges that got a reply (transport failures are not timed). */
  n: number;
  p50: number;
  p95: number;
  max: number;
  /** Every reply's time, ms, sorted ascending (compare tests them against another run's; schema 6). */
  durations?: number[];
}

export interface ScoreStat {
  service: string;
  n: number;
  min: number;
  p50: number;
  mean: number;
  max: number;
  /** Counts in ten equal bins over [0, 1]; bin i holds scores in [i/10, (i+1)/10), the last also 1. */
  histogram: number[];
  /** Every score, sorted ascending (compare reads them for a two-sample distance). */
  scores: number[];
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Per service, the requests that got no reply: kept from being sent by the open circuit breaker, timed out, other. */
export interface NoReplyStat {
  service: string;
  circuitOpen: number;
  timeout: number;
  other: number;
}

export interface RunStats {
  latency: LatencyStat[];
  matchScores: ScoreStat[];
  /** Requests without a reply, per service with any (absent in summaries written before they were counted). */
  noReply?: NoReplyStat[];
}

/**
 * Percentile of an ascending list (p in 0..100) by linear interpolation between closest ranks (R type 7, numpy's
 * default; simple-statistics quantileSorted), rounded to 0.001; 0 for an empty list.
 */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return round(quantileSorted(sorted, p / 100));
}

/** The summary line of every exchange recorded in a run folder (unreadable files are skipped). */
export function readExchanges(folder: string): ExchangeLine[] {
  const dir = join(folder, 'exchanges');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(isExchangesFile)
    .sort()
    .flatMap((f) => readExchangesFile(join(dir, f)).lines);
}

/** Latency and score figures of exchanges, given in full or as summary lines. */
export function computeStats(exchanges: Array<Exchange | ExchangeLine>): RunStats {
  const durations = new Map<string, number[]>();
  const scores = new Map<string, number[]>();
  const noReply = new Map<string, NoReplyStat>();
  for (const x of exchanges) {
    const e: ExchangeLine = 'request' in x ? exchangeLine(x) : x;
    if (e.error !== undefined) {
      let n = noReply.get(e.service);
      if (!n) noReply.set(e.service, (n = { service: e.service, circuitOpen: 0, timeout: 0, other: 0 }));
      n[e.error === CIRCUIT_OPEN_LINE ? 'circuitOpen' : e.error === 'timeout' ? 'timeout' : 'other']++;
    }
    if (e.status !== undefined && e.error === undefined) {
      const key = `${e.service}\u0000${e.operation}`;
      let list = durations.get(key);
      if (!list) durations.set(key, (list = []));
      list.push(e.durationMs);
    }
    const s = e.scores ?? [];
    if (s.length) {
      let list = scores.get(e.service);
      if (!list) scores.set(e.service, (list = []));
      list.push(...s);
    }
  }
  const latency = [...durations.entries()]
    .map(([key, list]) => {
      const [service, operation] = key.split('\u0000') as [string, string];
      const sorted = [...list].sort((a, b) => a - b);
      return {
        service,
        operation,
        n: sorted.length,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        max: sorted[sorted.length - 1]!,
        durations: sorted,
      };
    })
    .sort((a, b) => a.service.localeCompare(b.service) || a.operation.localeCompare(b.operation));
  const matchScores = [...scores.entries()]
    .map(([service, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      const histogram = new Array<number>(10).fill(0);
      for (const s of sorted) histogram[Math.min(9, Math.floor(s * 10))]!++;
      return {
        service,
        n: sorted.length,
        min: sorted[0]!,
        p50: percentile(sorted, 50),
        mean: round(mean(sorted)),
        max: sorted[sorted.length - 1]!,
        histogram,
        scores: sorted,
      };
    })
    .sort((a, b) => a.service.localeCompare(b.service));
  return {
    latency,
    matchScores,
    noReply: [...noReply.values()].sort((a, b) => a.service.localeCompare(b.service)),
  };
}
