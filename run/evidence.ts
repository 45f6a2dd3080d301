/**
 * The evidence bundle of a conformance run (`npm run conformance -- --evidence <dir> --product <name> --product-version
 * <version> [--certification]`), written by the command's step 3 once the run has ended
 * (run/cli/conformance-finish.ts): the suite's version and commit, the settings without secrets, with the certification
 * profile its judgement (and the suite's check catalogue for the run's settings, run/check-catalogue.ts), then
 * report/evidence/bundle.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { oauthShown } from '../harness/oauth.js';
import { type Auth, EVIDENCE_KEY_SETTING, type Settings, evidenceKeySetting } from '../harness/config.js';
import { certify, notRunOnSharedDataLine } from '../report/evidence/certification.js';
import { writeEvidenceBundle } from '../report/evidence/bundle.js';
import { BUNDLE_FILES, DIGESTS_FILE, sha256Hex } from '../report/evidence/manifest.js';
import { SIGNATURE_FILE, readSigningKey } from '../report/evidence/signature.js';
import type { Summary } from '../report/summary.js';
import { collectCatalogue } from './check-catalogue.js';
import { resolveBudgets } from '../harness/config.js';
import { SUITE } from './command.js';

/** What the command was asked to put in the bundle. */
export interface EvidenceRequest {
  dir: string;
  product: string;
  productVersion: string;
  certification: boolean;
}

const ROOT = join(import.meta.dirname, '..');

/** The suite's commit, and whether its files differ from it (reports/ aside); null when it is no git checkout. */
function suiteCommit(): { commit: string | null; modified: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--', '.', ':!reports'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return { commit, modified: status.trim().length > 0 };
  } catch {
    return { commit: null, modified: null };
  }
}

const credentials = (a: Auth | undefined): string[] =>
  !a
    ? []
    : a.scheme === 'basic'
      ? [a.password, `${a.username}:${a.password}`]
      : a.token !== undefined
        ? [a.token]
        : [a.oauth.clientSecret, `${a.oauth.clientId}:${a.oauth.clientSecret}`];

/** The password of a proxy URL (user:password@host), if any. */
const proxyPassword = (url: string | undefined): string[] => {
  try {
    const p = url ? decodeURIComponent(new URL(url).password) : '';
    return p ? [p] : [];
  } catch {
    return [];
  }
};

/**
 * The credentials of the settings (tokens, passwords, OAuth2 client secrets, proxy passwords): what the bundle must
 * never hold.
 */
export const settingsSecrets = (s: Settings): string[] =>
  Object.values(s.configured).flatMap((t) => [
    ...credentials(t?.auth),
    ...credentials(t?.alternateAuth),
    ...proxyPassword(t?.proxy?.https?.url),
    ...proxyPassword(t?.proxy?.http?.url),
  ]);

/** The settings a bundle records: everything but credentials (a credential shows as "set") and TLS key contents. */
export function settingsWithoutSecrets(s: Settings): Record<string, unknown> {
  return {
    target: s.target,
    exchanges: s.exchanges,
    seed: s.seed,
    maxInFlight: s.maxInFlight,
    filesAtOnce: s.filesAtOnce || 'default',
    timeoutMs: s.timeoutMs,
    retryBudgetMs: s.retryBudgetMs,
    retries: s.retries ?? 'default',
    rateLimit: s.rateLimit ?? 'none',
    walks: s.walks || 'default',
    walkSteps: s.walkSteps || 'default',
    badInputs: s.badInputs || 'default',
    profilePath: s.profilePath ?? null,
    services: Object.fromEntries(
      Object.entries(s.configured).map(([service, t]) => [
        service,
        {
          baseUrl: t!.baseUrl,
          servicePath: t!.servicePath,
          auth: t!.auth.scheme,
          ...(t!.auth.scheme === 'bearer' && t!.auth.oauth ? { oauth: oauthShown(t!.auth.oauth) } : {}),
          credentials: 'set',
          ...(t!.auth.scheme === 'basic' ? { username: t!.auth.username } : {}),
          sources: t!.sources,
          ...(t!.customerId ? { customerId: t!.customerId } : {}),
          ...(t!.tls ? { tls: Object.fromEntries(Object.keys(t!.tls).map((k) => [k, 'set'])) } : {}),
        },
      ]),
    ),
  };
}

