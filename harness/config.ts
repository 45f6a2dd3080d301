/**
 * Settings: `.env` (dotenv) plus the environment, validated. This module is the only reader of the suite's environment
 * (each service's family of settings read by harness/service-settings.ts).
 *
 * A missing or malformed setting raises SettingsError naming the setting and what is expected; the command line turns
 * it into one message and exit code 2 before any request is sent. Each service reads the same family of settings under
 * its prefix (ORG_, PERSON_, PROVIDER_). A variable with one of the suite's prefixes that is no setting is refused with
 * the closest known name (harness/setting-names.ts), and the run's target (embedded reference or configured deployment)
 * can never be chosen by accident: CONFORMANCE_TARGET states it, and in CI a run that would fall back to the embedded
 * reference while a base-URL-like variable is set is refused.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import dotenv from 'dotenv';
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES, serviceNames } from '../specs/services.js';
import { type Auth, type ServiceTarget, serviceSettings } from './service-settings.js';
import { type Env, SettingsError } from './settings-error.js';
import { SETTING_PREFIXES, baseUrlSettings, looksLikeBaseUrl, unknownSettings } from './setting-names.js';

// The settings' errors and a service's target, for the callers that take all of the settings from here.
export { SettingsError } from './settings-error.js';
export type { Auth, ProxySettings, ServiceTarget, TlsFiles } from './service-settings.js';

/** Which exchanges a run keeps in full (CONFORMANCE_EXCHANGES); the others as one summary line each. */
export type ExchangesKept = 'all' | 'failing' | 'none';

/** Where a run sends its requests: the embedded reference or the configured deployments. */
export type RunTarget = 'embedded' | 'configured';

export interface Settings {
  /** The run's target: configured when any service URL is set, else embedded (CONFORMANCE_TARGET states the intent). */
  target: RunTarget;
  /** Exchanges kept in full: of every check, of failing checks only (default), or none (CONFORMANCE_EXCHANGES). */
  exchanges: ExchangesKept;
  /**
   * Routine internals on the console (CONFORMANCE_VERBOSE=1, or `npm run conformance -- --verbose`): each walk check's
   * seeds and state-table coverage, the generated bad input's lanes and seeds, the match threshold the metamorphic
   * checks bound, the preflight's round trip, and the run's opening block in full. Off by default: the reports keep all
   * of it.
   */
  verbose: boolean;
  profilePath?: string;
  seed: number;
  seedFromSettings: boolean;
  runId?: string;
  maxInFlight: number;
  /**
   * Scenario files running side by side in the run's test worker (CONFORMANCE_FILES_AT_ONCE, or its older name
   * CONFORMANCE_WORKERS), counted as 5 checks each: a file with fewer checks leaves the rest to the next files
   * (run/vitest/side-by-side-runner.mjs); 0 = the default for the target: 2 against the embedded reference (the run is
   * CPU-bound there), 4 against a configured deployment (the run waits on the network, and four files overlap their
   * waits), 6 against one whose preflight round trip is ms or more, one per core (2 to 4) against one whose round trip
   * is under 15 ms (filesAtOnceFor).
   */
  filesAtOnce: number;
  timeoutMs: number;
  reportDir: string;
  /** Where an Allure requirement link points, `%s` standing for the requirement ID (CONFORMANCE_REQUIREMENT_URL). */
  requirementUrl: string;
  /**
   * Planned walks per service and most steps per walk (CONFORMANCE_WALKS, CONFORMANCE_WALK_STEPS); 0 = the default for
   * the target (DEFAULT_BUDGETS). Walks 0 in the budgets: as many as the scope's situations need.
   */
  walks: number;
  walkSteps: number;
  /** Generated bad-input requests per bad-input check (CONFORMANCE_BAD_INPUTS); 0 = the default for the target. */
  badInputs: number;
  /**
   * How much of the generated cases a run covers (CONFORMANCE_SCOPE): `default`, what fits the
   * target's budget (every situation of the default scope against the embedded reference, the most
   * novel within the request budget against a configured deployment); `full`, every situation of
   * the wide scope and every boundary value. `--certification` implies `full`.
   */
  scope: RunScope;
  /**
   * Longest a request is retried for, ms from its first attempt (CONFORMANCE_RETRY_BUDGET_MS,
   * default DEFAULT_RETRY_BUDGET_MS, 0-600000; 0: never retried). What may be retried is
   * harness/retry-policy.ts retryReason: a request the deployment did not process (HTTP 429/503,
   * retryableError=true, connection refused) whatever it is, and reads and postIdentity also after
   * HTTP 502/504 or a reset; a merge whose outcome is unknown is never re-sent.
   */
  retryBudgetMs: number;
  /**
   * Most retries of one request besides the budget (CONFORMANCE_RETRIES, 0-100; unset: the budget alone). Throttled
   * attempts (HTTP 429, Retry-After) do not count: they wait out the service's pause.
   */
  retries?: number;
  /** Requests per second per service across the run's workers (CONFORMANCE_RATE_LIMIT); undefined = no limit. */
  rateLimit?: number;
  /** Configured services; empty when none is configured (then every service runs against the reference). */
  configured: Partial<Record<ServiceName, Omit<ServiceTarget, 'embedded'>>>;
  /**
   * REFERENCE_* variables set to a value: the embedded reference's settings. A run against a configured deployment
   * starts no reference, so the conformance command refuses them there (referenceSettingsProblem) instead of ignoring
   * them.
   */
  referenceSettings: string[];
}

