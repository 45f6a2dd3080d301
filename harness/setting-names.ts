/**
 * Every environment variable the suite's commands read, and the check that nothing else with the suite's prefixes
 * (ORG_, PERSON_, PROVIDER_, CONFORMANCE_, REFERENCE_) is set: a misspelt setting (ORG_BASEURL) would otherwise be
 * ignored and the run would silently go elsewhere (the embedded reference) and pass. The check names the variable and
 * the closest known setting.
 *
 * Internal variables are set by the commands for their own child processes (harness/handoff.ts declares them); they are
 * known so a child accepts them, and documented as internal (README, "Settings").
 */
import { closest, distance } from 'fastest-levenshtein';
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES, serviceNames } from '../specs/services.js';
import { HANDOFFS } from './handoff.js';

/** Prefixes a variable must have to be checked; anything else in the environment is not the suite's. */
export const SETTING_PREFIXES = ['ORG_', 'PERSON_', 'PROVIDER_', 'CONFORMANCE_', 'REFERENCE_'];

/** `env` less the suite's and the reference's settings (SETTING_PREFIXES) but `kept`, and less `dropped`. */
export const withoutSettings = (
  env: NodeJS.ProcessEnv,
  kept: readonly string[] = [],
  dropped: readonly string[] = [],
) =>
  Object.fromEntries(
    Object.entries(env).filter(
      ([k]) => kept.includes(k) || !(SETTING_PREFIXES.some((p) => k.startsWith(p)) || dropped.includes(k)),
    ),
  );

/** Settings a user sets, besides the per-service ones (serviceSettingNames). */
export const RUN_SETTINGS = [
  'CONFORMANCE_PROFILE',
  'CONFORMANCE_SEED',
  'CONFORMANCE_RUN_ID',
  'CONFORMANCE_MAX_IN_FLIGHT',
  'CONFORMANCE_FILES_AT_ONCE',
  // The older name of CONFORMANCE_FILES_AT_ONCE, from when each file had a test worker of its own.
  'CONFORMANCE_WORKERS',
  'CONFORMANCE_TIMEOUT_MS',
  'CONFORMANCE_REPORT_DIR',
  'CONFORMANCE_WALKS',
  'CONFORMANCE_WALK_STEPS',
  'CONFORMANCE_BAD_INPUTS',
  'CONFORMANCE_SCOPE',
  'CONFORMANCE_RETRIES',
  'CONFORMANCE_RETRY_BUDGET_MS',
  'CONFORMANCE_RATE_LIMIT',
  'CONFORMANCE_KNOWN_FAILURES',
  'CONFORMANCE_REQUIREMENT_URL',
  'CONFORMANCE_TARGET',
  'CONFORMANCE_EXCHANGES',
  'CONFORMANCE_VERBOSE',
  'CONFORMANCE_EVIDENCE_KEY',
  'CONFORMANCE_EVIDENCE_PUBLIC_KEY',
  'REFERENCE_FAULTS',
  'REFERENCE_VARIANTS',
  'REFERENCE_FOREIGN_DATA',
  'REFERENCE_GROUPED_BY_SOURCE',
  'REFERENCE_MATCH_THRESHOLD',
  'REFERENCE_LATENCY_MS',
  'REFERENCE_JITTER_MS',
];

/**
 * Variables the commands set for their children, declared in harness/handoff.ts (the user settings a command hands on
 * are RUN_SETTINGS above). Only those with a suite prefix: the check below never sees the others (DETECTION_*).
 */
export const INTERNAL_SETTINGS = HANDOFFS.filter(
  (h) => !h.handedOn && SETTING_PREFIXES.some((p) => h.name.startsWith(p)),
).map((h) => h.name);

/** Read by the project's own tests, never by a run: the browser of the report's self-test. */
export const SELF_TEST_SETTINGS = ['CONFORMANCE_CHROMIUM'];

/**
 * The settings of one service: base URL, path, sources, TLS, the credentials of its auth schemes, and the person
 * customer ID.
 */
export function serviceSettingNames(service: ServiceName): string[] {
  const spec = SERVICES[service];
  const p = spec.envPrefix;
  return [
    `${p}_BASE_URL`,
    `${p}_SERVICE_PATH`,
    `${p}_SOURCES`,
    `${p}_TLS_CERT`,
    `${p}_TLS_KEY`,
    `${p}_TLS_CA`,
    ...(spec.authSchemes.includes('bearer')
      ? [
          `${p}_TOKEN`,
          `${p}_OAUTH_TOKEN_URL`,
          `${p}_OAUTH_CLIENT_ID`,
          `${p}_OAUTH_CLIENT_SECRET`,
          `${p}_OAUTH_SCOPE`,
          `${p}_OAUTH_AUDIENCE`,
        ]
      : []),
    ...(spec.authSchemes.includes('basic') ? [`${p}_USERNAME`, `${p}_PASSWORD`] : []),
    // customerId is a member of the person request envelope only (person-provider-identity-api.md, Resources,
    // Envelope).
    ...(service === 'person' ? [`${p}_CUSTOMER_ID`] : []),
  ];
}

/**
 * The settings that gave a service's credentials, as advice names them: only settings that exist for the service and
 * that the run used (never PROVIDER_TOKEN: the provider service takes basic credentials only).
 */
export function credentialSettings(
  service: ServiceName,
  auth: { scheme: 'bearer' | 'basic'; oauth?: unknown },
): string[] {
  const p = SERVICES[service].envPrefix;
  if (auth.scheme === 'bearer' && auth.oauth)
    return [`${p}_OAUTH_CLIENT_ID`, `${p}_OAUTH_CLIENT_SECRET`, `${p}_OAUTH_SCOPE`];
  return auth.scheme === 'bearer' ? [`${p}_TOKEN`] : [`${p}_USERNAME`, `${p}_PASSWORD`];
}

/** Every variable with a suite prefix that a command reads. */
export function knownSettingNames(): string[] {
  return [...serviceNames().flatMap(serviceSettingNames), ...RUN_SETTINGS, ...INTERNAL_SETTINGS, ...SELF_TEST_SETTINGS];
}

/** The known setting closest to a misspelt name, when it is close enough to be a plausible typo. */
export function didYouMean(name: string, known: string[] = knownSettingNames()): string | undefined {
  const best = closest(name, known);
  return distance(name, best) <= Math.max(3, Math.floor(name.length / 4)) ? best : undefined;
}

/** Variables of `env` with a suite prefix that are not known settings, each with its suggestion. */
export function unknownSettings(env: Record<string, string | undefined>): Array<{ name: string; suggestion?: string }> {
  const known = new Set(knownSettingNames());
  return Object.keys(env)
    .filter((k) => SETTING_PREFIXES.some((p) => k.startsWith(p)) && !known.has(k))
    .sort()
    .map((name) => ({ name, suggestion: didYouMean(name) }));
}

/** The base-URL settings of every service (ORG_BASE_URL, ...). */
export const baseUrlSettings = () => serviceNames().map((s) => `${SERVICES[s].envPrefix}_BASE_URL`);

/**
 * True when a variable's name looks like a service base URL (…BASE_URL, …BASEURL, BASE_URI) or is a near miss of
 * ORG_BASE_URL, PERSON_BASE_URL or PROVIDER_BASE_URL, whatever its prefix.
 */
export function looksLikeBaseUrl(name: string): boolean {
  const letters = name.toUpperCase().replace(/[^A-Z]/g, '');
  if (/BASEUR[LI]/.test(letters)) return true;
  return baseUrlSettings().some((s) => distance(letters, s.replace(/_/g, '')) <= 2);
}