/**
 * Writes the bundle of a finished run and prints what it did.
 * @param env the run's environment (for the check catalogue's collection)
 * @returns the command's exit code when the bundle was written (the run's, or 1 when the run passed but the
 *   certification failed), and why it was not (`missing`; the scan's findings are printed: the caller says so and exits
 *   6, run/cli/conformance-finish.ts)
 */
export async function writeRunEvidence(
  request: EvidenceRequest,
  runFolder: string,
  settings: Settings,
  env: Record<string, string | undefined>,
  code: number,
): Promise<{ code: number; missing?: string }> {
  const summary = JSON.parse(readFileSync(join(runFolder, 'summary.json'), 'utf8')) as Summary;
  let certification: ReturnType<typeof certify> | undefined;
  let checks: { sha256: string; count: number } | undefined;
  if (request.certification) {
    const catalogue = await collectCatalogue(resolveBudgets(settings, settings.target === 'embedded'));
    if (catalogue.checks) {
      const keys = catalogue.checks.map((c) => `${c.file}\u0000${c.name}`).sort();
      checks = { sha256: sha256Hex(keys.join('\n')), count: keys.length };
    }
    certification = certify(summary, catalogue.checks, catalogue.problem);
  }
  const exitCode = certification && !certification.passed && code === 0 ? 1 : code;
  const keyFile = evidenceKeySetting(env);
  let written: ReturnType<typeof writeEvidenceBundle>;
  try {
    const signingKey = keyFile ? readSigningKey(keyFile, EVIDENCE_KEY_SETTING) : undefined;
    written = writeEvidenceBundle(runFolder, request.dir, {
      ...(signingKey ? { signingKey } : {}),
      product: { name: request.product, version: request.productVersion },
      suite: { name: SUITE.name, version: SUITE.version, ...suiteCommit() },
      settings: settingsWithoutSecrets(settings),
      secrets: settingsSecrets(settings),
      ...(certification ? { certification } : {}),
      ...(checks ? { checks } : {}),
      exitCode,
    });
  } catch (e) {
    return { code, missing: (e as Error).message };
  }
  const { findings, fingerprint, manifest } = written;
  if (findings.length) {
    console.error('conformance: evidence bundle not written: the scan found what a bundle must never hold:');
    for (const f of findings.slice(0, 10)) console.error(`  ${f.file}, ${f.where}: ${f.kind}: ${f.what}`);
    if (findings.length > 10) console.error(`  ... and ${findings.length - 10} more`);
    return { code, missing: `the scan found ${findings.length} thing(s) a bundle must never hold, listed above` };
  }
  const files = [...BUNDLE_FILES, ...(manifest.signature ? [SIGNATURE_FILE] : []), DIGESTS_FILE];
  console.log(
    `evidence: ${request.dir} (${files.join(', ')}); check it with npm run evidence:verify -- ${request.dir}`,
  );
  console.log(`  fingerprint (record it in the change ticket): ${fingerprint}`);
  if (manifest.signature) console.log(`  signed: Ed25519, public key sha256:${manifest.signature.publicKey}`);
  if (certification) {
    console.log(
      `certification (${certification.services.join(', ')}): ${certification.passed ? 'PASSED' : 'FAILED'}: ` +
        `${certification.checksRun} checks run of the catalogue's ${certification.catalogueChecks}`,
    );
    for (const r of certification.reasons) console.log(`  - ${r}`);
    const notRun = notRunOnSharedDataLine(certification);
    if (notRun) console.log(`  ${notRun}`);
  }
  return { code: exitCode };
}
