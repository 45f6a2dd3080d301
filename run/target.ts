/** The run's target as the settings give it, stated before anything starts (report/target.ts words it). */
import type { Settings } from '../harness/config.js';
import { serviceNames } from '../specs/services.js';
import { targetStatement as statement } from '../report/target.js';

export function targetStatement(settings: Settings): string {
  const embedded = settings.target === 'embedded';
  return statement({
    embedded,
    targets: serviceNames().map((service) => {
      const c = settings.configured[service];
      return c
        ? { service, status: 'configured' as const, baseUrl: c.baseUrl, servicePath: c.servicePath }
        : { service, status: embedded ? ('embedded' as const) : ('not configured' as const) };
    }),
  });
}
