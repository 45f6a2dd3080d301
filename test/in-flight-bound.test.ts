/**
 * CONFORMANCE_MAX_IN_FLIGHT bounds the requests in flight to a service for the whole run, whatever
 * the number of scenario files run at once (harness/shared-limit.ts): a configured run with four files at once and a bound
 * of 3, through a proxy that counts the requests open at once, never has more than 3 open and
 * reaches 3 (the files pool the bound rather than each taking a share).
 * Source: README, settings (CONFORMANCE_MAX_IN_FLIGHT, CONFORMANCE_FILES_AT_ONCE).
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';
import { REFERENCE_SOURCES } from '../run/deployments.js';
import { type SuiteRun, runSuite } from './support/run-suite.js';

const BOUND = 3;
let ref: RunningReference;
let proxy: Server;
let run: SuiteRun;
let open = 0;
let most = 0;

/** Forwards every request to the reference and counts how many are open at once. */
async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  open++;
  most = Math.max(most, open);
  try {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    const r = await request(`${ref.url}${req.url}`, {
      method: req.method as 'POST',
      headers,
      body: Buffer.concat(chunks),
    });
    const body = Buffer.from(await r.body.arrayBuffer());
    res.writeHead(r.statusCode, { 'content-type': String(r.headers['content-type'] ?? 'application/json') });
    res.end(body);
  } finally {
    open--;
  }
}

beforeAll(async () => {
  // A little latency makes the checks' requests overlap as they would against a distant deployment.
  ref = await startReference({ latencyMs: 15 });
  proxy = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const profile = join(mkdtempSync(join(tmpdir(), 'cf-inflight-')), 'profile.json');
  writeFileSync(profile, JSON.stringify({ notifications: { clockSkewMs: 0 } }));
  run = await runSuite(
    [
      'scenarios/organization/envelope',
      'scenarios/organization/search',
      'scenarios/organization/merge-link',
      'scenarios/organization/lifecycle',
      'scenarios/organization/metamorphic',
    ],
    {
      ORG_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      ORG_TOKEN: ref.token,
      ORG_SOURCES: REFERENCE_SOURCES.join(','),
      CONFORMANCE_PROFILE: profile,
      CONFORMANCE_MAX_IN_FLIGHT: String(BOUND),
      CONFORMANCE_FILES_AT_ONCE: '4',
    },
    300000,
  );
}, 320000);
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await ref?.stop();
});

describe('CONFORMANCE_MAX_IN_FLIGHT with four files at once', () => {
  it(`never has more than ${BOUND} requests open to the service, and reaches ${BOUND}`, () => {
    expect(run.summary, run.stderr.slice(-2000)).toBeDefined();
    expect(run.summary!.totals.checks).toBeGreaterThan(40);
    expect(run.summary!.checks.filter((c) => c.verdict === 'fail').map((c) => c.checkId)).toEqual([]);
    expect(most).toBeLessThanOrEqual(BOUND);
    expect(most).toBe(BOUND);
  });
});
