/**
 * What the vitest configuration of a conformance run (vitest.config.ts) needs of the run's plan: the run ID, where
 * reports go, the requirement link template, the check time limit, the scenario files run side by side and the
 * services' isolation groups. `npm run conformance` builds it once in its first step (run/cli/conformance-prepare.ts,
 * from run/run-settings.ts and the preflight's round trip) and hands it to the vitest process as HANDOFF.vitestPlan
 * (harness/handoff.ts declares its shape, VitestPlan, and reads it back); this module works out the services' isolation
 * groups for it.
 *
 * Why a hand-off and not the settings modules themselves: vitest keys its cache of transformed modules
 * (`experimental.fsModuleCache`) on the content of every file its configuration imports, hashed again for every module
 * the run loads, and bundles those files at every start. Importing the settings pulled in the specs and the whole
 * reference (70 files, 480 KB): about 0.7 s of the vitest process's CPU per run (docs/performance.md, item 35).
 */

/**
 * Isolation groups of the services, for the isolated areas: a service's bad-input files wait for the other files of
 * every service in its group (run/vitest/side-by-side-runner.mjs). Services reached at the same service URL (base URL
 * and service path: the organization and provider services share the documented path `/provider-link-ws/svc`) may be
 * one deployment with one store, so they form one group; every other service is a group of its own.
 * @param serviceUrls the service URL of each configured service (none against the embedded reference, whose services
 *   are apart)
 * @returns each configured service's group: the first service, in the order given, at its URL
 */
export function isolationGroups(serviceUrls: Record<string, string>): Record<string, string> {
  const key = (url: string) => url.replace(/\/+$/, '').toLowerCase();
  const first = new Map<string, string>();
  return Object.fromEntries(
    Object.entries(serviceUrls).map(([service, url]) => {
      if (!first.has(key(url))) first.set(key(url), service);
      return [service, first.get(key(url))!];
    }),
  );
}
