/**
 * Verifies an evidence bundle (`npm run evidence:verify <dir>`): the digests in SHA256SUMS match every file, and so do
 * the manifest's own digests of every other file; the bundle is complete (every file of the format, each listed,
 * nothing unlisted); the manifest has the format's schema; the files tell one story (cross-check.ts: requirements.csv
 * against junit.xml and the manifest, every outcome as its checks' verdicts give it); the bundle holds no secret and no
 * other source's identity data (scan.ts, again); its fingerprint (signature.ts) matches the one given, and its
 * signature the public key given; and it says whether the bundle was made with this suite's requirement catalogue.
 * The bundle's verdict follows: INVALID when any of that fails, else the run's verdict and, when the bundle was made
 * with the certification profile, whether the run was certified.
 */
import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'csv-parse/sync';
import { authText } from '../target.js';
import { scanBundle } from './bundle.js';
import { notRunOnSharedDataLine } from './certification.js';
import { crossCheck } from './cross-check.js';
import {
  BUNDLE_FILES,
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  DIGESTS_FILE,
  type Manifest,
  ManifestSchema,
  requirementCatalogue,
  sha256Hex,
} from './manifest.js';
import type { Finding } from './scan.js';
import { SIGNATURE_FILE, fingerprintOf, normalFingerprint, publicKeyId, signatureHolds } from './signature.js';

export interface VerifyOptions {
  /** Credentials of the current settings, looked for too (the bundle never names them). */
  secrets?: string[];
  /** The public key the bundle's signature must verify with (--public-key, CONFORMANCE_EVIDENCE_PUBLIC_KEY). */
  publicKey?: KeyObject;
  /** The fingerprint recorded for the bundle (a change ticket's): the bundle's must be the same. */
  fingerprint?: string;
}

export interface Verification {
  /** True when the digests, completeness, manifest, cross-checks, scan, fingerprint and signature are all in order. */
  valid: boolean;
  /** What is wrong with the bundle, one line each (empty when valid). */
  problems: string[];
  findings: Finding[];
  /** Facts that do not make it invalid (another suite's catalogue, a signature not checked). */
  notes: string[];
  manifest?: Manifest;
  /** The bundle's fingerprint (`sha256:` and the SHA-256 of manifest.json), when it has a manifest. */
  fingerprint?: string;
  /** The signature: verified with the key given, present but not checked (no key given), or none. */
  signature?: 'verified' | 'not checked' | 'none';
  /**
   * INVALID, or the run's outcome: PASS / FAIL / INCOMPLETE, and CERTIFIED / NOT CERTIFIED with the certification
   * profile.
   */
  verdict: string;
  /** True when the bundle is valid and its run passed (and was certified, when the profile was asked for). */
  accepted: boolean;
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** SHA256SUMS against the files: every line's file exists and matches; every file but SHA256SUMS is listed. */
function checkDigestsFile(dir: string, present: string[], problems: string[]): void {
  const listed = new Map<string, string>();
  if (!present.includes(DIGESTS_FILE)) problems.push(`${DIGESTS_FILE} is missing: the files cannot be checked`);
  else
    for (const [i, line] of readFileSync(join(dir, DIGESTS_FILE), 'utf8').split('\n').entries()) {
      if (!line.trim()) continue;
      const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
      if (!m) problems.push(`${DIGESTS_FILE}, line ${i + 1}: not "<sha256>  <file>"`);
      else listed.set(m[2]!, m[1]!);
    }
  for (const [file, digest] of listed) {
    if (!present.includes(file)) problems.push(`${file}: listed in ${DIGESTS_FILE} but missing`);
    else if (sha256Hex(readFileSync(join(dir, file))) !== digest)
      problems.push(`${file}: its SHA-256 differs from ${DIGESTS_FILE} (changed after the bundle was made)`);
  }
  for (const file of present)
    if (file !== DIGESTS_FILE && !listed.has(file))
      problems.push(`${file}: not listed in ${DIGESTS_FILE} (added after the bundle was made)`);
  for (const file of BUNDLE_FILES)
    if (!present.includes(file)) problems.push(`${file}: missing (every bundle holds it)`);
}

/** The manifest, if it is one of this format; what is wrong with it otherwise. */
function readManifest(bytes: Buffer, problems: string[]): Manifest | undefined {
  let json: { format?: unknown; version?: unknown; suite?: { version?: unknown } };
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    problems.push(`manifest.json: not JSON (${(e as Error).message})`);
    return undefined;
  }
  if (json?.format === BUNDLE_FORMAT && json.version !== BUNDLE_VERSION) {
    problems.push(
      `manifest.json: format version ${JSON.stringify(json.version)}, where this verifier reads version ` +
        `${BUNDLE_VERSION} (verify it with the suite that made it, version ${String(json.suite?.version)})`,
    );
    return undefined;
  }
  const parsed = ManifestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  problems.push(`manifest.json: not an evidence manifest (${issues.join('; ')})`);
  return undefined;
}

