/**
 * Where the benchmark sends its records: the embedded reference (started here, optionally with a
 * different match threshold) or the deployment configured with the same settings as the suite
 * (harness/config.ts: PREFIX_BASE_URL, credentials, PREFIX_SOURCES ...). Mirrors the target
 * building of harness/global-setup.ts.
 */
import type { ServiceName } from '../../specs/common/model.js';
import { SERVICES, serviceNames } from '../../specs/services.js';
import { type RunningReference, startReference } from '../../reference/server.js';
import { REFERENCE_SERVICES } from '../../reference/services.js';
import { type ServiceTarget, type Settings, preferAuth } from '../config.js';
import type { Profile } from '../profile.js';

/** Source names the embedded reference accepts for test records (as in harness/global-setup.ts). */
export const REFERENCE_SOURCES = ['cf_test_a', 'cf_test_b'];

export interface Targets {
  targets: Partial<Record<ServiceName, ServiceTarget>>;
  reference?: RunningReference;
  stop(): Promise<void>;
}

export function referenceTarget(reference: RunningReference, name: ServiceName, profile: Profile): ServiceTarget {
  const spec = SERVICES[name];
  const scheme = name === 'person' ? profile.person.auth : spec.authSchemes[0];
  return {
    service: name,
    baseUrl: reference.baseUrlOf(name),
    servicePath: spec.servicePath,
    auth: scheme === 'bearer' ? { scheme: 'bearer', token: reference.token } : { scheme: 'basic', username: reference.auth.username, password: reference.auth.password },
    sources: REFERENCE_SOURCES,
    customerId: name === 'person' ? 'reference-customer' : undefined,
    embedded: true,
  };
}

/** Targets of a benchmark: configured services when any is configured, else a fresh embedded reference. */
export async function openTargets(settings: Settings, profile: Profile, reference?: { matchThreshold?: number }): Promise<Targets> {
  if (Object.keys(settings.configured).length) {
    const targets: Targets['targets'] = {};
    for (const name of serviceNames()) {
      const c = settings.configured[name];
      if (c) targets[name] = { ...preferAuth(c, name === 'person' ? profile.person.auth : undefined), embedded: false };
    }
    return { targets, stop: async () => {} };
  }
  const ref = await startReference({ matchThreshold: reference?.matchThreshold });
  const targets: Targets['targets'] = {};
  for (const name of serviceNames()) if (REFERENCE_SERVICES[name]) targets[name] = referenceTarget(ref, name, profile);
  return { targets, reference: ref, stop: () => ref.stop() };
}
