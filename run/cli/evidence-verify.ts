/**
 * `npm run evidence:verify -- <dir> [--public-key <file>] [--fingerprint <sha256>]`: verifies an evidence bundle
 * (report/evidence/verify.ts): digests, completeness, manifest, its files against one another, a new scan for secrets
 * (those of the current settings too, when they load) and other sources' identity data, the fingerprint given and the
 * signature with the public key given; prints the bundle's fingerprint and verdict. Exit codes: 0 a valid bundle of a
 * run that passed (and was certified, when the bundle was made with the certification profile); 1 a valid bundle whose
 * run failed or was not certified; 3 an invalid bundle (changed, incomplete, files that disagree, holding a secret or
 * foreign data, another fingerprint, a signature that does not verify); 2 bad arguments.
 */
import {
  EVIDENCE_PUBLIC_KEY_SETTING,
  SettingsError,
  evidencePublicKeySetting,
  loadSettings,
} from '../../harness/config.js';
import { readPublicKey } from '../../report/evidence/signature.js';
import { verificationLines, verifyBundle } from '../../report/evidence/verify.js';
import { command, parseArguments, usageError } from '../command.js';
import { settingsSecrets } from '../evidence.js';

const program = command({
  name: 'evidence:verify',
  summary:
    'Verifies an evidence bundle (npm run conformance -- --evidence <dir>): SHA-256 digests, completeness, ' +
    "manifest, its files against one another, no secret and no other source's identity data, its fingerprint and " +
    'signature; prints its fingerprint and verdict.',
  settings: [
    'ORG_*, PERSON_*, PROVIDER_*        credentials of the current settings are looked for too',
    `${EVIDENCE_PUBLIC_KEY_SETTING}     Ed25519 public key (PEM) the signature must verify with (or --public-key)`,
  ],
  exitCodes: {
    0: 'valid bundle; its run passed (and was certified, with the certification profile)',
    1: 'valid bundle; its run failed or was not certified',
    2: 'bad arguments, or a public key that cannot be read',
    3:
      'invalid bundle: a file changed, missing or added, a bad manifest, files that disagree, a secret or foreign ' +
      'identity data, another fingerprint than the one given, a signature that does not verify',
  },
  examples: [
    'npm run evidence:verify -- evidence/acme-4.2',
    'npm run evidence:verify -- evidence/acme-4.2 --public-key evidence-key.pub.pem --fingerprint sha256:3f1c...',
  ],
})
  .argument('<dir>', 'the bundle folder')
  .option(
    '--public-key <file>',
    `Ed25519 public key (PEM) its signature must verify with (${EVIDENCE_PUBLIC_KEY_SETTING})`,
  )
  .option(
    '--fingerprint <sha256>',
    'the fingerprint recorded for the bundle (the run printed it): it must be the same',
  );
parseArguments(program);
const [dir] = program.args as [string];
const asked = program.opts<{ publicKey?: string; fingerprint?: string }>();
if (asked.fingerprint !== undefined && !/^(sha256:)?[0-9a-f]{64}$/i.test(asked.fingerprint.trim()))
  usageError(
    program,
    `--fingerprint: expected sha256:<64 hex digits>, as the run printed it, got ${JSON.stringify(asked.fingerprint)}`,
  );

let secrets: string[] = [];
try {
  secrets = settingsSecrets(loadSettings());
} catch {
  // settings that do not load name no credential to look for; the patterns still apply
}
let publicKey: ReturnType<typeof readPublicKey> | undefined;
try {
  const file = asked.publicKey ?? evidencePublicKeySetting();
  if (file) publicKey = readPublicKey(file, asked.publicKey ? '--public-key' : EVIDENCE_PUBLIC_KEY_SETTING);
} catch (e) {
  if (!(e instanceof SettingsError)) throw e;
  usageError(program, e.message.replace(/^Setting --public-key/, '--public-key'));
}
const v = verifyBundle(dir, {
  secrets,
  ...(publicKey ? { publicKey } : {}),
  ...(asked.fingerprint ? { fingerprint: asked.fingerprint } : {}),
});
for (const line of verificationLines(dir, v)) console.log(line);
process.exitCode = !v.valid ? 3 : v.accepted ? 0 : 1;
