/**
 * How a check's exchanges are kept in the run folder (CONFORMANCE_EXCHANGES):
 * - in full, gzip'ed: `exchanges/<check id>.json.gz`, a JSON array of Exchange (already redacted: secrets and other
 *   people's data never reach it), for the checks whose exchanges are kept;
 * - as one summary line per exchange otherwise, gzip'ed: `exchanges/<check id>.lines.jsonl.gz`, one ExchangeLine per
 *   line: operation, status, time, retries and the match scores of a search, no request or reply content. The lines of
 *   exchanges a check kept no copy of (a walk's steps, harness/check.ts `asideLines`) go there too, beside a full file
 *   when there is one.
 * Latency per operation and the score distribution (report/stats.ts, compare) read both kinds, and the plain `.json`
 * files of older run folders.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type Exchange, bodyForKeptMembers } from './reply.js';

/** One exchange in a line: what a latency or score figure needs, nothing of the content. */
export interface ExchangeLine {
  service: string;
  operation: string;
  startedAt: string;
  durationMs: number;
  status?: number;
  success?: boolean;
  /** The transport failure's code (ECONNRESET, timeout), when there was no reply. */
  error?: string;
  retries?: number;
  /** matchScore of every result of a successful demographicsSearch reply. */
  scores?: number[];
}

const FULL = '.json.gz';
const LINES = '.lines.jsonl.gz';

/** File-name stem of a check's exchanges. */
export const exchangesStem = (checkId: string) => checkId.replace(/\//g, '__');

/** Match scores of one successful search reply, or [] when the exchange is not one. */
export function searchScores(e: Exchange): number[] {
  if (e.operation !== 'demographicsSearch' || !e.reply || e.reply.status >= 300) return [];
  const body = bodyForKeptMembers(e.reply) as { success?: unknown; content?: { searchResults?: unknown } } | undefined;
  if (body?.success !== true || !Array.isArray(body.content?.searchResults)) return [];
  return (body.content.searchResults as Array<{ matchScore?: unknown }>)
    .map((r) => r?.matchScore)
    .filter((s): s is number => typeof s === 'number' && s >= 0 && s <= 1);
}

/** The summary line of an exchange. */
export function exchangeLine(e: Exchange): ExchangeLine {
  // Read without making the redacted copy (most exchanges leave only this line).
  const success = e.reply ? (bodyForKeptMembers(e.reply) as { success?: unknown } | undefined)?.success : undefined;
  const scores = searchScores(e);
  return {
    service: e.service,
    operation: e.operation,
    startedAt: e.startedAt,
    durationMs: e.durationMs,
    ...(e.reply ? { status: e.reply.status } : {}),
    ...(typeof success === 'boolean' ? { success } : {}),
    ...(e.error !== undefined ? { error: /^no reply within/.test(e.error) ? 'timeout' : e.error.split(':')[0]! } : {}),
    ...(e.retries?.length ? { retries: e.retries.length } : {}),
    ...(scores.length ? { scores } : {}),
  };
}

const lineKey = (l: ExchangeLine) => `${l.startedAt} ${l.durationMs} ${l.operation}`;

/**
 * Writes a check's exchanges into `<folder>/exchanges/`: in full when `full`, else as summary lines. `aside` (summary
 * lines of exchanges the check kept no copy of) always goes into the lines file, less those also among `exchanges`.
 * @returns the file written in full, else the lines file; undefined when there was no exchange
 */
export function writeExchanges(
  folder: string,
  checkId: string,
  exchanges: Exchange[],
  full: boolean,
  aside: ExchangeLine[] = [],
): string | undefined {
  const own = new Set(exchanges.map((e) => lineKey(exchangeLine(e))));
  const lines = [...(full ? [] : exchanges.map(exchangeLine)), ...aside.filter((l) => !own.has(lineKey(l)))];
  if (!exchanges.length && !lines.length) return undefined;
  const dir = join(folder, 'exchanges');
  mkdirSync(dir, { recursive: true });
  const write = (suffix: string, text: string) => {
    const file = join(dir, `${exchangesStem(checkId)}${suffix}`);
    writeFileSync(file, gzipSync(text));
    return file;
  };
  const fullFile = full && exchanges.length ? write(FULL, JSON.stringify(exchanges)) : undefined;
  const linesFile = lines.length ? write(LINES, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`) : undefined;
  return fullFile ?? linesFile;
}

/** True for a file of exchanges in any form this module or an older run wrote. */
export const isExchangesFile = (name: string) => name.endsWith(FULL) || name.endsWith(LINES) || name.endsWith('.json');

/**
 * Reads one exchanges file: full exchanges (gzip'ed or the plain `.json` of older runs) or summary lines.
 * @returns `exchanges` for a full file, and `lines` for either; empty for an unreadable file
 */
export function readExchangesFile(file: string): { exchanges?: Exchange[]; lines: ExchangeLine[] } {
  try {
    const raw = readFileSync(file);
    const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
    if (file.endsWith(LINES))
      return {
        lines: text
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l) as ExchangeLine),
      };
    const list = JSON.parse(text) as unknown;
    const exchanges = Array.isArray(list) ? (list as Exchange[]) : [];
    return { exchanges, lines: exchanges.map(exchangeLine) };
  } catch {
    return { lines: [] };
  }
}
