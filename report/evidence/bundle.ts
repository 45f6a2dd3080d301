/**
 * Writes an evidence bundle from a finished run folder: a self-contained, redacted folder a change board can check
 * (docs/reports.md, "Evidence bundle"):
 *   manifest.json     what was tested, with what, how, and the outcome (manifest.ts)
 *   requirements.csv  every requirement: level, seed sentence, checks, outcome, why untested
 *   junit.xml, report.html   the run's own reports
 *   exchanges.har     the requests and replies kept in full, redacted (har.ts)
 *   ownership.json    what the run owned (harness/ownership.ts): the judgement the exchanges were redacted by
 *   manifest.sig      with a signing key: the Ed25519 signature of manifest.json, which holds every other file's digest
 *   SHA256SUMS        the SHA-256 of every other file, as `sha256sum -c` reads it
 * Before the digests are written the bundle is scanned (scan.ts) for secrets and other sources' identity data; a bundle
 * with any finding is removed and the findings are returned, so a bundle that exists has passed the scan its verifier
 * repeats.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { exchangesStem } from '../../harness/exchange-file.js';
import { type OwnershipRecord, readOwnership } from '../../harness/ownership.js';
import type { Profile } from '../../harness/profile.js';
import type { ServiceName } from '../../specs/common/model.js';
import type { Summary } from '../summary.js';
import { targetStatement } from '../target.js';
import type { Certification } from './certification.js';
import { runHar } from './har.js';
import {
  BUNDLE_FILES,
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  DIGESTS_FILE,
  type Manifest,
  OWNERSHIP_FILE,
  requirementCatalogue,
  sha256Hex,
} from './manifest.js';
import { requirementsCsv } from './requirements-csv.js';
import { type Finding, scanForeignText, scanHar, scanSecrets } from './scan.js';
import { SIGNATURE_FILE, fingerprintOf, publicKeyId, signBytes } from './signature.js';

export interface EvidenceOptions {
  product: { name: string; version: string };
  suite: Manifest['suite'];
  /** The run's settings without secrets (credentials appear as "set"). */
  settings: Record<string, unknown>;
  /** The credentials of the settings: looked for by the scan, never written. */
  secrets: string[];
  /** The certification profile's judgement, when it was asked for. */
  certification?: Certification;
  /** The suite's check catalogue digest and size (the certification's collection), when collected. */
  checks?: { sha256: string; count: number };
  /** The command's exit code for the run. */
  exitCode: number;
  /** The Ed25519 private key that signs the manifest (CONFORMANCE_EVIDENCE_KEY), if the user gave one. */
  signingKey?: KeyObject;
}

/**
 * The scan of a written bundle (every file but SHA256SUMS): secrets in all, foreign identity data in the HAR and the
 * rest.
 */
export function scanBundle(dir: string, manifest: Manifest, secrets: string[]): Finding[] {
  const findings: Finding[] = [];
  const har = JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8'));
  const owned = JSON.parse(readFileSync(join(dir, OWNERSHIP_FILE), 'utf8')) as OwnershipRecord;
  findings.push(
    ...scanHar('exchanges.har', har, {
      runId: manifest.run.runId,
      services: manifest.target.services
        .filter((s) => s.status !== 'not configured')
        .map((s) => ({ service: s.service as ServiceName, sources: s.sources ?? [] })),
      profile: manifest.profile as Profile,
      owned,
    }),
  );
  for (const file of manifest.files) {
    const text = readFileSync(join(dir, file), 'utf8');
    findings.push(...scanSecrets(file, text, secrets));
    if (file !== 'exchanges.har') findings.push(...scanForeignText(file, text, manifest.run.runId));
  }
  return findings;
}

/** `sha256sum` lines of every file in `dir` but SHA256SUMS, sorted by name. */
export function digests(dir: string, files: string[]): string {
  return files
    .slice()
    .sort()
    .map((f) => `${sha256Hex(readFileSync(join(dir, f)))}  ${f}\n`)
    .join('');
}

