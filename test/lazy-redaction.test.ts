/**
 * A reply's redacted copy is made when its exchange is first read in full, not for every reply
 * (harness/transport.ts bodyWhenRead): a passing check whose exchanges are written as summary
 * lines (CONFORMANCE_EXCHANGES=failing) makes none, and its lines still carry the reply's success
 * and match scores; a check whose exchanges are written in full makes the copy, other people's
 * data replaced by a stub.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { ServiceClient } from '../harness/client.js';
import { readExchangesFile, writeExchanges } from '../harness/exchange-file.js';
import { loadProfile } from '../harness/profile.js';
import type { Exchange } from '../harness/reply.js';
import { RunContext } from '../harness/run.js';
import { type FaultyServer, startFaultyServer } from './support/faulty-server.js';
import { localClient } from './support/local-client.js';

const copies = vi.hoisted(() => ({ made: 0 }));
vi.mock('../harness/redact-foreign.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../harness/redact-foreign.js')>();
  return {
    ...original,
    redactForeign: (...args: Parameters<typeof original.redactForeign>) => {
      copies.made++;
      return original.redactForeign(...args);
    },
  };
});

const SEARCH_CONTENT = {
  searchResults: [
    {
      linkId: 'L-someone-else',
      matchScore: 0.91,
      identity: { names: [{ name: 'Quackenbush Holdings' }] },
      identityGroupedBySource: [
        { source: { name: 'production_crm', id: 'FX-1' }, names: [{ name: 'Quackenbush Holdings' }] },
      ],
    },
  ],
};
let server: FaultyServer;
let client: ServiceClient;
let run: RunContext;

beforeAll(async () => {
  server = await startFaultyServer([{ kind: 'ok', content: SEARCH_CONTENT }]);
  run = new RunContext('lazytest', mkdtempSync(join(tmpdir(), 'cf-lazy-')));
  client = localClient(server.url, loadProfile(), run, { timeoutMs: 2000, maxInFlight: 2 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

async function search(): Promise<Exchange> {
  let seen: Exchange | undefined;
  const reply = await client.call(
    'demographicsSearch',
    { identity: { names: [{ name: 'Quackenbush' }] } },
    { record: (e) => (seen = e) },
  );
  expect(JSON.stringify(reply.body)).toContain('Quackenbush'); // the check reads the reply as it came
  return seen!;
}

it("a passing check's exchange lines make no redacted copy, and keep the reply's success and match scores", async () => {
  const e = await search();
  const before = copies.made;
  const file = writeExchanges(run.folder, 'organization/lazy/lines', [e], false)!;
  expect(copies.made).toBe(before);
  expect(readExchangesFile(file).lines).toEqual([
    expect.objectContaining({ operation: 'demographicsSearch', success: true, scores: [0.91] }),
  ]);
});

it('an exchange written in full is redacted when written: the stub in place of the foreign result', async () => {
  const e = await search();
  const before = copies.made;
  const file = writeExchanges(run.folder, 'organization/lazy/full', [e], true)!;
  expect(copies.made).toBe(before + 1);
  const text = JSON.stringify(readExchangesFile(file).exchanges?.[0]?.reply);
  expect(text).not.toContain('Quackenbush');
  expect(text).toContain('redacted: content of records this run did not create');
  expect(text).toContain('0.91');
});
