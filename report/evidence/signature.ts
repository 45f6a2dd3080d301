/**
 * An evidence bundle's fingerprint and its optional signature. The manifest holds the SHA-256 of every other file of
 * the bundle, so the SHA-256 of manifest.json stands for the whole bundle: its fingerprint, which the run prints and
 * `npm run evidence:verify` prints again (and compares with one given), for a change ticket to record. With a key the
 * user provides (CONFORMANCE_EVIDENCE_KEY: an Ed25519 private key, PEM), the run signs manifest.json's bytes
 * (manifest.sig, base64) and the manifest names the public key that verifies it (the SHA-256 of its DER
 * SubjectPublicKeyInfo); the verifier checks the signature with the public key it is given (--public-key or
 * CONFORMANCE_EVIDENCE_PUBLIC_KEY). Ed25519 through node:crypto (RFC 8032; `sign(null, ...)`, no digest of its own).
 */
import { type KeyObject, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SettingsError } from '../../harness/config.js';
import { sha256Hex } from './manifest.js';

export const SIGNATURE_FILE = 'manifest.sig';

/** The bundle's fingerprint: `sha256:` and the SHA-256 of manifest.json's bytes. */
export const fingerprintOf = (manifestBytes: Buffer) => `sha256:${sha256Hex(manifestBytes)}`;

/** A fingerprint as a user may write it (with or without `sha256:`, any case), in the form fingerprintOf gives. */
export const normalFingerprint = (f: string) =>
  `sha256:${f
    .trim()
    .toLowerCase()
    .replace(/^sha256:/, '')}`;

/** The SHA-256 of a key's public half (DER SubjectPublicKeyInfo), hex: the manifest names the signer by it. */
export const publicKeyId = (key: KeyObject) =>
  sha256Hex((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }) as Buffer);

/** Reads an Ed25519 key (private or public, PEM) from `file`. @throws SettingsError naming `setting` */
function readKey(file: string, setting: string, kind: 'private' | 'public'): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SettingsError(
      setting,
      `a readable ${kind}-key file (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`,
      file,
    );
  }
  let key: KeyObject;
  try {
    key = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
  } catch {
    throw new SettingsError(setting, `an Ed25519 ${kind} key in PEM (openssl genpkey -algorithm ed25519)`, file);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SettingsError(
      setting,
      `an Ed25519 ${kind} key, not ${key.asymmetricKeyType ?? 'this kind of'} key`,
      file,
    );
  return key;
}

/** The signing key a setting names. @throws SettingsError naming the setting when unreadable or not Ed25519 */
export const readSigningKey = (file: string, setting: string) => readKey(file, setting, 'private');

/** The public key a setting or argument names. @throws SettingsError naming it when unreadable or not Ed25519 */
export const readPublicKey = (file: string, setting: string) => readKey(file, setting, 'public');

/** The Ed25519 signature of `bytes`, base64. */
export const signBytes = (bytes: Buffer, key: KeyObject) => sign(null, bytes, key).toString('base64');

/** True when `signature` (base64) is `key`'s Ed25519 signature of `bytes`. */
export function signatureHolds(bytes: Buffer, signature: string, key: KeyObject): boolean {
  try {
    return verify(null, bytes, key, Buffer.from(signature.trim(), 'base64'));
  } catch {
    return false;
  }
}
