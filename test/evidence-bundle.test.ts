/**
 * The evidence bundle and its verifier (report/evidence/): a run against the embedded reference
 * holding other sources' records (REFERENCE_FOREIGN_DATA=1) writes a bundle whose exchanges show
 * that foreign data only as redaction stubs, which the verifier finds valid; a changed file, an
 * added or removed one, a planted secret and planted foreign identity data (with the digests made
 * to match again) are each caught. The certification profile fails a run on each thing it forbids.
 */
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { IRREVERSIBLE } from '../harness/irreversible.js';
import { type Adoption, OWNED_FILE, type OwnershipRecord } from '../harness/ownership.js';
import { loadProfile } from '../harness/profile.js';
import { FOREIGN_NOTE } from '../harness/redact-foreign.js';
import { OTHER_USERS_SOURCE } from '../reference/variants/busy.js';
import type { Har } from '../report/evidence/har.js';
import { scanHar } from '../report/evidence/scan.js';
import { readPublicKey } from '../report/evidence/signature.js';
import { EVIDENCE_MISSING_EXIT } from '../report/outcome.js';
import { type CatalogueCheck, certify, notRunOnSharedDataLine } from '../report/evidence/certification.js';
import { requirementsCsv } from '../report/evidence/requirements-csv.js';
import type { KnownFailures } from '../report/known-failures.js';
import { DIGESTS_FILE, type Manifest, sha256Hex } from '../report/evidence/manifest.js';
import { verifyBundle } from '../report/evidence/verify.js';
import type { CheckResult } from '../report/results.js';
import { type RunDescription, buildSummary } from '../report/summary.js';
import { REFERENCE_SOURCES } from '../run/deployments.js';
import { requirementIndex } from '../specs/services.js';
import { runCommand } from './support/command.js';
import { type SuiteRun, runSuite } from './support/run-suite.js';

const REQS = [...requirementIndex().values()];

/** A run against a configured deployment of `service` alone. */
const configuredRun = (service: 'organization' | 'person'): RunDescription => ({
  runId: `cert-${service}`,
  seed: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  embedded: false,
  targets: (['organization', 'person', 'provider'] as const).map((s) =>
    s === service
      ? { service: s, status: 'configured', baseUrl: 'https://x', servicePath: '/s', auth: 'bearer', sources: ['a'] }
      : { service: s, status: 'not configured' },
  ),
  profile: {},
});
/** One check per testable requirement of `service`, passing unless `omitted` gives its omission note. */
const oneCheckEach = (service: string, omitted: (id: string) => string | undefined = () => undefined): CheckResult[] =>
  REQS.filter((r) => r.service === service && !r.untestable).map((r) => {
    const note = omitted(r.id);
    return {
      checkId: `${service}/area/${r.id.toLowerCase()}`,
      title: `checks ${r.id}`,
      file: `scenarios/${service}/area.test.ts`,
      service,
      area: 'area',
      verifies: [r.id],
      verdict: note ? 'omit' : 'pass',
      ...(note ? { note } : {}),
      failedRequirements: [],
      durationMs: 1,
      operations: [],
    };
  });
/** The catalogue that lists exactly these checks. */
const catalogueOf = (checks: CheckResult[]): CatalogueCheck[] =>
  checks.map((c) => ({ file: c.file, name: `${c.title} [${c.verifies.join(' ')}]` }));

