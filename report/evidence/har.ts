/**
 * A run's exchanges as one HTTP Archive (HAR 1.2, the format browsers' developer tools and HTTP debugging proxies
 * read): one entry per exchange kept in full in `exchanges/` (already redacted: secrets and other people's data never
 * reach those files, harness/redact.ts and harness/redact-foreign.ts), with the check it belongs to in the entry's
 * `_check`. Exchanges a run kept only as summary lines (CONFORMANCE_EXCHANGES, a walk's steps) have no content to show
 * and are counted, not listed.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isExchangesFile, readExchangesFile } from '../../harness/exchange-file.js';
import type { Exchange } from '../../harness/reply.js';

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    comment: string;
    entries: HarEntry[];
  };
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: Array<{ name: string; value: string }>;
    queryString: [];
    cookies: [];
    headersSize: -1;
    bodySize: number;
    postData: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: Array<{ name: string; value: string }>;
    cookies: [];
    content: { size: number; mimeType: string; text: string };
    redirectURL: '';
    headersSize: -1;
    bodySize: -1;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _check: string;
  _service: string;
  _operation: string;
  _retries?: Exchange['retries'];
}

const headers = (h: Record<string, string> | undefined) =>
  Object.entries(h ?? {}).map(([name, value]) => ({ name, value }));

/** One exchange as a HAR entry; a transport failure is status 0 with the error in `_error`. */
export function harEntry(checkId: string, e: Exchange): HarEntry {
  const body = JSON.stringify(e.request.body);
  const reply = e.reply ? (e.reply.body !== undefined ? JSON.stringify(e.reply.body) : (e.reply.text ?? '')) : '';
  return {
    startedDateTime: e.startedAt,
    time: e.durationMs,
    request: {
      method: e.method,
      url: e.url,
      httpVersion: 'HTTP/1.1',
      headers: headers(e.request.headers),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: Buffer.byteLength(body),
      postData: { mimeType: 'application/json', text: body },
    },
    response: {
      status: e.reply?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: headers(e.reply?.headers),
      cookies: [],
      content: {
        size: Buffer.byteLength(reply),
        mimeType: e.reply?.headers?.['content-type'] ?? 'application/json',
        text: reply,
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(e.error !== undefined ? { _error: e.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: e.durationMs, receive: 0 },
    _check: checkId,
    _service: e.service,
    _operation: e.operation,
    ...(e.retries?.length ? { _retries: e.retries } : {}),
  };
}

/**
 * The HAR of a run folder's exchanges, entries in order of time, and how many exchanges were kept as summary lines
 * only.
 * @param checkIdOf the check ID of an exchanges file's stem (summary.json's checks know it)
 */
export function runHar(
  runFolder: string,
  creator: { name: string; version: string },
  checkIdOf: (stem: string) => string,
): { har: Har; inFull: number; linesOnly: number } {
  const dir = join(runFolder, 'exchanges');
  const entries: HarEntry[] = [];
  let linesOnly = 0;
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter(isExchangesFile).sort();
  } catch {
    // no exchanges folder: a run that kept none
  }
  for (const f of files) {
    const { exchanges, lines } = readExchangesFile(join(dir, f));
    const stem = f.replace(/(\.lines\.jsonl\.gz|\.json\.gz|\.json)$/, '');
    if (exchanges) for (const e of exchanges) entries.push(harEntry(checkIdOf(stem), e));
    else linesOnly += lines.length;
  }
  entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  return {
    har: {
      log: {
        version: '1.2',
        creator,
        comment:
          `Requests and replies of the checks, redacted (secrets and other sources' identity data never kept); ` +
          `${linesOnly} exchanges were kept as summary lines only and are not listed.`,
        entries,
      },
    },
    inFull: entries.length,
    linesOnly,
  };
}