/**
 * Retry budget of a request when CONFORMANCE_RETRY_BUDGET_MS is unset, ms: against 20% of requests failing transiently,
 * backoff steps of 0.2 to 5 s give about eight attempts in 30 s, so a request stays unanswered with a chance of about
 * 0.2^8 (3 in a million).
 */
export const DEFAULT_RETRY_BUDGET_MS = 30000;

const intSetting = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new SettingsError(name, `an integer from ${min} to ${max}`, raw);
  return n;
};

/** CONFORMANCE_RATE_LIMIT: requests per second per service, a number >= 0 (0 or unset: no limit). */
const rateSetting = (env: Env): number | undefined => {
  const raw = env.CONFORMANCE_RATE_LIMIT;
  if (raw === undefined || raw === '') return undefined;
  const rate = Number(raw);
  if (!Number.isFinite(rate) || rate < 0)
    throw new SettingsError(
      'CONFORMANCE_RATE_LIMIT',
      'requests per second per service, a number >= 0 (0 = no limit)',
      raw,
    );
  return rate > 0 ? rate : undefined;
};

/**
 * CONFORMANCE_MAX_IN_FLIGHT: requests in flight at most per service, 1..256, default 8; SettingsError naming it
 * otherwise.
 */
export const maxInFlightSetting = (env: Env): number => intSetting(env, 'CONFORMANCE_MAX_IN_FLIGHT', 8, 1, 256);

/**
 * Reads and validates every setting. `env` defaults to the process environment after `.env` is loaded (environment wins
 * over `.env`).
 * @throws SettingsError naming the first bad setting.
 */
export function loadSettings(env: Env = loadEnv()): Settings {
  checkSettingNames(env);
  const rawSeed = env.CONFORMANCE_SEED;
  let seed: number;
  if (rawSeed) {
    seed = Number(rawSeed);
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new SettingsError('CONFORMANCE_SEED', 'a non-negative integer', rawSeed);
  } else {
    seed = Math.floor(Math.random() * 2 ** 31);
  }
  const runId = env.CONFORMANCE_RUN_ID || undefined;
  if (runId && !/^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/.test(runId))
    throw new SettingsError('CONFORMANCE_RUN_ID', 'up to 40 letters, digits and dashes', runId);
  const profilePath = env.CONFORMANCE_PROFILE || undefined;
  if (profilePath && !existsSync(profilePath))
    throw new SettingsError('CONFORMANCE_PROFILE', 'the path of a deployment-profile JSON file', profilePath);

  const configured: Settings['configured'] = {};
  for (const name of serviceNames()) {
    const s = serviceSettings(env, name);
    if (s) configured[name] = s;
  }
  return {
    target: runTarget(env, configured),
    exchanges: exchangesSetting(env),
    verbose: verboseSetting(env),
    profilePath,
    seed,
    seedFromSettings: Boolean(rawSeed),
    runId,
    maxInFlight: maxInFlightSetting(env),
    filesAtOnce: filesAtOnceSetting(env),
    timeoutMs: intSetting(env, 'CONFORMANCE_TIMEOUT_MS', 30000, 100, 600000),
    reportDir: reportDirSetting(env),
    requirementUrl: requirementUrlSetting(env),
    walks: intSetting(env, 'CONFORMANCE_WALKS', 0, 0, 10000),
    walkSteps: intSetting(env, 'CONFORMANCE_WALK_STEPS', 0, 0, 200),
    badInputs: intSetting(env, 'CONFORMANCE_BAD_INPUTS', 0, 0, 10000),
    scope: scopeSetting(env),
    retryBudgetMs: intSetting(env, 'CONFORMANCE_RETRY_BUDGET_MS', DEFAULT_RETRY_BUDGET_MS, 0, 600000),
    ...(env.CONFORMANCE_RETRIES ? { retries: intSetting(env, 'CONFORMANCE_RETRIES', 0, 0, 100) } : {}),
    rateLimit: rateSetting(env),
    configured,
    referenceSettings: Object.keys(env)
      .filter((k) => k.startsWith('REFERENCE_') && env[k])
      .sort(),
  };
}

