/**
 * A reference started by a self-test, pointed at as a user points the suite at a deployment: the
 * settings of all three services (base URLs, a bearer token, basic credentials, the test sources)
 * and a profile, and the records of the test sources a run left behind.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningReference } from '../../reference/server.js';
import { REFERENCE_SOURCES } from '../../run/deployments.js';

/**
 * The settings a user of this reference would give for all three services, with `profile` written
 * to a file of its own (default: no clock-skew margin, the reference shares this machine's clock).
 */
export function configuredSettings(
  ref: RunningReference,
  profile: Record<string, unknown> = { notifications: { clockSkewMs: 0 } },
) {
  const file = join(mkdtempSync(join(tmpdir(), 'cf-configured-')), 'profile.json');
  writeFileSync(file, JSON.stringify(profile));
  const sources = REFERENCE_SOURCES.join(',');
  return {
    ORG_BASE_URL: ref.baseUrlOf('organization'),
    ORG_TOKEN: ref.token,
    ORG_SOURCES: sources,
    PERSON_BASE_URL: ref.baseUrlOf('person'),
    PERSON_TOKEN: ref.token,
    PERSON_SOURCES: sources,
    PERSON_CUSTOMER_ID: 'reference-customer',
    PROVIDER_BASE_URL: ref.baseUrlOf('provider'),
    PROVIDER_USERNAME: ref.auth.username,
    PROVIDER_PASSWORD: ref.auth.password,
    PROVIDER_SOURCES: sources,
    CONFORMANCE_PROFILE: file,
  };
}

/** Records of the test sources still in the reference, as `<service> <source name>/<native ID>`. */
export const testRecordsLeft = (ref: RunningReference): string[] =>
  [...ref.stores.values()].flatMap((s) =>
    [...s.records.values()]
      .filter((r) => REFERENCE_SOURCES.includes(r.source.name))
      .map((r) => `${s.service} ${r.source.name}/${r.source.id}`),
  );
