/**
 * Records the teardown cannot remove are never silent: the run lists each by source name and
 * native ID and exits 4 (run/outcome.ts); `npm run cleanup -- --run <id>` lists what still
 * remains and exits 1, and exits 0 once everything is gone, counting from the ledger what it removed now apart from what
 * was removed before (never asked for again); for a merged run it finds the shards' ledgers. The deployment is the reference
 * behind a proxy that refuses hard deletes (a record stays) until the test lets them through.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';
import { linesOf, runCommand } from './support/command.js';

let ref: RunningReference;
let proxy: Server;
let proxyUrl = '';
let refuseDeletes = true;

beforeAll(async () => {
  ref = await startReference({ faults: [] });
  proxy = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      if (refuseDeletes && req.url?.endsWith('/deleteSourceIdentity')) {
        const r = JSON.parse(body || '{}');
        res.writeHead(409, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            auditId: r.auditId,
            trackingId: r.trackingId,
            success: false,
            message: 'record is locked',
            errors: ['record is locked'],
            warnings: [],
            retryableError: false,
            unparsedJson: null,
            content: null,
          }),
        );
        return;
      }
      const upstream = await request(`${ref.url}${req.url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        },
        body,
      });
      res
        .writeHead(upstream.statusCode, {
          'content-type': String(upstream.headers['content-type'] ?? 'application/json'),
        })
        .end(await upstream.body.text());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  await ref.stop();
});

const ours = (runId: string) =>
  [...ref.stores.get('organization')!.records.values()].filter((r) => r.source.id.startsWith(`cf-${runId}-`));

describe('records the teardown could not remove', () => {
  it('are listed by source name and native ID, the run exits 4, and npm run cleanup removes them once it can', async () => {
    const runId = `leftover-${Date.now().toString(36)}`;
    const env = {
      ORG_BASE_URL: proxyUrl,
      ORG_TOKEN: ref.token,
      ORG_SOURCES: 'cf_test_a,cf_test_b',
      CONFORMANCE_REPORT_DIR: mkdtempSync(join(tmpdir(), 'cf-leftover-')),
      CONFORMANCE_RUN_ID: runId,
    };
    const run = await runCommand(
      'run/cli/conformance.mjs',
      ['scenarios/organization/post.test.ts', '-t', 'events'],
      env,
    );
    const left = ours(runId);
    expect(left.length, 'records the refused deletes left behind').toBeGreaterThan(0);
    expect(run.code, run.stderr).toBe(4);
    const lines = linesOf(run.stderr);
    const header = lines.findIndex((l) =>
      l.startsWith(`conformance: the teardown could not remove ${left.length} record(s) of run ${runId}`),
    );
    expect(header, run.stderr).toBeGreaterThanOrEqual(0);
    expect(lines[header]).toContain(`npm run cleanup -- --run ${runId}`);
    for (const r of left)
      expect(lines.slice(header + 1)).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^  organization source ${r.source.name}/${r.source.id}: removal rejected and the record is still there`,
          ),
        ),
      );

    const still = await runCommand('run/cli/cleanup.ts', ['--run', runId], env);
    expect(still.code, still.stderr).toBe(1);
    expect(linesOf(still.stderr)[0]).toBe(`cleanup: ${left.length} record(s) remain on the deployment:`);
    for (const r of left) expect(still.stderr).toContain(`  organization source ${r.source.name}/${r.source.id}: `);

    refuseDeletes = false;
    const done = await runCommand('run/cli/cleanup.ts', ['--run', runId], env);
    expect(done.code, done.stderr).toBe(0);
    expect(ours(runId)).toEqual([]);
    // Counted from the ledger: what it removed now, apart from what the run's teardown had removed.
    const { attempted } = JSON.parse(readFileSync(join(env.CONFORMANCE_REPORT_DIR, runId, 'summary.json'), 'utf8'))
      .cleanup.sources;
    expect(done.stdout.trim()).toBe(
      `cleanup of run ${runId}: sources ${left.length} deleted now, 0 already gone${
        attempted > left.length ? `, ${attempted - left.length} removed before (ledger)` : ''
      }, of ${attempted}; relationships 0 deleted now, 0 already gone, of 0`,
    );
    // Once more: the ledger says everything is removed; nothing is asked for again, and the count says so.
    const sent = ref.requestsReceived().organization;
    const again = await runCommand('run/cli/cleanup.ts', ['--run', runId], env);
    expect(again.code, again.stderr).toBe(0);
    expect(ref.requestsReceived().organization - sent).toBe(0);
    expect(again.stdout.trim()).toBe(
      `cleanup of run ${runId}: nothing to remove: the ledger shows every record the run created removed already ` +
        `(${attempted} sources, 0 relationships); no request sent`,
    );
  }, 120000);

  it("npm run cleanup -- --run <merged run id> finds the shards' ledgers in the merged run folder (a CI report job's)", async () => {
    refuseDeletes = true;
    const runId = `leftmerge-${Date.now().toString(36)}`;
    const shardsDir = mkdtempSync(join(tmpdir(), 'cf-leftover-shards-'));
    const env = {
      ORG_BASE_URL: proxyUrl,
      ORG_TOKEN: ref.token,
      ORG_SOURCES: 'cf_test_a,cf_test_b',
      CONFORMANCE_REPORT_DIR: shardsDir,
      CONFORMANCE_RUN_ID: runId,
    };
    const files = ['scenarios/organization/post.test.ts', 'scenarios/organization/query.test.ts'];
    const filter = ['-t', 'events as an array|found through nativeIdQuery'];
    for (const i of [1, 2]) {
      const shard = await runCommand('run/cli/conformance.mjs', [...files, ...filter, `--shard=${i}/2`], env);
      expect(shard.code, shard.stderr).toBe(4);
    }
    const left = ours(runId);
    expect(new Set(left.map((r) => r.source.id.split('-')[3]))).toEqual(new Set(['s1of2', 's2of2']));
    // The report job's machine: only the merged run folder, made from the downloaded shards.
    const merged = mkdtempSync(join(tmpdir(), 'cf-leftover-merged-'));
    const merge = await runCommand(
      'run/cli/report-merge.ts',
      ['--out', merged, '--run-id', runId, join(shardsDir, `${runId}-s1of2`), join(shardsDir, `${runId}-s2of2`)],
      env,
    );
    expect(merge.code, merge.stderr).toBe(4);
    refuseDeletes = false;
    const done = await runCommand('run/cli/cleanup.ts', ['--run', runId], { ...env, CONFORMANCE_REPORT_DIR: merged });
    expect(done.code, done.stderr).toBe(0);
    expect(ours(runId)).toEqual([]);
    const lines = linesOf(done.stdout);
    expect(lines.filter((l) => l.startsWith(`cleanup of shard ${runId}-s`))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^cleanup of run ${runId} \\(2 shards\\): sources ${left.length} deleted now, `),
    );
  }, 180000);
});