/** The manifest's digests of every other file, its list of files, and the files its signature implies. */
function checkManifestFiles(dir: string, m: Manifest, present: string[], problems: string[]): void {
  for (const file of m.files)
    if (!BUNDLE_FILES.includes(file as (typeof BUNDLE_FILES)[number]))
      problems.push(`manifest.json names ${file}, no file of the format`);
  for (const file of BUNDLE_FILES.filter((f) => f !== 'manifest.json')) {
    const digest = m.digests[file];
    if (!digest) problems.push(`manifest.json: no digest of ${file}`);
    else if (present.includes(file) && sha256Hex(readFileSync(join(dir, file))) !== digest)
      problems.push(`${file}: its SHA-256 differs from the manifest's (changed after the bundle was made)`);
  }
  if (m.signature && !present.includes(SIGNATURE_FILE))
    problems.push(`${SIGNATURE_FILE}: missing (the manifest says the bundle is signed)`);
  if (!m.signature && present.includes(SIGNATURE_FILE))
    problems.push(`${SIGNATURE_FILE}: present, but the manifest says the bundle is not signed`);
  for (const file of present)
    if (![...BUNDLE_FILES, DIGESTS_FILE, SIGNATURE_FILE].includes(file))
      problems.push(`${file}: no file of the format`);
}

/** The signature against the public key given; a note when no key was given. */
function checkSignature(
  dir: string,
  bytes: Buffer,
  m: Manifest,
  o: VerifyOptions,
  out: { problems: string[]; notes: string[] },
): Verification['signature'] {
  if (!m.signature) {
    if (o.publicKey) out.problems.push('the bundle is not signed, but a public key was given to check its signature');
    return 'none';
  }
  if (!o.publicKey) {
    out.notes.push(
      `signed (Ed25519, public key sha256:${m.signature.publicKey}); the signature was not checked: give ` +
        '--public-key <file> or CONFORMANCE_EVIDENCE_PUBLIC_KEY',
    );
    return 'not checked';
  }
  if (publicKeyId(o.publicKey) !== m.signature.publicKey) {
    out.problems.push(
      `${SIGNATURE_FILE}: made with another key (sha256:${m.signature.publicKey}) than the public key given ` +
        `(sha256:${publicKeyId(o.publicKey)})`,
    );
    return 'none';
  }
  if (!existsSync(join(dir, SIGNATURE_FILE))) return 'none';
  if (signatureHolds(bytes, readFileSync(join(dir, SIGNATURE_FILE), 'utf8'), o.publicKey)) return 'verified';
  out.problems.push(
    `${SIGNATURE_FILE}: does not verify manifest.json with the public key given (changed after signing)`,
  );
  return 'none';
}

/** The files' contents against the manifest: counts, cross-checks, the scan. */
function checkContents(dir: string, m: Manifest, secrets: string[], problems: string[]): Finding[] {
  try {
    const rows = parse(readFileSync(join(dir, 'requirements.csv'), 'utf8'), { columns: true }) as unknown[];
    if (rows.length !== m.catalogue.requirements.count)
      problems.push(
        `requirements.csv: ${rows.length} requirements where the manifest's catalogue has ` +
          `${m.catalogue.requirements.count}`,
      );
    const har = JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')) as { log?: { entries?: unknown[] } };
    const entries = har.log?.entries?.length ?? -1;
    if (entries !== m.exchanges.inFull)
      problems.push(`exchanges.har: ${entries} entries where the manifest counts ${m.exchanges.inFull}`);
    problems.push(...crossCheck(dir, m));
  } catch (e) {
    problems.push(`the bundle's files could not be read together (${(e as Error).message})`);
  }
  // Scanned whatever else is wrong: a planted secret is named as one.
  try {
    return scanBundle(dir, m, secrets);
  } catch (e) {
    problems.push(`the bundle's files could not be scanned (${(e as Error).message})`);
    return [];
  }
}

