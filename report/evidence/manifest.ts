/**
 * The manifest of an evidence bundle (`manifest.json`): what was tested, with what, how and with which outcome, in a
 * form a change board's tooling can read. Its schema (zod) is what `npm run evidence:verify` checks a bundle's manifest
 * against.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { SERVICES } from '../../specs/services.js';

export const BUNDLE_FORMAT = 'identity-conformance-evidence';
/**
 * 2: ownership.json (the scan judges the exchanges by the run's own record of what it owned), the manifest's digests of
 * every other file, and its optional signature (manifest.sig).
 */
export const BUNDLE_VERSION = 2;

export const OWNERSHIP_FILE = 'ownership.json';
/** The files every bundle holds besides SHA256SUMS (which lists the digests of all of them). */
export const BUNDLE_FILES = [
  'manifest.json',
  'requirements.csv',
  'junit.xml',
  'report.html',
  'exchanges.har',
  OWNERSHIP_FILE,
] as const;
export const DIGESTS_FILE = 'SHA256SUMS';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const ManifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  createdAt: z.string(),
  product: z.object({ name: z.string().min(1), version: z.string().min(1) }),
  suite: z.object({
    name: z.string(),
    version: z.string(),
    commit: z.string().nullable(),
    modified: z.boolean().nullable(),
  }),
  catalogue: z.object({
    requirements: z.object({ sha256, count: z.number().int(), must: z.number().int() }),
    checks: z.object({ sha256, count: z.number().int() }).nullable(),
  }),
  run: z.object({
    runId: z.string(),
    seed: z.number(),
    startedAt: z.string(),
    finishedAt: z.string(),
    verdict: z.enum(['pass', 'fail', 'incomplete']),
    exitCode: z.number().int(),
    checks: z.number().int(),
    totals: z.record(z.string(), z.number()),
  }),
  target: z.object({
    statement: z.string(),
    services: z.array(
      z.object({
        service: z.string(),
        status: z.string(),
        baseUrl: z.string().optional(),
        servicePath: z.string().optional(),
        auth: z.string().optional(),
        oauth: z
          .object({
            tokenHost: z.string(),
            clientId: z.string(),
            scope: z.string().optional(),
            audience: z.string().optional(),
          })
          .optional(),
        sources: z.array(z.string()).optional(),
      }),
    ),
  }),
  settings: z.record(z.string(), z.unknown()),
  profile: z.unknown(),
  exchanges: z.object({ inFull: z.number().int(), summaryLinesOnly: z.number().int(), kept: z.string() }),
  certification: z
    .object({
      profile: z.literal('certification'),
      passed: z.boolean(),
      services: z.array(z.string()),
      reasons: z.array(z.string()),
      catalogueChecks: z.number().int(),
      checksRun: z.number().int(),
      untestableMust: z.array(z.object({ id: z.string(), reason: z.string() })),
      notRunOnSharedData: z.array(
        z.object({ checkId: z.string(), requirements: z.array(z.string()), why: z.string(), member: z.string() }),
      ),
    })
    .nullable(),
  files: z.array(z.string()),
  /** The SHA-256 of every other file of the format: the manifest's own digest (the fingerprint) covers the bundle. */
  digests: z.record(z.string(), sha256),
  /** The key that signed the manifest (manifest.sig): its algorithm and the SHA-256 of its public key (DER SPKI). */
  signature: z.object({ algorithm: z.literal('Ed25519'), publicKey: sha256 }).nullable(),
});

export type Manifest = z.infer<typeof ManifestSchema>;

/** SHA-256 of a text, hex. */
export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The requirement catalogue as the bundle names it: SHA-256 of every requirement (service, ID, level, section, text,
 * why untestable) in catalogue order, its size and its MUST count.
 */
export function requirementCatalogue(): { sha256: string; count: number; must: number } {
  const all = Object.values(SERVICES).flatMap((spec) =>
    spec.requirements.map((r) => ({
      service: spec.name,
      id: r.id,
      level: r.level,
      section: r.section,
      text: r.text,
      untestable: r.untestable ?? null,
    })),
  );
  return {
    sha256: sha256Hex(JSON.stringify(all)),
    count: all.length,
    must: all.filter((r) => r.level === 'MUST').length,
  };
}
