/**
 * Exchanges kept per CONFORMANCE_EXCHANGES (harness/record.ts, harness/exchange-file.ts): in full
 * and gzip'ed for the checks that keep them, one summary line per exchange for the others, and the
 * readers (latency and score figures, a failing check's exchanges in the reports) read both and
 * the plain files of older runs.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exchangeLine, readExchangesFile, writeExchanges } from '../harness/exchange-file.js';
import { keepsInFull } from '../harness/record.js';
import type { Exchange } from '../harness/reply.js';
import { computeStats, readExchanges } from '../report/stats.js';
import { loadExchanges } from '../report/view.js';
import type { CheckResult } from '../report/results.js';

const exchange = (operation: string, durationMs: number, extra: Partial<Exchange> = {}): Exchange => ({
  service: 'organization',
  operation,
  method: 'POST',
  url: 'http://127.0.0.1:1/provider-link-ws/svc/x',
  startedAt: '2026-11-21T07:14:25.000Z',
  durationMs,
  request: {
    headers: { authorization: 'Bearer [REDACTED]' },
    body: { content: { identity: { organizationNames: [{ legalBusinessName: 'Own Co' }] } } },
  },
  reply: {
    status: 200,
    headers: {},
    body: {
      success: true,
      content:
        operation === 'demographicsSearch' ? { searchResults: [{ matchScore: 0.97 }, { matchScore: 0.41 }] } : {},
    },
  },
  ...extra,
});

const list = [
  exchange('postIdentity', 40),
  exchange('demographicsSearch', 25),
  exchange('nativeIdQuery', 7, { reply: undefined, error: 'ECONNRESET: socket hang up' }),
  exchange('postIdentity', 60, { retries: [{ reason: 'HTTP 503', durationMs: 3, waitedMs: 200 }] }),
];

describe('which checks keep their exchanges in full', () => {
  it('failing (default): checks that failed, errored or could not verify; all: every check; none: no check', () => {
    expect((['pass', 'omit', 'fail', 'error', 'skip'] as const).map((v) => keepsInFull('failing', v))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
    expect((['pass', 'fail'] as const).map((v) => keepsInFull('all', v))).toEqual([true, true]);
    expect((['pass', 'fail'] as const).map((v) => keepsInFull('none', v))).toEqual([false, false]);
  });
});

describe('exchange files', () => {
  it("a full file is gzip'ed JSON of the exchanges; a lines file holds one summary line each, without content", () => {
    const folder = mkdtempSync(join(tmpdir(), 'cf-exch-'));
    const full = writeExchanges(folder, 'organization/search/a-check', list, true)!;
    const lines = writeExchanges(folder, 'organization/search/b-check', list, false)!;
    expect(readdirSync(join(folder, 'exchanges')).sort()).toEqual([
      'organization__search__a-check.json.gz',
      'organization__search__b-check.lines.jsonl.gz',
    ]);
    expect(readExchangesFile(full).exchanges).toEqual(list);
    const read = readExchangesFile(lines);
    expect(read.exchanges).toBeUndefined();
    expect(read.lines).toEqual(list.map(exchangeLine));
    expect(read.lines[1]).toEqual({
      service: 'organization',
      operation: 'demographicsSearch',
      startedAt: list[1]!.startedAt,
      durationMs: 25,
      status: 200,
      success: true,
      scores: [0.97, 0.41],
    });
    expect(read.lines[2]).toMatchObject({ error: 'ECONNRESET' });
    expect(read.lines[3]).toMatchObject({ retries: 1 });
    expect(JSON.stringify(read.lines)).not.toContain('Own Co');
    expect(writeExchanges(folder, 'organization/search/c-check', [], true)).toBeUndefined();
  });

  it("lines kept aside (a passing walk's steps) go into the lines file beside a full file, less those also kept in full", () => {
    const folder = mkdtempSync(join(tmpdir(), 'cf-exch-'));
    const aside = list.map(exchangeLine);
    // failed: the failing step's exchange (list[0]) is kept in full; the other steps as lines only
    const full = writeExchanges(folder, 'organization/walks/w', [list[0]!], true, aside)!;
    expect(readdirSync(join(folder, 'exchanges')).sort()).toEqual([
      'organization__walks__w.json.gz',
      'organization__walks__w.lines.jsonl.gz',
    ]);
    expect(full).toMatch(/w\.json\.gz$/);
    expect(readExchangesFile(join(folder, 'exchanges', 'organization__walks__w.lines.jsonl.gz')).lines).toEqual(
      aside.slice(1),
    );
    // passed: only lines, the check's own exchanges and the aside ones together
    const lines = writeExchanges(folder, 'organization/walks/v', [], false, aside)!;
    expect(readExchangesFile(lines).lines).toEqual(aside);
  });

  it('latency and score figures are the same from summary lines as from full exchanges, and older plain files still count', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cf-exch-'));
    writeExchanges(folder, 'organization/a/one', list.slice(0, 2), true);
    writeExchanges(folder, 'organization/a/two', list.slice(2), false);
    writeFileSync(
      join(folder, 'exchanges', 'organization__a__old.json'),
      JSON.stringify([exchange('postIdentity', 50)]),
    );
    const fromFolder = computeStats(readExchanges(folder));
    const fromFull = computeStats([...list, exchange('postIdentity', 50)]);
    expect(fromFolder).toEqual(fromFull);
    expect(fromFolder.latency.find((l) => l.operation === 'postIdentity')).toMatchObject({ n: 3, max: 60 });
    expect(fromFolder.latency.find((l) => l.operation === 'nativeIdQuery')).toBeUndefined();
    expect(fromFolder.matchScores[0]).toMatchObject({ service: 'organization', n: 2, scores: [0.41, 0.97] });
  });

  it("a failing check's exchanges load for the reports from the gzip'ed file; a lines file shows none", () => {
    const folder = mkdtempSync(join(tmpdir(), 'cf-exch-'));
    const full = writeExchanges(folder, 'organization/a/failing', list, true)!;
    const lines = writeExchanges(folder, 'organization/a/passing', list, false)!;
    const check = (file: string) => ({ exchangesFile: file }) as CheckResult;
    expect(loadExchanges(folder, check(full)).map((e) => e.operation)).toEqual(list.map((e) => e.operation));
    expect(loadExchanges(folder, check(lines))).toEqual([]);
  });
});