/** @param dir the bundle's folder */
export function verifyBundle(dir: string, o: VerifyOptions = {}): Verification {
  const problems: string[] = [];
  const notes: string[] = [];
  let findings: Finding[] = [];
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    return { valid: false, problems: [`${dir}: no such folder`], findings, notes, verdict: 'INVALID', accepted: false };
  const present = filesUnder(dir);
  checkDigestsFile(dir, present, problems);
  const bytes = present.includes('manifest.json') ? readFileSync(join(dir, 'manifest.json')) : undefined;
  const manifest = bytes ? readManifest(bytes, problems) : undefined;
  const fingerprint = bytes ? fingerprintOf(bytes) : undefined;
  if (o.fingerprint && fingerprint !== normalFingerprint(o.fingerprint))
    problems.push(
      `fingerprint ${fingerprint ?? 'none'} differs from the one given (${normalFingerprint(o.fingerprint)})`,
    );
  let signature: Verification['signature'];
  if (manifest && bytes) {
    checkManifestFiles(dir, manifest, present, problems);
    signature = checkSignature(dir, bytes, manifest, o, { problems, notes });
    if (manifest.catalogue.requirements.sha256 !== requirementCatalogue().sha256)
      notes.push(
        `made with another requirement catalogue than this suite's (${manifest.suite.name} ` +
          `${manifest.suite.version}); its requirements.csv is what was tested`,
      );
    findings = checkContents(dir, manifest, o.secrets ?? [], problems);
  }
  for (const f of findings) problems.push(`${f.file}, ${f.where}: ${f.kind}: ${f.what}`);
  const valid = problems.length === 0;
  let verdict = 'INVALID';
  let accepted = false;
  if (valid && manifest) {
    const run = manifest.run.verdict.toUpperCase();
    const c = manifest.certification;
    verdict = c ? `${run}, ${c.passed ? 'CERTIFIED' : 'NOT CERTIFIED'}` : run;
    accepted = manifest.run.verdict === 'pass' && (!c || c.passed);
  }
  return {
    valid,
    problems,
    findings,
    notes,
    ...(manifest ? { manifest } : {}),
    ...(fingerprint ? { fingerprint } : {}),
    ...(signature ? { signature } : {}),
    verdict,
    accepted,
  };
}

/** The verifier's report in lines: the bundle, its files, the problems or the verdict with the run's facts. */
export function verificationLines(dir: string, v: Verification): string[] {
  const m = v.manifest;
  const L = [`Evidence bundle ${dir}: ${v.valid ? 'VALID' : 'INVALID'}`];
  if (m) {
    L.push(
      `  product: ${m.product.name} ${m.product.version}`,
      `  suite: ${m.suite.name} ${m.suite.version}, commit ` +
        `${m.suite.commit ?? 'unknown'}${m.suite.modified ? ' (with local changes)' : ''}; requirement catalogue ` +
        `${m.catalogue.requirements.sha256.slice(0, 12)} (${m.catalogue.requirements.count} requirements, ` +
        `${m.catalogue.requirements.must} MUST)`,
      `  run: ${m.run.runId}, seed ${m.run.seed}, ${m.run.startedAt}: ${m.run.checks} checks, ${Object.entries(
        m.run.totals,
      )
        .filter(([k]) => k !== 'checks')
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}; exit code ${m.run.exitCode}`,
      `  ${m.target.statement}`,
      ...m.target.services.filter((t) => t.oauth).map((t) => `  ${t.service}: ${authText(t)}`),
      `  exchanges: ${m.exchanges.inFull} in full in exchanges.har, ${m.exchanges.summaryLinesOnly} kept as ` +
        `summary lines only`,
    );
    if (m.certification) {
      const c = m.certification;
      L.push(
        `  certification (${c.services.join(', ')}): ${c.passed ? 'PASSED' : 'FAILED'}; ${c.checksRun} checks ` +
          `run of the catalogue's ${c.catalogueChecks}; ${c.untestableMust.length} MUST requirement(s) untestable ` +
          `(listed in requirements.csv)`,
      );
      for (const r of c.reasons) L.push(`    - ${r}`);
      const notRun = notRunOnSharedDataLine(c);
      if (notRun) L.push(`    ${notRun}`);
    }
  }
  if (v.valid)
    L.push(
      `  digests: ${(m?.files.length ?? 0) + (m?.signature ? 1 : 0)} files match ${DIGESTS_FILE} and the manifest; the files agree with one ` +
        "another; no secret and no other source's identity data found",
    );
  if (v.signature === 'verified')
    L.push(`  signature: verified with the public key given (sha256:${m?.signature?.publicKey})`);
  if (v.fingerprint) L.push(`  fingerprint: ${v.fingerprint}`);
  for (const p of v.problems) L.push(`  problem: ${p}`);
  for (const n of v.notes) L.push(`  note: ${n}`);
  L.push(`verdict: ${v.verdict}`);
  return L;
}
