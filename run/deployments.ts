/**
 * Where a run sends its requests: the deployments configured in the settings or, when none is configured, an embedded
 * reference started here. Shared by the conformance run's global setup and the match-quality benchmark, so both build
 * targets the same way.
 *
 * Returns one entry per service: its target, or null when the service is not configured (or the reference does not
 * serve it).
 */
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES, serviceNames } from '../specs/services.js';
import type { ReferenceOptions, RunningReference } from '../reference/server.js';
import { referenceSettings } from '../reference/settings.js';
import { type ServiceTarget, type Settings, preferAuth } from '../harness/config.js';
import type { Profile } from '../harness/profile.js';

export { ReferenceSettingError } from '../reference/settings.js';

/**
 * Validates the embedded reference's settings (REFERENCE_FAULTS, REFERENCE_VARIANTS, ...) before anything starts, so a
 * misspelt name is one line and exit code 2, not a stack trace.
 * @throws ReferenceSettingError naming the setting
 */
export function checkReferenceSettings(env: Record<string, string | undefined> = process.env): void {
  referenceSettings(env);
}

/** Source names the embedded reference accepts for test records. */
export const REFERENCE_SOURCES = ['cf_test_a', 'cf_test_b'];

export interface Deployments {
  targets: Partial<Record<ServiceName, ServiceTarget | null>>;
  /** True when the targets are an embedded reference started by openDeployments. */
  embedded: boolean;
  reference?: RunningReference;
  stop(): Promise<void>;
}

/**
 * The target of one service of a running reference (bearer for organization, the profile's choice for person, basic for
 * provider).
 */
export function referenceTarget(reference: RunningReference, name: ServiceName, profile: Profile): ServiceTarget {
  const spec = SERVICES[name];
  const scheme = name === 'person' ? profile.person.auth : spec.authSchemes[0];
  return {
    service: name,
    baseUrl: reference.baseUrlOf(name),
    servicePath: spec.servicePath,
    auth:
      scheme === 'bearer'
        ? { scheme: 'bearer', token: reference.token }
        : { scheme: 'basic', username: reference.auth.username, password: reference.auth.password },
    sources: REFERENCE_SOURCES,
    customerId: name === 'person' ? 'reference-customer' : undefined,
    embedded: true,
  };
}

/** Configured services when any is configured, else a fresh embedded reference serving every service it implements. */
export async function openDeployments(
  settings: Settings,
  profile: Profile,
  reference: ReferenceOptions = {},
): Promise<Deployments> {
  const targets: Deployments['targets'] = {};
  if (Object.keys(settings.configured).length) {
    for (const name of serviceNames()) {
      const c = settings.configured[name];
      targets[name] = c
        ? { ...preferAuth(c, name === 'person' ? profile.person.auth : undefined), embedded: false }
        : null;
    }
    return { targets, embedded: false, stop: async () => {} };
  }
  // The reference (every handler, matcher and fault) is loaded only when it is started: a run against a configured
  // deployment starts faster without it.
  const [{ startReference }, { REFERENCE_SERVICES }] = await Promise.all([
    import('../reference/server.js'),
    import('../reference/services.js'),
  ]);
  const ref = await startReference(reference);
  for (const name of serviceNames())
    targets[name] = REFERENCE_SERVICES[name] ? referenceTarget(ref, name, profile) : null;
  return { targets, embedded: true, reference: ref, stop: () => ref.stop() };
}
