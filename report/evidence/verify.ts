/**
 * Verifies an evidence bundle (`npm run evidence:verify <dir>`): the digests in SHA256SUMS match every file; the bundle
 * is complete (every file of the format, each listed, nothing unlisted); the manifest has the format's schema and
 * agrees with the files (requirements, checks, exchanges counted); the bundle holds no secret and no other source's
 * identity data (scan.ts, again); and it says whether the bundle was made with this suite's requirement catalogue. The
 * bundle's verdict follows: INVALID when any of that fails, else the run's verdict and, when the bundle was made with
 * the certification profile, whether the run was certified.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'csv-parse/sync';
import { scanBundle } from './bundle.js';
import { notRunOnSharedDataLine } from './certification.js';
import {
  BUNDLE_FILES,
  DIGESTS_FILE,
  type Manifest,
  ManifestSchema,
  requirementCatalogue,
  sha256Hex,
} from './manifest.js';
import type { Finding } from './scan.js';

export interface Verification {
  /** True when the digests, completeness, manifest and scan are all in order. */
  valid: boolean;
  /** What is wrong with the bundle, one line each (empty when valid). */
  problems: string[];
  findings: Finding[];
  /** Facts that do not make it invalid (another suite's catalogue). */
  notes: string[];
  manifest?: Manifest;
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

/**
 * @param dir the bundle's folder
 * @param secrets credentials of the current settings, looked for too (the bundle never names them)
 */
export function verifyBundle(dir: string, secrets: string[] = []): Verification {
  const problems: string[] = [];
  const notes: string[] = [];
  let findings: Finding[] = [];
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    return { valid: false, problems: [`${dir}: no such folder`], findings, notes, verdict: 'INVALID', accepted: false };
  const present = filesUnder(dir);
  // Digests: every line's file exists and matches; every file but SHA256SUMS is listed.
  const listed = new Map<string, string>();
  if (!present.includes(DIGESTS_FILE)) problems.push(`${DIGESTS_FILE} is missing: the files cannot be checked`);
  else
    for (const [i, line] of readFileSync(join(dir, DIGESTS_FILE), 'utf8').split('\n').entries()) {
      if (!line.trim()) continue;
      const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
      if (!m) {
        problems.push(`${DIGESTS_FILE}, line ${i + 1}: not "<sha256>  <file>"`);
        continue;
      }
      listed.set(m[2]!, m[1]!);
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

  let manifest: Manifest | undefined;
  if (present.includes('manifest.json')) {
    try {
      const parsed = ManifestSchema.safeParse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
      if (parsed.success) manifest = parsed.data;
      else
        problems.push(
          `manifest.json: not an evidence manifest (${parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
            .join('; ')})`,
        );
    } catch (e) {
      problems.push(`manifest.json: not JSON (${(e as Error).message})`);
    }
  }
  if (manifest) {
    for (const file of manifest.files)
      if (!BUNDLE_FILES.includes(file as (typeof BUNDLE_FILES)[number]))
        problems.push(`manifest.json names ${file}, no file of the format`);
    const catalogue = requirementCatalogue();
    if (manifest.catalogue.requirements.sha256 !== catalogue.sha256)
      notes.push(
        `made with another requirement catalogue than this suite's (${manifest.suite.name} ` +
          `${manifest.suite.version}); its requirements.csv is what was tested`,
      );
    try {
      const rows = parse(readFileSync(join(dir, 'requirements.csv'), 'utf8'), { columns: true }) as Array<
        Record<string, string>
      >;
      if (rows.length !== manifest.catalogue.requirements.count)
        problems.push(
          `requirements.csv: ${rows.length} requirements where the manifest's catalogue has ` +
            `${manifest.catalogue.requirements.count}`,
        );
      const checked = rows.filter((r) => r.checks).flatMap((r) => r.checks!.split(' '));
      if (new Set(checked).size > manifest.run.checks)
        problems.push(
          `requirements.csv cites ${new Set(checked).size} checks where the run had ${manifest.run.checks}`,
        );
    } catch (e) {
      problems.push(`requirements.csv: not readable CSV (${(e as Error).message})`);
    }
    try {
      const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
      const cases = (junit.match(/<testcase\b/g) ?? []).length;
      if (cases !== manifest.run.checks)
        problems.push(`junit.xml: ${cases} test cases where the manifest's run has ${manifest.run.checks} checks`);
      const har = JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')) as { log?: { entries?: unknown[] } };
      const entries = har.log?.entries?.length ?? -1;
      if (entries !== manifest.exchanges.inFull)
        problems.push(`exchanges.har: ${entries} entries where the manifest counts ${manifest.exchanges.inFull}`);
      findings = scanBundle(dir, manifest, secrets);
    } catch (e) {
      problems.push(`the bundle's files could not be read (${(e as Error).message})`);
    }
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
  return { valid, problems, findings, notes, ...(manifest ? { manifest } : {}), verdict, accepted };
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
      `  digests: ${m?.files.length ?? 0} files match ${DIGESTS_FILE}; no secret and no other source's identity ` +
        `data found`,
    );
  for (const p of v.problems) L.push(`  problem: ${p}`);
  for (const n of v.notes) L.push(`  note: ${n}`);
  L.push(`verdict: ${v.verdict}`);
  return L;
}