/**
 * The embedded reference's settings (REFERENCE_FAULTS, ...) in a run against a configured deployment: they would change
 * nothing there, and a run that looks like it tested a fault or a variant but tested the deployment instead must not
 * pass unnoticed.
 * @returns a SettingsError naming the first such setting, or undefined
 */
export function referenceSettingsProblem(
  settings: Pick<Settings, 'target' | 'configured' | 'referenceSettings'>,
): SettingsError | undefined {
  const name = settings.referenceSettings[0];
  if (settings.target !== 'configured' || name === undefined) return undefined;
  const urls = Object.values(settings.configured).map((c) => `${SERVICES[c!.service].envPrefix}_BASE_URL`);
  return new SettingsError(
    name,
    `no REFERENCE_* setting in a run against a configured deployment (${urls.join(', ')} ` +
      `${urls.length > 1 ? 'are' : 'is'} set): it configures the embedded reference, which this run does not ` +
      `start; unset ${settings.referenceSettings.join(', ')}, or the service URLs to test the embedded reference`,
  );
}

/** CONFORMANCE_REPORT_DIR: the folder run folders are written to (default reports). */
export const reportDirSetting = (env: Env = loadEnv()): string => env.CONFORMANCE_REPORT_DIR || 'reports';

/** The setting naming the known-failures file (report/known-failures.ts reads the file). */
export const KNOWN_FAILURES_SETTING = 'CONFORMANCE_KNOWN_FAILURES';

/** CONFORMANCE_KNOWN_FAILURES: the path of the known-failures JSON file, or undefined when unset. */
export const knownFailuresFileSetting = (env: Env = loadEnv()): string | undefined =>
  env[KNOWN_FAILURES_SETTING] || undefined;

/** The setting naming the Ed25519 private key (PEM file) that signs an evidence bundle's manifest. */
export const EVIDENCE_KEY_SETTING = 'CONFORMANCE_EVIDENCE_KEY';
/** The setting naming the Ed25519 public key (PEM file) `npm run evidence:verify` checks a bundle's signature with. */
export const EVIDENCE_PUBLIC_KEY_SETTING = 'CONFORMANCE_EVIDENCE_PUBLIC_KEY';

/** CONFORMANCE_EVIDENCE_KEY: the signing key's file, or undefined (report/evidence/signature.ts reads it). */
export const evidenceKeySetting = (env: Env = loadEnv()): string | undefined => env[EVIDENCE_KEY_SETTING] || undefined;

/** CONFORMANCE_EVIDENCE_PUBLIC_KEY: the public key's file, or undefined. */
export const evidencePublicKeySetting = (env: Env = loadEnv()): string | undefined =>
  env[EVIDENCE_PUBLIC_KEY_SETTING] || undefined;

/**
 * The setting that fixed how many scenario files run at once, or undefined when neither sets a number (the run
 * chooses).
 */
export function filesAtOnceSetBy(env: Env): string | undefined {
  if (intSetting(env, 'CONFORMANCE_FILES_AT_ONCE', 0, 0, 64)) return 'CONFORMANCE_FILES_AT_ONCE';
  if (intSetting(env, 'CONFORMANCE_WORKERS', 0, 0, 64))
    return 'CONFORMANCE_WORKERS, the older name of CONFORMANCE_FILES_AT_ONCE';
  return undefined;
}

/**
 * CONFORMANCE_FILES_AT_ONCE, else its older name CONFORMANCE_WORKERS (both checked), else 0. @throws SettingsError
 * naming the bad one
 */
function filesAtOnceSetting(env: Env): number {
  const older = intSetting(env, 'CONFORMANCE_WORKERS', 0, 0, 64);
  return intSetting(env, 'CONFORMANCE_FILES_AT_ONCE', 0, 0, 64) || older;
}

/** Round trip (ms) from which a configured deployment counts as distant and gets DISTANT_FILES_AT_ONCE. */
export const DISTANT_ROUND_TRIP_MS = 100;
/**
 * Scenario files side by side against a distant deployment: more files overlap their waits (docs/performance.md,
 * workers).
 */