/** The manifest of a run's bundle: what was tested, with what, how and with which outcome, and the digests of `files`. */
function manifestOf(s: Summary, o: EvidenceOptions, run: { inFull: number; linesOnly: number }, dir: string): Manifest {
  const data = BUNDLE_FILES.filter((f) => f !== 'manifest.json');
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    createdAt: new Date().toISOString(),
    product: o.product,
    suite: o.suite,
    catalogue: { requirements: requirementCatalogue(), checks: o.checks ?? null },
    run: {
      runId: s.run.runId,
      seed: s.run.seed,
      startedAt: s.run.startedAt,
      finishedAt: s.run.finishedAt,
      verdict: s.gate.verdict,
      exitCode: o.exitCode,
      checks: s.totals.checks,
      totals: s.totals,
    },
    target: {
      statement: targetStatement(s.run),
      services: s.run.targets.map((t) => ({
        service: t.service,
        status: t.status,
        ...(t.baseUrl ? { baseUrl: t.baseUrl } : {}),
        ...(t.servicePath ? { servicePath: t.servicePath } : {}),
        ...(t.auth ? { auth: t.auth } : {}),
        ...(t.oauth ? { oauth: t.oauth } : {}),
        ...(t.sources ? { sources: t.sources } : {}),
      })),
    },
    settings: o.settings,
    profile: s.run.profile,
    exchanges: { inFull: run.inFull, summaryLinesOnly: run.linesOnly, kept: String(o.settings.exchanges ?? 'failing') },
    certification: o.certification ?? null,
    files: [...BUNDLE_FILES],
    digests: Object.fromEntries(data.map((f) => [f, sha256Hex(readFileSync(join(dir, f)))])),
    signature: o.signingKey ? { algorithm: 'Ed25519', publicKey: publicKeyId(o.signingKey) } : null,
  };
}

/**
 * Writes the bundle of the run in `runFolder` into `outDir` (created; it must not hold files): the files, the manifest
 * with their digests, and once the scan found nothing, its signature (with a signing key) and SHA256SUMS.
 * @returns the manifest, its fingerprint, and the scan's findings (non-empty: the bundle was removed again)
 * @throws Error when the run folder has no summary or `outDir` holds files already
 */
export function writeEvidenceBundle(
  runFolder: string,
  outDir: string,
  o: EvidenceOptions,
): { manifest: Manifest; fingerprint: string; findings: Finding[] } {
  const summaryFile = join(runFolder, 'summary.json');
  if (!existsSync(summaryFile)) throw new Error(`${runFolder}: no summary.json (the run did not finish)`);
  if (existsSync(outDir) && readdirSync(outDir).length)
    throw new Error(`${outDir}: not empty (an evidence bundle goes into a new folder)`);
  const s = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'requirements.csv'), requirementsCsv(s, o.certification));
  for (const f of ['junit.xml', 'report.html']) copyFileSync(join(runFolder, f), join(outDir, f));
  const checkOf = new Map(s.checks.map((c) => [exchangesStem(c.checkId), c.checkId]));
  const { har, inFull, linesOnly } = runHar(
    runFolder,
    { name: o.suite.name, version: o.suite.version },
    (stem) => checkOf.get(stem) ?? stem,
  );
  writeFileSync(join(outDir, 'exchanges.har'), JSON.stringify(har));
  writeFileSync(join(outDir, OWNERSHIP_FILE), `${JSON.stringify(readOwnership(runFolder), null, 1)}\n`);
  const manifest = manifestOf(s, o, { inFull, linesOnly }, outDir);
  const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(outDir, 'manifest.json'), text);
  const findings = scanBundle(outDir, manifest, o.secrets);
  if (findings.length) {
    rmSync(outDir, { recursive: true, force: true });
    return { manifest, fingerprint: fingerprintOf(text), findings };
  }
  const files: string[] = [...manifest.files];
  if (o.signingKey) {
    writeFileSync(join(outDir, SIGNATURE_FILE), `${signBytes(text, o.signingKey)}\n`);
    files.push(SIGNATURE_FILE);
  }
  writeFileSync(join(outDir, DIGESTS_FILE), digests(outDir, files));
  return { manifest, fingerprint: fingerprintOf(text), findings };
}