describe('the certification profile', () => {
  const org = REQS.filter((r) => r.service === 'organization');
  const run = configuredRun('organization');
  /** One passing check per testable organization requirement, and the catalogue that lists exactly them. */
  const checks = () => oneCheckEach('organization');
  const catalogue = catalogueOf(checks());
  const judge = (results: CheckResult[], cat: CatalogueCheck[] | null = catalogue, known?: KnownFailures) =>
    certify(
      buildSummary(run, results, undefined, known ? { known } : {}),
      cat ?? undefined,
      cat ? undefined : 'vitest list failed',
    );

  it('passes a run of every catalogued check, all passing, with untestable MUST requirements listed, not failing', () => {
    const c = judge(checks());
    expect(c.reasons).toEqual([]);
    expect(c.passed).toBe(true);
    expect(c.services).toEqual(['organization']);
    expect(c.checksRun).toBe(c.catalogueChecks);
    expect(c.untestableMust.map((u) => u.id).sort()).toEqual(
      org
        .filter((r) => r.level === 'MUST' && r.untestable)
        .map((r) => r.id)
        .sort(),
    );
  });

  it('fails on a skipped check, an omitted check, a known failure, a MUST requirement without a check, and another check count', () => {
    const skipped = checks();
    skipped[0]!.verdict = 'skip';
    expect(judge(skipped).reasons.join('\n')).toMatch(/1 check\(s\) skipped: organization\/area\//);
    const omitted = checks();
    omitted[1]!.verdict = 'omit';
    expect(judge(omitted).reasons.join('\n')).toMatch(/1 check\(s\) omitted/);

    const failing = checks();
    const must = failing.find((c) => requirementIndex().get(c.verifies[0]!)?.level === 'MUST')!;
    must.verdict = 'fail';
    must.failedRequirements = must.verifies;
    const known = { file: 'known.json', entries: [{ id: must.verifies[0]!, reason: 'vendor ticket' }] };
    const k = judge(failing, catalogue, known as KnownFailures);
    expect(k.reasons.join('\n')).toMatch(/1 known failure\(s\) accepted/);
    expect(k.passed).toBe(false);

    const withoutOne = checks().filter((c) => c !== undefined && c.verifies[0] !== must.verifies[0]);
    const w = judge(withoutOne, catalogue);
    expect(w.reasons.join('\n')).toContain(`MUST requirement(s) without a check that ran: ${must.verifies[0]}`);
    expect(w.reasons.join('\n')).toMatch(
      new RegExp(`${withoutOne.length} check\\(s\\) ran where the catalogue has ${catalogue.length}; not run: `),
    );

    const extra = [...checks(), { ...checks()[0]!, checkId: 'organization/area/new', title: 'a check added later' }];
    expect(judge(extra).reasons.join('\n')).toMatch(/not in the catalogue: organization\/area\/new/);
    expect(judge(checks(), null).reasons.join('\n')).toContain(
      "the suite's check catalogue could not be collected (vitest list failed)",
    );
  });
});

describe('the certification profile against a configured deployment: checks it cannot run safely', () => {
  const run = configuredRun('person');
  const DATA_SOURCE = /^PERSON-DATASOURCE-(CREATES|AVAILABILITY)$/;
  /** The data-source requirements' checks omitted with `note`, as the profile omits them on a configured deployment. */
  const checks = (note = IRREVERSIBLE.dataSources.note) =>
    oneCheckEach('person', (id) => (DATA_SOURCE.test(id) ? note : undefined));
  const catalogue = catalogueOf(checks());

  it('passes, listing the data-source checks with why instead of failing on them; requirements.csv says why each was not run', () => {
    const summary = buildSummary(run, checks(), undefined);
    const c = certify(summary, catalogue);
    expect(c.reasons).toEqual([]);
    expect(c.passed).toBe(true);
    expect(c.notRunOnSharedData.map((u) => u.checkId)).toEqual([
      'person/area/person-datasource-creates',
      'person/area/person-datasource-availability',
    ]);
    expect(c.notRunOnSharedData[0]).toMatchObject({ member: 'createDataSources', why: IRREVERSIBLE.dataSources.why });
    expect(notRunOnSharedDataLine(c)).toMatch(
      /^2 check\(s\) not run on shared data, listed in manifest\.json and requirements\.csv/,
    );
    const rows = parse(requirementsCsv(summary, c), { columns: true }) as Array<Record<string, string>>;
    expect(rows.find((r) => r.id === 'PERSON-DATASOURCE-AVAILABILITY')?.reason_untested).toBe(
      `not run on shared data: ${IRREVERSIBLE.dataSources.why} (profile createDataSources: true runs them)`,
    );
  });

  it('still fails on a check omitted for any other reason', () => {
    const c = certify(buildSummary(run, checks('profile disables PERSON-DATASOURCE-CREATES'), undefined), catalogue);
    expect(c.passed).toBe(false);
    expect(c.notRunOnSharedData).toEqual([]);
    expect(c.reasons.join('\n')).toMatch(/^2 check\(s\) omitted: person\/area\/person-datasource-creates/m);
  });
});

/**
 * A copy of `bundle` with `change` applied; with `redigest`, the digests made to match the change as a forger would:
 * the manifest's digests of the other files, then SHA256SUMS (the manifest's own digest, its fingerprint, changes).
 */
function tamperedCopy(bundle: string, change: (dir: string) => void, redigest: boolean): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'cf-tampered-')), 'bundle');
  cpSync(bundle, dir, { recursive: true });
  change(dir);
  if (redigest) {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    for (const file of Object.keys(manifest.digests)) manifest.digests[file] = sha256Hex(readFileSync(join(dir, file)));
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const sums = readFileSync(join(dir, DIGESTS_FILE), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const file = l.slice(66);
        return `${sha256Hex(readFileSync(join(dir, file)))}  ${file}`;
      });
    writeFileSync(join(dir, DIGESTS_FILE), `${sums.join('\n')}\n`);
  }
  return dir;
}
const edit = (dir: string, file: string, f: (text: string) => string) =>
  writeFileSync(join(dir, file), f(readFileSync(join(dir, file), 'utf8')));