export const DISTANT_FILES_AT_ONCE = 6;
/**
 * Round trip (ms) under which a configured deployment counts as near: the run is CPU-bound, as against the embedded
 * reference, and takes a file per core (nearFilesAtOnce). Two cores: at 0 and ms of latency (round trip 7 - 16 ms) two
 * files at once finished sooner than four, with 85 MB less; at 20 ms (round trip about 30 ms) four were 3.7 s faster
 * (docs/performance.md, item 22; measured with a worker per file, item 23).
 */
export const NEAR_ROUND_TRIP_MS = 15;
/**
 * Scenario files side by side against a near deployment: one per core, at least 2 and at most the 4 of any configured
 * run.
 */
export const nearFilesAtOnce = (cores = availableParallelism()) => Math.min(4, Math.max(2, cores));

/**
 * Scenario files a run's test worker runs side by side (run/vitest/side-by-side-runner.mjs): CONFORMANCE_FILES_AT_ONCE,
 * else 2 against the embedded reference (the run is CPU-bound there), and against a configured deployment by the
 * preflight's round trip: under NEAR_ROUND_TRIP_MS one per core (2 to 4: CPU-bound), DISTANT_FILES_AT_ONCE from
 * DISTANT_ROUND_TRIP_MS on, 4 in between or when no round trip was measured.
 * @param roundTripMs the preflight's round trip (run/preflight.ts), when measured
 * @param cores processors this run may use (os.availableParallelism)
 */
export function filesAtOnceFor(
  settings: Pick<Settings, 'filesAtOnce' | 'target'>,
  roundTripMs?: number,
  cores = availableParallelism(),
): number {
  if (settings.filesAtOnce) return settings.filesAtOnce;
  if (settings.target === 'embedded') return 2;
  if (roundTripMs === undefined) return 4;
  if (roundTripMs >= DISTANT_ROUND_TRIP_MS) return DISTANT_FILES_AT_ONCE;
  return roundTripMs < NEAR_ROUND_TRIP_MS ? nearFilesAtOnce(cores) : 4;
}

/**
 * CONFORMANCE_REQUIREMENT_URL: a link template holding `%s`; default the requirement's row of the run's report.html.
 */
function requirementUrlSetting(env: Record<string, string | undefined>): string {
  const v = env.CONFORMANCE_REQUIREMENT_URL;
  if (!v) return '../report.html#req-%s';
  if (!v.includes('%s'))
    throw new SettingsError(
      'CONFORMANCE_REQUIREMENT_URL',
      'a link template holding %s where the requirement ID goes',
      v,
    );
  return v;
}

/**
 * Refuses any variable with one of the suite's prefixes that is not a setting, naming the closest one.
 * @throws SettingsError naming the first unknown variable (never its value: it may be a secret)
 */
export function checkSettingNames(env: Env = loadEnv()): void {
  const unknown = unknownSettings(env)[0];
  if (unknown)
    throw new SettingsError(
      unknown.name,
      `a known setting${unknown.suggestion ? ` (did you mean ${unknown.suggestion}?)` : ''}: every ` +
        `${SETTING_PREFIXES.map((p) => p.replace(/_$/, '_*')).join(', ')} variable must be one (README, ` +
        `"Settings")`,
    );
}

const isCi = (env: Env) => /^(true|1)$/i.test(env.CI ?? '');

/**
 * The run's target from the configured services and CONFORMANCE_TARGET.
 * @throws SettingsError when CONFORMANCE_TARGET contradicts the service URLs, or when in CI (CI=true) the run would
 *   fall back to the embedded reference while a variable that looks like a base URL is set and CONFORMANCE_TARGET does
 *   not say embedded.
 */
