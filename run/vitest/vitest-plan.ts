/**
 * What the vitest configuration of a conformance run (vitest.config.ts) needs of the run's plan:
 * the run ID, where reports go, the requirement link template, the check time limit, the
 * scenario files run side by side and the services' isolation groups. `npm run conformance` builds it once in its first step
 * (run/cli/conformance-prepare.ts, from run/run-settings.ts and the preflight's round trip) and
 * hands it to the vitest process in VITEST_PLAN_ENV, as JSON.
 *
 * Why a hand-off and not the settings modules themselves: vitest keys its cache of transformed
 * modules (`experimental.fsModuleCache`) on the content of every file its configuration imports,
 * hashed again for every module the run loads, and bundles those files at every start. Importing
 * the settings pulled in the specs and the whole reference (70 files, 480 KB): about 0.7 s of the
 * vitest process's CPU per run (docs/performance.md, item 35). This module imports nothing.
 */

/** Internal: the plan of the vitest process, JSON, set by `npm run conformance` for its vitest process. */
export const VITEST_PLAN_ENV = 'CONFORMANCE_VITEST_PLAN';

export interface VitestPlan {
  /** The run ID (report folder name, native-ID namespace). */
  runId: string;
  /** Where run folders go (CONFORMANCE_REPORT_DIR). */
  reportDir: string;
  /** Where Allure requirement links point, `%s` = requirement ID (CONFORMANCE_REQUIREMENT_URL). */
  requirementUrl: string;
  /** Timeout of one request, ms (CONFORMANCE_TIMEOUT_MS): a check's time limit follows from it. */
  timeoutMs: number;
  /** Scenario files run side by side (harness/config.ts filesAtOnceFor, with the preflight's round trip). */
  filesAtOnce: number;
  /** Isolation group of each configured service (isolationGroups); a service not named is a group of its own. */
  isolationGroups: Record<string, string>;
}

const isPlan = (v: unknown): v is VitestPlan => {
  const p = v as Partial<VitestPlan> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.runId === 'string' &&
    typeof p.reportDir === 'string' &&
    typeof p.requirementUrl === 'string' &&
    Number.isFinite(p.timeoutMs) &&
    Number.isInteger(p.filesAtOnce) &&
    (p.filesAtOnce ?? 0) >= 1 &&
    typeof p.isolationGroups === 'object' &&
    p.isolationGroups !== null &&
    Object.values(p.isolationGroups).every((g) => typeof g === 'string')
  );
};

/**
 * The plan handed over in VITEST_PLAN_ENV, or undefined when there is none (vitest started
 * directly: `npx vitest run`, the merge step).
 * @throws Error naming VITEST_PLAN_ENV when it is set but is not such a plan (only a command sets it)
 */
export function handedVitestPlan(env: Record<string, string | undefined> = process.env): VitestPlan | undefined {
  const text = env[VITEST_PLAN_ENV];
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isPlan(parsed)) throw new Error(`${VITEST_PLAN_ENV}: not a plan of npm run conformance (it sets this variable itself; unset it)`);
  return parsed;
}

/**
 * Isolation groups of the services, for the isolated areas: a service's bad-input files wait for
 * the other files of every service in its group (run/vitest/side-by-side-runner.mjs). Services reached
 * at the same service URL (base URL and service path: the organization and provider services
 * share the documented path `/provider-link-ws/svc`) may be one deployment with one store, so
 * they form one group; every other service is a group of its own.
 * @param serviceUrls the service URL of each configured service (none against the embedded reference, whose services are apart)
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
