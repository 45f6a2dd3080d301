/**
 * A run can never be misconfigured into a green build: each misconfiguration stops
 * `npm run conformance` (and, for the reference's settings, `npm run reference` and
 * `npm run match-quality`) with exit code 2 and one line naming it, before anything is sent (a
 * counting server given as the deployment sees no request, no vitest starts, no run folder is
 * written). A run in which no check ran exits 1 with one line saying why, and like a run whose
 * preflight failed (exit 3) leaves the report folder as it was: no run folder, reports/latest unmoved.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';
import { linesOf, runCommand } from './support/command.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
let counter: Server;
let counterUrl = '';
let hits = 0;

beforeAll(async () => {
  counter = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"content":{}}');
  });
  await new Promise<void>((r) => counter.listen(0, '127.0.0.1', () => r()));
  counterUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => counter.close(() => r())));

/** Runs the conformance command with `env`; asserts exit 2, exactly one line on stderr matching `message`, nothing sent and nothing started. */
async function refused(
  env: Record<string, string>,
  message: RegExp,
  args: string[] = [],
  script = 'run/cli/conformance.mjs',
) {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-misconf-'));
  const before = hits;
  const r = await runCommand(script, args, { CONFORMANCE_REPORT_DIR: reportDir, ...env });
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(linesOf(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(message);
  expect(r.stderr, 'no stack trace').not.toMatch(/\n\s+at /);
  expect(r.stdout, 'no run started').not.toMatch(/Conformance run|RUN/);
  expect(hits - before, 'requests the deployment received').toBe(0);
  expect(readdirSync(reportDir), 'nothing written to the report directory').toEqual([]);
  return r;
}

describe.concurrent('misconfigurations stop the run with exit code 2 and one line, before any request', () => {
  it('a misspelt service setting (ORG_BASEURL) instead of silently running the embedded reference', async () => {
    await refused(
      { ORG_BASEURL: counterUrl, ORG_TOKEN: JWT, ORG_SOURCES: 'cf_test_a' },
      /^conformance: Setting ORG_BASEURL: expected a known setting \(did you mean ORG_BASE_URL\?\)/,
    );
  });

  it('any unknown CONFORMANCE_ or REFERENCE_ variable, with the setting meant', async () => {
    await refused(
      { CONFORMANCE_EXCHANGE: 'all' },
      /Setting CONFORMANCE_EXCHANGE: .*did you mean CONFORMANCE_EXCHANGES\?/,
    );
    await refused({ REFERENCE_FAULT: 'merge-no-unify' }, /Setting REFERENCE_FAULT: .*did you mean REFERENCE_FAULTS\?/);
  });

  it('in CI, a fallback to the embedded reference while a base-URL-like variable is set', async () => {
    await refused(
      { CI: 'true', ORGANIZATION_BASE_URL: counterUrl },
      /^conformance: Setting ORGANIZATION_BASE_URL: .*in CI \(CI=true\) this run would fall back to the embedded reference.*CONFORMANCE_TARGET=embedded/,
    );
    await refused(
      { CI: 'true', ORG_BASE_URL: '', ORG_TOKEN: JWT, ORG_SOURCES: 'cf_test_a' },
      /Setting ORG_BASE_URL: .*would fall back to the embedded reference/,
    );
  });

  it('CONFORMANCE_TARGET contradicting the service URLs', async () => {
    await refused(
      { CONFORMANCE_TARGET: 'configured' },
      /^conformance: Setting CONFORMANCE_TARGET: expected a service URL .* but none is set/,
    );
    await refused(
      { CONFORMANCE_TARGET: 'embedded', ORG_BASE_URL: counterUrl, ORG_TOKEN: JWT, ORG_SOURCES: 'cf_test_a' },
      /Setting CONFORMANCE_TARGET: expected no service URL with CONFORMANCE_TARGET=embedded, but ORG_BASE_URL is set/,
    );
  });

  it('a misspelt nested profile member, with its path', async () => {
    const profile = join(mkdtempSync(join(tmpdir(), 'cf-misconf-')), 'profile.json');
    writeFileSync(profile, JSON.stringify({ relationship: { verbb: 'x' } }));
    await refused(
      { CONFORMANCE_PROFILE: profile, ORG_BASE_URL: counterUrl, ORG_TOKEN: JWT, ORG_SOURCES: 'cf_test_a' },
      /Setting CONFORMANCE_PROFILE: .*relationship\.verbb: not a profile member \(did you mean relationship\.verb\?\)/,
    );
  });

  it('a bad vitest shard', async () => {
    await refused({}, /^conformance: --shard: expected i\/n/, ['--shard=0/2']);
  });

  it('an option neither the command nor vitest knows (no vitest stack trace), even with a deployment configured', async () => {
    await refused(
      { ORG_BASE_URL: counterUrl, ORG_TOKEN: JWT, ORG_SOURCES: 'cf_test_a' },
      /^conformance: unknown option --bogus: neither an option of this command \(npm run conformance -- --help\) nor of vitest \(npx vitest --help\)$/m,
      ['--bogus'],
    );
  });

  it('a file filter that names no scenario file', async () => {
    await refused({}, /^conformance: "scenarios\/organisation": matches no scenario file \(/, [
      'scenarios/organisation',
    ]);
    await refused({}, /^conformance: "nosuchfile": matches no scenario file/, ['scenarios/organization', 'nosuchfile']);
  });

  const referenceCommands: Array<[string, string, RegExp]> = [
    ['conformance', 'run/cli/conformance.mjs', /^conformance: /],
    ['reference', 'run/cli/reference.ts', /^reference: /],
    ['match-quality', 'linkage/cli.ts', /^match-quality: /],
  ];
  it.each(referenceCommands)(
    '%s: an unknown REFERENCE_FAULTS name, with the fault meant',
    async (_name, script, prefix) => {
      const r = await refused(
        { REFERENCE_FAULTS: 'merge-no-unfy' },
        /Setting REFERENCE_FAULTS: unknown fault "merge-no-unfy" \(did you mean merge-no-unify\?\)/,
        [],
        script,
      );
      expect(r.stderr).toMatch(prefix);
    },
  );
  it.each(referenceCommands)('%s: an unknown REFERENCE_VARIANTS name', async (_name, script, prefix) => {
    const r = await refused(
      { REFERENCE_VARIANTS: 'no-such-variant' },
      /Setting REFERENCE_VARIANTS: unknown variant "no-such-variant"/,
      [],
      script,
    );
    expect(r.stderr).toMatch(prefix);
  });
});

// One after another, not among the concurrent cases above (they already keep both cores busy);
// collecting the suite's checks for a check ID takes a few seconds of CPU more.
describe('more misconfigurations that stop the run with exit code 2 and one line, before any request', () => {
  it("the embedded reference's settings (REFERENCE_*) with a configured deployment, instead of ignoring them", async () => {
    await refused(
      { REFERENCE_FAULTS: 'merge-no-unify', ORG_BASE_URL: counterUrl, ORG_TOKEN: JWT, ORG_SOURCES: 'cf_test_a' },
      /^conformance: Setting REFERENCE_FAULTS: expected no REFERENCE_\* setting in a run against a configured deployment \(ORG_BASE_URL is set\)/,
    );
    await refused(
      {
        REFERENCE_LATENCY_MS: '50',
        PROVIDER_BASE_URL: counterUrl,
        PROVIDER_USERNAME: 'u',
        PROVIDER_PASSWORD: 'p',
        PROVIDER_SOURCES: 'cf_test_a',
      },
      /Setting REFERENCE_LATENCY_MS: .*\(PROVIDER_BASE_URL is set\).*unset REFERENCE_LATENCY_MS/,
    );
  });

  it('a known-failures entry that names no requirement or check (a misspelt ID would excuse nothing, silently)', async () => {
    const list = join(mkdtempSync(join(tmpdir(), 'cf-misconf-')), 'staging.json');
    writeFileSync(list, JSON.stringify({ entries: [{ id: 'ORG-MERGE-EFECT', reason: 'vendor ticket ACME-123' }] }));
    await refused(
      { CONFORMANCE_KNOWN_FAILURES: list },
      /^conformance: Setting CONFORMANCE_KNOWN_FAILURES: expected entries that name a requirement ID or a check ID .*"ORG-MERGE-EFECT" names neither \(did you mean ORG-MERGE-EFFECT\?\)/,
    );
  });

  it('a known-failures check ID that names no check, with the check meant (looked up among the checks a run registers)', async () => {
    const list = join(mkdtempSync(join(tmpdir(), 'cf-misconf-')), 'staging.json');
    writeFileSync(
      list,
      JSON.stringify({ entries: [{ id: 'organization/search/a-search-wit-an-exact-copy', reason: 'x' }] }),
    );
    await refused(
      { CONFORMANCE_KNOWN_FAILURES: list },
      /"organization\/search\/a-search-wit-an-exact-copy" names neither \(did you mean organization\/search\/a-search-with-an-exact-copy/,
    );
  }, 120000);
});

/** A report folder holding an earlier run, with reports/latest pointing at it. */
function reportsWithEarlierRun(): { dir: string; listing: () => string[]; latest: () => string } {
  const dir = mkdtempSync(join(tmpdir(), 'cf-nocheck-'));
  mkdirSync(join(dir, 'earlier-run'));
  writeFileSync(join(dir, 'earlier-run', 'summary.json'), '{}');
  symlinkSync('earlier-run', join(dir, 'latest'), 'dir');
  return { dir, listing: () => readdirSync(dir).sort(), latest: () => readlinkSync(join(dir, 'latest')) };
}

describe('a run in which no check ran exits 1 with one line saying why, and leaves the report folder as it was', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ faults: [] });
  });
  afterAll(() => ref.stop());

  it('a name filter that matches nothing', async () => {
    const reports = reportsWithEarlierRun();
    const r = await runCommand('run/cli/conformance.mjs', ['-t', 'nonexistentpattern'], {
      CONFORMANCE_REPORT_DIR: reports.dir,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(linesOf(r.stderr).at(-1)).toMatch(
      /^conformance: no check ran: the filters \(-t nonexistentpattern\) matched none of the \d+ checks$/,
    );
    expect(reports.listing(), 'no run folder left behind').toEqual(['earlier-run', 'latest']);
    expect(reports.latest(), 'reports/latest still names the last real run').toBe('earlier-run');
    expect(r.stdout, 'no report named').not.toMatch(/report\.html|exchanges\/|: PASS/);
  });

  it('every check that matched was omitted (the filter names a service that is not configured)', async () => {
    const reports = reportsWithEarlierRun();
    const env = {
      ORG_BASE_URL: ref.url,
      ORG_TOKEN: ref.token,
      ORG_SOURCES: 'cf_test_a,cf_test_b',
      CONFORMANCE_REPORT_DIR: reports.dir,
    };
    const r = await runCommand('run/cli/conformance.mjs', ['scenarios/person/envelope.test.ts'], env);
    expect(r.code, r.stderr).toBe(1);
    expect(linesOf(r.stderr).at(-1)).toMatch(
      /^conformance: no check ran: every check that matched was omitted \(person service not configured for this run\)$/,
    );
    expect(r.stdout).toMatch(
      /target: configured deployment: organization at http:\/\/127\.0\.0\.1:\d+\/provider-link-ws\/svc; person not configured; provider not configured/,
    );
    expect(reports.listing()).toEqual(['earlier-run', 'latest']);
    expect(reports.latest()).toBe('earlier-run');
  });

  it('an unreachable deployment (preflight, exit code 3) leaves no run folder either', async () => {
    const reports = reportsWithEarlierRun();
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    const env = {
      ORG_BASE_URL: `http://127.0.0.1:${port}`,
      ORG_TOKEN: JWT,
      ORG_SOURCES: 'cf_test_a',
      CONFORMANCE_REPORT_DIR: reports.dir,
    };
    const r = await runCommand('run/cli/conformance.mjs', [], env);
    expect(r.code, r.stderr).toBe(3);
    expect(linesOf(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^conformance: preflight: the organization service at .* is unreachable .*No check was run\.$/m,
    );
    expect(reports.listing()).toEqual(['earlier-run', 'latest']);
    expect(reports.latest()).toBe('earlier-run');
    // A report folder the run would have created is not left behind empty either.
    const fresh = join(mkdtempSync(join(tmpdir(), 'cf-nocheck-')), 'reports');
    expect((await runCommand('run/cli/conformance.mjs', [], { ...env, CONFORMANCE_REPORT_DIR: fresh })).code).toBe(3);
    expect(existsSync(fresh)).toBe(false);
  });
});