function runTarget(env: Env, configured: Settings['configured']): RunTarget {
  const raw = env.CONFORMANCE_TARGET || undefined;
  if (raw !== undefined && raw !== 'embedded' && raw !== 'configured')
    throw new SettingsError('CONFORMANCE_TARGET', 'embedded or configured', raw);
  const urls = Object.values(configured).map((c) => `${SERVICES[c!.service].envPrefix}_BASE_URL`);
  if (raw === 'embedded' && urls.length)
    throw new SettingsError(
      'CONFORMANCE_TARGET',
      `no service URL with CONFORMANCE_TARGET=embedded, but ${urls.join(', ')} is set`,
      raw,
    );
  if (urls.length) return 'configured';
  // A path ("/", as vite sets BASE_URL in its own processes) is not a deployment's address.
  const lookalikes = Object.keys(env)
    .filter((k) => looksLikeBaseUrl(k) && !(env[k] ?? '').startsWith('/'))
    .sort();
  if (raw === 'configured')
    throw new SettingsError(
      'CONFORMANCE_TARGET',
      `a service URL (${baseUrlSettings().join(', ')}) with CONFORMANCE_TARGET=configured, but none is ` +
        `set${lookalikes.length ? ` (${lookalikes.join(', ')} is set, empty or misspelt)` : ''}`,
      raw,
    );
  if (raw === undefined && isCi(env) && lookalikes.length)
    throw new SettingsError(
      lookalikes[0]!,
      `one of ${baseUrlSettings().join(', ')} with a URL: in CI (CI=true) this run would fall back to the ` +
        `embedded reference although ${lookalikes.join(', ')} is set (empty or misspelt); fix it, or set ` +
        `CONFORMANCE_TARGET=embedded to test the embedded reference on purpose`,
    );
  return 'embedded';
}

/** CONFORMANCE_EXCHANGES: all, failing (default) or none. */
function exchangesSetting(env: Env): ExchangesKept {
  const raw = env.CONFORMANCE_EXCHANGES || 'failing';
  if (raw !== 'all' && raw !== 'failing' && raw !== 'none')
    throw new SettingsError(
      'CONFORMANCE_EXCHANGES',
      'all, failing or none (which checks keep their exchanges in full)',
      raw,
    );
  return raw;
}

/** How much of the generated cases a run covers (Settings.scope). */
export type RunScope = 'default' | 'full';

/** CONFORMANCE_SCOPE: default or full (unset: default). */
function scopeSetting(env: Env): RunScope {
  const raw = (env.CONFORMANCE_SCOPE ?? '').trim().toLowerCase() || 'default';
  if (raw !== 'default' && raw !== 'full')
    throw new SettingsError(
      'CONFORMANCE_SCOPE',
      'default (what fits the budget) or full (every situation and boundary value)',
      env.CONFORMANCE_SCOPE,
    );
  return raw;
}

/** CONFORMANCE_VERBOSE: 1/true/yes or 0/false/no (unset: off). */
function verboseSetting(env: Env): boolean {
  const raw = (env.CONFORMANCE_VERBOSE ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false' || raw === 'no') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes') return true;
  throw new SettingsError('CONFORMANCE_VERBOSE', '1 (routine internals on the console) or 0', env.CONFORMANCE_VERBOSE);
}

/** Process environment with `.env` loaded underneath it. */
export function loadEnv(): Env {
  dotenv.config({ quiet: true });
  return process.env;
}

/** The target with `scheme` as its auth when both credentials were set (person: profile person.auth). */
export function preferAuth<T extends { auth: Auth; alternateAuth?: Auth }>(
  target: T,
  scheme: Auth['scheme'] | undefined,
): T {
  if (!scheme || target.auth.scheme === scheme || target.alternateAuth?.scheme !== scheme) return target;
  return { ...target, auth: target.alternateAuth, alternateAuth: target.auth };
}

/**
 * Default walk and bad-input budgets: generous against the embedded reference (walks 0: as many planned walks as the
 * scope's situations need), light against a shared deployment (three planned walks, the most novel situations first).
 */
export const DEFAULT_BUDGETS = {
  embedded: { walks: 0, walkSteps: 16, badInputs: 60 },
  configured: { walks: 2, walkSteps: 10, badInputs: 15 },
};

/** The run's walk and bad-input budgets and scope: the settings when given, else the defaults for the target. */
export function resolveBudgets(
  settings: Pick<Settings, 'walks' | 'walkSteps' | 'badInputs'> & Partial<Pick<Settings, 'scope'>>,
  embedded: boolean,
): RunBudgets {
  const d = embedded ? DEFAULT_BUDGETS.embedded : DEFAULT_BUDGETS.configured;
  const scope = settings.scope ?? 'default';
  return {
    // The full scope plans every situation, unless CONFORMANCE_WALKS bounds it.
    walks: settings.walks || (scope === 'full' ? 0 : d.walks),
    walkSteps: settings.walkSteps || d.walkSteps,
    badInputs: settings.badInputs || d.badInputs,
    scope,
    embedded,
  };
}

/**
 * What a run's generated cases may cost (resolveBudgets), as the checks read it (harness/targets.ts RunInfo.budgets).
 */
export interface RunBudgets {
  walks: number;
  walkSteps: number;
  badInputs: number;
  scope: RunScope;
  /** The run is against the embedded reference (its budgets are the generous ones). */
  embedded: boolean;
}