describe('an evidence bundle of a run against the embedded reference holding other sources’ records', () => {
  let suite: SuiteRun;
  let bundle: string;
  beforeAll(async () => {
    bundle = join(mkdtempSync(join(tmpdir(), 'cf-evidence-')), 'bundle');
    suite = await runSuite(
      [
        'scenarios/organization/search',
        '--evidence',
        bundle,
        '--product',
        'Reference',
        '--product-version',
        '1.0',
        '--certification',
      ],
      { REFERENCE_FOREIGN_DATA: '1' },
    );
  }, 240000);

  it('is written, and the certification fails the partial run: fewer checks ran than the catalogue has', () => {
    expect(suite.summary?.overall, suite.stderr.slice(-2000)).toBe('pass');
    expect(suite.code).toBe(1);
    expect(suite.stdout).toMatch(
      /certification \(organization, person, provider\): FAILED: \d+ checks run of the catalogue's \d+/,
    );
    const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.product).toEqual({ name: 'Reference', version: '1.0' });
    expect(manifest.run).toMatchObject({ runId: suite.runId, seed: 12345, verdict: 'pass', exitCode: 1 });
    expect(manifest.certification?.passed).toBe(false);
    expect(manifest.settings.exchanges).toBe('all');
    const rows = parse(readFileSync(join(bundle, 'requirements.csv'), 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(rows.length).toBe(REQS.length);
    expect(rows.find((r) => r.outcome === 'untestable')?.reason_untested).toMatch(/^untestable: ./);
    expect(rows.find((r) => r.service === 'person')?.reason_untested).toBe('the run did not test the person service');
    expect(rows.find((r) => r.service === 'organization' && r.outcome === 'not-run')?.reason_untested).toBe(
      'the run did not select the checks that cover it',
    );
  });

  it('holds the other sources’ records only as redaction stubs, and verifies: valid, PASS, NOT CERTIFIED (exit 1)', async () => {
    const har = readFileSync(join(bundle, 'exchanges.har'), 'utf8');
    expect(har).toContain(FOREIGN_NOTE);
    const r = await runCommand('run/cli/evidence-verify.ts', [bundle]);
    expect(r.stdout).toContain(`Evidence bundle ${bundle}: VALID`);
    expect(r.stdout).toContain("no secret and no other source's identity data found");
    expect(r.stdout).toMatch(/verdict: PASS, NOT CERTIFIED\n/);
    expect(r.code).toBe(1);
  });

  const tampered = (change: (dir: string) => void, redigest: boolean) => tamperedCopy(bundle, change, redigest);

  it('a changed, a removed and an added file are caught by the digests', async () => {
    const changed = tampered((d) => edit(d, 'report.html', (t) => t.replace('PASS', 'PASS!')), false);
    const r = await runCommand('run/cli/evidence-verify.ts', [changed]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('report.html: its SHA-256 differs from SHA256SUMS (changed after the bundle was made)');
    expect(r.stdout).toMatch(/verdict: INVALID\n/);
    const removed = tampered((d) => rmSync(join(d, 'junit.xml')), false);
    expect(verifyBundle(removed).problems).toContain('junit.xml: listed in SHA256SUMS but missing');
    const added = tampered((d) => writeFileSync(join(d, 'notes.txt'), 'looks fine to me'), false);
    expect(verifyBundle(added).problems).toContain(
      'notes.txt: not listed in SHA256SUMS (added after the bundle was made)',
    );
  });

  it('a planted secret is caught though the digests match: a token, a password member, a credential of the settings', () => {
    const token = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.${'s'.repeat(20)}`;
    const jwt = tampered((d) => edit(d, 'report.html', (t) => t.replace('</body>', `<p>${token}</p></body>`)), true);
    expect(verifyBundle(jwt).problems.join('\n')).toMatch(/report\.html, line \d+: secret: a JSON Web Token/);
    const member = tampered(
      (d) =>
        edit(d, 'junit.xml', (t) => t.replace('</testsuites>', '<!-- {"password": "hunter2hunter2"} --></testsuites>')),
      true,
    );
    expect(verifyBundle(member).problems.join('\n')).toMatch(
      /junit\.xml, line \d+: secret: a "password" member with a value other than \[REDACTED\]/,
    );
    const known = tampered((d) => edit(d, 'requirements.csv', (t) => `${t}planted-credential-value\n`), true);
    expect(verifyBundle(known).valid).toBe(false);
    const v = verifyBundle(known, { secrets: ['planted-credential-value'] });
    expect(v.problems.join('\n')).toMatch(/requirements\.csv, line \d+: secret: a credential of the settings/);
    // The finding names where, never the value.
    expect(v.problems.join('\n')).not.toContain('planted-credential-value');
  });

  it('planted identity data of another source is caught though the digests match: in a reply, and as a native ID in a report', () => {
    const foreign = tampered(
      (d) =>
        edit(d, 'exchanges.har', (t) => {
          const har = JSON.parse(t);
          const entry = har.log.entries.find(
            (e: { _operation: string; response: { content: { text: string } } }) =>
              e._operation === 'demographicsSearch' && e.response.content.text.includes(FOREIGN_NOTE),
          );
          const body = JSON.parse(entry.response.content.text);
          const stubbed = body.content.searchResults.find((x: Record<string, unknown>) =>
            JSON.stringify(x).includes(FOREIGN_NOTE),
          );
          stubbed.identity = { organizationNames: [{ legalBusinessName: 'Someone Else Ltd' }] };
          stubbed.identityGroupedBySource = [{ source: { name: 'other_system', id: 'X-1' } }];
          entry.response.content.text = JSON.stringify(body);
          return JSON.stringify(har);
        }),
      true,
    );
    expect(verifyBundle(foreign).problems.join('\n')).toMatch(
      /exchanges\.har, entry \d+ reply \(organization demographicsSearch, check [^)]+\): foreign identity data: content of records the run did not create, not redacted/,
    );
    const nativeId = tampered(
      (d) => edit(d, 'report.html', (t) => t.replace('</body>', '<pre>{"nativeId": "X-1"}</pre></body>')),
      true,
    );
    expect(verifyBundle(nativeId).problems.join('\n')).toMatch(
      /report\.html, line \d+: foreign identity data: a native ID outside the run's namespace/,
    );
  });
});

describe('a signed bundle of a failing run, changed to read as passing', () => {
  let suite: SuiteRun;
  let bundle: string;
  let keys: { privateFile: string; publicFile: string; otherPublicFile: string };
  beforeAll(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cf-evidence-signed-'));
    const pair = () => generateKeyPairSync('ed25519');
    const { privateKey, publicKey } = pair();
    keys = {
      privateFile: join(folder, 'key.pem'),
      publicFile: join(folder, 'key.pub.pem'),
      otherPublicFile: join(folder, 'other.pub.pem'),
    };
    writeFileSync(keys.privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(keys.publicFile, publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(keys.otherPublicFile, pair().publicKey.export({ type: 'spki', format: 'pem' }));
    bundle = join(folder, 'bundle');
    suite = await runSuite(
      [
        'scenarios/organization/merge-link',
        '--evidence',
        bundle,
        '--product',
        'Reference',
        '--product-version',
        'faulty',
      ],
      { REFERENCE_FAULTS: 'merge-no-unify', CONFORMANCE_EVIDENCE_KEY: keys.privateFile },
    );
  }, 240000);
  const fingerprint = () =>
    /fingerprint \(record it in the change ticket\): (sha256:[0-9a-f]{64})/.exec(suite.stdout)?.[1];
  /** requirements.csv with ORG-MERGE-EFFECT's outcome fail made pass. */
  const passing = (d: string) =>
    edit(d, 'requirements.csv', (t) => t.replace(/^(ORG-MERGE-EFFECT,.*),fail,/m, '$1,pass,'));

  it('the run prints its fingerprint and signer; the verifier prints the same fingerprint and verifies the signature', async () => {
    expect(suite.code, suite.stderr.slice(-2000)).toBe(1);
    expect(suite.stdout).toMatch(/ {2}signed: Ed25519, public key sha256:[0-9a-f]{64}\n/);
    const r = await runCommand('run/cli/evidence-verify.ts', [
      bundle,
      '--public-key',
      keys.publicFile,
      '--fingerprint',
      fingerprint()!,
    ]);
    expect(r.stdout).toContain(`Evidence bundle ${bundle}: VALID`);
    expect(r.stdout).toContain(`  fingerprint: ${fingerprint()}\n`);
    expect(r.stdout).toContain('  signature: verified with the public key given');
    expect(r.stdout).toMatch(/verdict: FAIL\n/);
    expect(r.code).toBe(1);
  });

  it('an outcome changed from fail to pass in requirements.csv with SHA256SUMS recomputed is invalid: its digest is the manifest’s no more', () => {
    const v = verifyBundle(tamperedCopy(bundle, passing, false));
    expect(v.problems).toContain(
      "requirements.csv: its SHA-256 differs from the manifest's (changed after the bundle was made)",
    );
    expect(v.verdict).toBe('INVALID');
  });

  it('with the manifest’s digests recomputed too: the files disagree, the fingerprint is another, the signature fails', () => {
    const forged = tamperedCopy(bundle, passing, true);
    const unchecked = verifyBundle(forged);
    expect(unchecked.problems).toContain(
      'requirements.csv, ORG-MERGE-EFFECT: outcome pass, but the verdicts of its checks in junit.xml give fail',
    );
    expect(unchecked.fingerprint).not.toBe(fingerprint());
    const v = verifyBundle(forged, { publicKey: readPublicKey(keys.publicFile, 'key'), fingerprint: fingerprint()! });
    expect(v.problems.join('\n')).toContain(`differs from the one given (${fingerprint()})`);
    expect(v.problems).toContain(
      'manifest.sig: does not verify manifest.json with the public key given (changed after signing)',
    );
    expect(v.verdict).toBe('INVALID');
  });

  it('a junit.xml made to agree (verdicts, totals) still fails the signature; another key is named as such', () => {
    const agreeing = tamperedCopy(
      bundle,
      (d) => {
        passing(d);
        edit(d, 'junit.xml', (t) =>
          t.replace(/<property name="verdict" value="fail"\/>/g, '<property name="verdict" value="pass"/>'),
        );
      },
      true,
    );
    const v = verifyBundle(agreeing, { publicKey: readPublicKey(keys.publicFile, 'key') });
    expect(v.problems).toContain(
      'manifest.sig: does not verify manifest.json with the public key given (changed after signing)',
    );
    const other = verifyBundle(bundle, { publicKey: readPublicKey(keys.otherPublicFile, 'key') });
    expect(other.problems.join('\n')).toMatch(
      /^manifest\.sig: made with another key \(sha256:[0-9a-f]{64}\) than the public key given/m,
    );
  });

  it('a signing key that is no Ed25519 key stops the run before it starts (exit 2), naming the setting', async () => {
    const notAKey = join(mkdtempSync(join(tmpdir(), 'cf-notakey-')), 'key.pem');
    writeFileSync(notAKey, 'not a key');
    const dir = join(mkdtempSync(join(tmpdir(), 'cf-evidence-nokey-')), 'bundle');
    const r = await runCommand(
      'run/cli/conformance.mjs',
      ['--evidence', dir, '--product', 'X', '--product-version', '1'],
      {
        CONFORMANCE_EVIDENCE_KEY: notAKey,
      },
    );
    expect(r.stderr).toContain(
      `conformance: Setting CONFORMANCE_EVIDENCE_KEY: expected an Ed25519 private key in PEM (openssl genpkey -algorithm ed25519), got "${notAKey}"`,
    );
    expect(r.code).toBe(2);
  });
});

describe('the bundle scan judges the exchanges by what the run owned, as its guards recorded it', () => {
  const runId = 'scan-run';
  const mine = { name: 'cf_test_a', id: `cf-${runId}-a1` };
  // A search found the run's record, posted by a check whose exchanges the bundle keeps as summary
  // lines only (a walk step): its link ID comes from no exchange of the HAR. The identity shows no
  // identityGroupedBySource (a deployment that groups by source only on request).
  const reply = {
    success: true,
    content: {
      searchResults: [{ linkId: 'L-walk', matchScore: 0.9, identity: { sources: [mine], names: [{ first: 'Own' }] } }],
    },
  };
  const har = {
    log: {
      entries: [
        {
          _service: 'provider',
          _operation: 'demographicsSearch',
          _check: 'provider/metamorphic/x',
          request: { postData: { text: JSON.stringify({ content: { identity: { names: [{ first: 'Own' }] } } }) } },
          response: { content: { text: JSON.stringify(reply) } },
        },
      ],
    },
  } as unknown as Har;
  const scan = (owned: OwnershipRecord) =>
    scanHar('exchanges.har', har, {
      runId,
      services: [{ service: 'provider', sources: ['cf_test_a', 'cf_test_b'] }],
      profile: loadProfile(),
      owned,
    });

  it('an identity of the run whose link ID only the ownership record holds is the run’s: no finding', () => {
    expect(scan({ provider: { linkId: ['L-walk'], relationship: [], dataSource: [] } })).toEqual([]);
  });

  it('the same identity with a link ID the run never adopted is foreign data not redacted', () => {
    expect(scan({}).map((f) => f.what)).toEqual(['content of records the run did not create, not redacted']);
  });
});

/**
 * The redaction stubs (harness/redact-foreign.ts) in a HAR's request and reply bodies: each one's source names, the link
 * ID of the identity it stands in (a search result keeps it) and when its exchange started (ms).
 */
function foreignStubs(harText: string): Array<{ sources: string[]; linkId?: string; startedAt: number }> {
  const found: Array<{ sources: string[]; linkId?: string; startedAt: number }> = [];
  const walk = (v: unknown, linkId: string | undefined, startedAt: number): void => {
    if (Array.isArray(v)) for (const x of v) walk(x, undefined, startedAt);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.redacted === FOREIGN_NOTE) found.push({ sources: (o.sources as string[]) ?? [], linkId, startedAt });
      else for (const x of Object.values(o)) walk(x, typeof o.linkId === 'string' ? o.linkId : undefined, startedAt);
    }
  };
  const har = JSON.parse(harText) as {
    log: {
      entries: Array<{
        startedDateTime: string;
        request: { postData?: { text?: string } };
        response: { content: { text?: string } };
      }>;
    };
  };
  for (const e of har.log.entries)
    for (const text of [e.request.postData?.text, e.response.content.text])
      if (text)
        try {
          walk(JSON.parse(text), undefined, Date.parse(e.startedDateTime));
        } catch {
          // a body that is not JSON holds no stub
        }
  return found;
}

/** When the run adopted each link ID (its ownership record in the run folder, harness/ownership.ts), ms. */
function linkIdsAdopted(runFolder: string): Map<string, number> {
  const lines = readFileSync(join(runFolder, OWNED_FILE), 'utf8').split('\n').filter(Boolean);
  const adoptions = lines.map((l) => JSON.parse(l) as Adoption).filter((a) => a.kind === 'linkId');
  return new Map(adoptions.map((a) => [a.id, a.at ?? Number.NaN]));
}

describe('an evidence bundle of a run on a staging where others write (busy=5, identityGroupedBySource on request)', () => {
  // The run that failed before the scan judged by the run's ownership record: the provider's
  // metamorphic searches find records its walks posted (kept as summary lines only), shown
  // without identityGroupedBySource, and the bundle was not written (exit 1, no line saying so).
  let suite: SuiteRun;
  let bundle: string;
  beforeAll(async () => {
    bundle = join(mkdtempSync(join(tmpdir(), 'cf-evidence-busy-')), 'bundle');
    suite = await runSuite(
      [
        'scenarios/provider/walks',
        'scenarios/provider/metamorphic',
        '--evidence',
        bundle,
        '--product',
        'Reference',
        '--product-version',
        'busy',
      ],
      { REFERENCE_VARIANTS: 'busy=5', REFERENCE_GROUPED_BY_SOURCE: 'on-request' },
    );
  }, 240000);

  it('is written with its exchanges, other users’ records in them only as stubs, and verifies (exit 0)', async () => {
    expect(suite.stderr, suite.stderr.slice(-3000)).not.toContain('NO EVIDENCE BUNDLE');
    expect(suite.code).toBe(0);
    expect(suite.stdout).toContain(`evidence: ${bundle} (`);
    const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.exchanges.inFull).toBeGreaterThan(50);
    const har = readFileSync(join(bundle, 'exchanges.har'), 'utf8');
    // Which of the other users' records a search meets, and which sources its reply shows, depends on timing: the
    // HAR holds them as stubs (redacted by ownership), at least one. A stub names the other users' source (beside the
    // run's where an identity holds records of both), or none (a notification: its fields are not shown), or only the
    // run's test sources: the run's own record met by a search before the run knew its identity (a post under way, a
    // walk's post answered later), which it must have learned after that exchange started (as the guard recorded it).
    const stubs = foreignStubs(har);
    expect(stubs.length).toBeGreaterThan(0);
    const adopted = linkIdsAdopted(join(suite.reportDir, suite.runId));
    for (const stub of stubs) {
      expect(stub.sources.filter((n) => n !== OTHER_USERS_SOURCE && !REFERENCE_SOURCES.includes(n))).toEqual([]);
      if (stub.sources.length && stub.sources.every((n) => REFERENCE_SOURCES.includes(n)))
        expect(adopted.get(stub.linkId ?? '') ?? -1, JSON.stringify(stub)).toBeGreaterThanOrEqual(stub.startedAt);
    }
    const owned = JSON.parse(readFileSync(join(bundle, 'ownership.json'), 'utf8')) as OwnershipRecord;
    expect(owned.provider?.linkId.length).toBeGreaterThan(10);
    const r = await runCommand('run/cli/evidence-verify.ts', [bundle]);
    expect(r.stdout).toContain(`Evidence bundle ${bundle}: VALID`);
    expect(r.stdout).toMatch(/verdict: PASS\n/);
    expect(r.code).toBe(0);
  });
});

describe('a bundle asked for and not written: its own exit code and a line saying so', () => {
  it('a bundle the scan refuses (a product name that reads as a token) exits 6, naming the bundle and why', async () => {
    const bundle = join(mkdtempSync(join(tmpdir(), 'cf-evidence-refused-')), 'bundle');
    const token = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.${'c'.repeat(12)}`;
    const r = await runSuite(
      [
        'scenarios/organization/post',
        '-t',
        'generated events',
        '--evidence',
        bundle,
        '--product',
        token,
        '--product-version',
        '1',
      ],
      {},
    );
    expect(r.summary?.overall, r.stderr.slice(-2000)).toBe('pass');
    expect(r.stderr).toMatch(/manifest\.json, line \d+: secret: a JSON Web Token/);
    expect(r.stderr).toContain(
      `conformance: NO EVIDENCE BUNDLE: ${bundle} was not written (the scan found 1 thing(s) a bundle must never hold, listed above); exit code 6 (the run's own: 0)`,
    );
    expect(existsSync(bundle)).toBe(false);
    expect(r.code).toBe(EVIDENCE_MISSING_EXIT);
  });

  it('a run in which no check ran exits 6 too', async () => {
    const bundle = join(mkdtempSync(join(tmpdir(), 'cf-evidence-none-')), 'bundle');
    const r = await runSuite(
      [
        'scenarios/organization/post',
        '-t',
        'nonexistentpattern',
        '--evidence',
        bundle,
        '--product',
        'X',
        '--product-version',
        '1',
      ],
      {},
    );
    expect(r.stderr).toContain(
      `conformance: NO EVIDENCE BUNDLE: ${bundle} was not written (no check ran); exit code 6 (the run's own: 1)`,
    );
    expect(r.code).toBe(6);
  });
});

describe('npm run conformance -- --evidence: bad arguments stop it before anything runs (exit 2)', () => {
  it.each([
    [['--product', 'X'], '--product goes with --evidence <dir>'],
    [['--evidence', 'somewhere'], '--evidence needs --product <name> and --product-version <version>'],
    [['--evidence', '.', '--product', 'X', '--product-version', '1'], '--evidence .: not empty'],
  ])('%j', async (args, message) => {
    const r = await runCommand('run/cli/conformance.mjs', args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`conformance: ${message}`);
  });
});

describe('--certification against a configured person deployment without its customer ID', () => {
  it('stops before the run (exit 2), naming PERSON_CUSTOMER_ID: the check it would omit fails the certification', async () => {
    const bundle = join(mkdtempSync(join(tmpdir(), 'cf-evidence-customer-')), 'bundle');
    const person = {
      PERSON_BASE_URL: 'http://127.0.0.1:9',
      PERSON_USERNAME: 'u',
      PERSON_PASSWORD: 'p',
      PERSON_SOURCES: 'cf_test_a,cf_test_b',
    };
    const args = ['--evidence', bundle, '--product', 'X', '--product-version', '1', '--certification'];
    const r = await runCommand('run/cli/conformance.mjs', args, person);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("conformance: Setting PERSON_CUSTOMER_ID: expected the person deployment's customer ID");
    expect(r.stdout).not.toContain('Conformance run');
    expect(existsSync(bundle)).toBe(false);
  });
});
