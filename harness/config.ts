/**
 * Settings: `.env` (dotenv) plus the environment, validated with zod.
 *
 * A missing or malformed setting raises SettingsError naming the setting and what is expected;
 * the command line turns it into one message and exit code 2 before any request is sent.
 * Each service reads the same family of settings under its prefix (ORG_, PERSON_, PROVIDER_).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import dotenv from 'dotenv';
import { z } from 'zod';
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES, serviceNames } from '../specs/services.js';

export class SettingsError extends Error {
  constructor(
    readonly setting: string,
    readonly expected: string,
    readonly got?: string,
  ) {
    super(`Setting ${setting}: expected ${expected}${got === undefined ? '' : `, got ${JSON.stringify(got)}`}`);
    this.name = 'SettingsError';
  }
}

export type Auth =
  | { scheme: 'bearer'; token: string }
  | { scheme: 'basic'; username: string; password: string };

export interface TlsFiles {
  cert?: string;
  key?: string;
  ca?: string;
}

/** Where and how to reach one service, and which sources the run may create records in. */
export interface ServiceTarget {
  service: ServiceName;
  baseUrl: string;
  servicePath: string;
  auth: Auth;
  /** The other scheme's credentials when both a token and a user name/password are set (person.auth picks). */
  alternateAuth?: Auth;
  sources: string[];
  tls?: TlsFiles;
  customerId?: string;
  /** True when this target is the embedded reference deployment. */
  embedded: boolean;
}

export interface Settings {
  profilePath?: string;
  seed: number;
  seedFromSettings: boolean;
  runId?: string;
  maxInFlight: number;
  timeoutMs: number;
  reportDir: string;
  /** Model-based walks per walk check and steps per walk (CONFORMANCE_WALKS, CONFORMANCE_WALK_STEPS); 0 = the default for the target. */
  walks: number;
  walkSteps: number;
  /** Generated bad-input requests per bad-input check (CONFORMANCE_BAD_INPUTS); 0 = the default for the target. */
  badInputs: number;
  /** Retries per request of a transient reply (CONFORMANCE_RETRIES, 0-5). */
  retries: number;
  /** Requests per second per service across the run's workers (CONFORMANCE_RATE_LIMIT); undefined = no limit. */
  rateLimit?: number;
  /** Configured services; empty when none is configured (then every service runs against the reference). */
  configured: Partial<Record<ServiceName, Omit<ServiceTarget, 'embedded'>>>;
}

type Env = Record<string, string | undefined>;

const intSetting = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new SettingsError(name, `an integer from ${min} to ${max}`, raw);
  return n;
};

/** CONFORMANCE_RATE_LIMIT: requests per second per service, a number >= 0 (0 or unset: no limit). */
const rateSetting = (env: Env): number | undefined => {
  const raw = env.CONFORMANCE_RATE_LIMIT;
  if (raw === undefined || raw === '') return undefined;
  const rate = Number(raw);
  if (!Number.isFinite(rate) || rate < 0) throw new SettingsError('CONFORMANCE_RATE_LIMIT', 'requests per second per service, a number >= 0 (0 = no limit)', raw);
  return rate > 0 ? rate : undefined;
};

const urlSetting = (name: string, raw: string): string => {
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(raw);
  if (!parsed.success) throw new SettingsError(name, 'an http or https URL: scheme, host and optional path prefix, e.g. https://staging.example.com', raw);
  return raw.replace(/\/+$/, '');
};

const fileSetting = (name: string, raw: string | undefined): string | undefined => {
  if (!raw) return undefined;
  if (!existsSync(raw)) throw new SettingsError(name, 'the path of a readable PEM file', raw);
  try {
    accessSync(raw, constants.R_OK);
  } catch {
    throw new SettingsError(name, 'the path of a readable PEM file', raw);
  }
  return raw;
};

const SOURCE_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

function serviceSettings(env: Env, service: ServiceName): Omit<ServiceTarget, 'embedded'> | undefined {
  const spec = SERVICES[service];
  const p = spec.envPrefix;
  const rawUrl = env[`${p}_BASE_URL`];
  if (!rawUrl) return undefined;
  const baseUrl = urlSetting(`${p}_BASE_URL`, rawUrl);
  const servicePath = env[`${p}_SERVICE_PATH`] ?? spec.servicePath;
  if (!/^(\/[A-Za-z0-9._~-]+)*$/.test(servicePath)) throw new SettingsError(`${p}_SERVICE_PATH`, 'a path such as /provider-link-ws/svc', servicePath);

  const token = env[`${p}_TOKEN`];
  const username = env[`${p}_USERNAME`];
  const password = env[`${p}_PASSWORD`];
  let auth: Auth;
  if (token && spec.authSchemes.includes('bearer')) {
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) throw new SettingsError(`${p}_TOKEN`, 'a JWT (three base64url parts separated by dots)', '<hidden>');
    auth = { scheme: 'bearer', token };
  } else if (spec.authSchemes.includes('basic') && (username || password)) {
    if (!username) throw new SettingsError(`${p}_USERNAME`, `a user name (set together with ${p}_PASSWORD)`);
    if (!password) throw new SettingsError(`${p}_PASSWORD`, `a password (set together with ${p}_USERNAME)`);
    auth = { scheme: 'basic', username, password };
  } else {
    const accepted = spec.authSchemes.map((s) => (s === 'bearer' ? `${p}_TOKEN` : `${p}_USERNAME and ${p}_PASSWORD`)).join(' or ');
    throw new SettingsError(spec.authSchemes[0] === 'bearer' ? `${p}_TOKEN` : `${p}_USERNAME`, `credentials for ${p}_BASE_URL: ${accepted}`);
  }

  const alternateAuth: Auth | undefined =
    auth.scheme === 'bearer' && spec.authSchemes.includes('basic') && username && password ? { scheme: 'basic', username, password } : undefined;

  const rawSources = env[`${p}_SOURCES`];
  if (!rawSources) throw new SettingsError(`${p}_SOURCES`, `a comma list of pre-registered source names the run may create records in (needed with ${p}_BASE_URL)`);
  const sources = rawSources.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = sources.find((s) => !SOURCE_NAME.test(s));
  if (!sources.length || bad !== undefined) throw new SettingsError(`${p}_SOURCES`, 'a comma list of source names (letters, digits, _ . : -)', rawSources);

  const tls: TlsFiles = {
    cert: fileSetting(`${p}_TLS_CERT`, env[`${p}_TLS_CERT`]),
    key: fileSetting(`${p}_TLS_KEY`, env[`${p}_TLS_KEY`]),
    ca: fileSetting(`${p}_TLS_CA`, env[`${p}_TLS_CA`]),
  };
  if (Boolean(tls.cert) !== Boolean(tls.key)) throw new SettingsError(tls.cert ? `${p}_TLS_KEY` : `${p}_TLS_CERT`, `both ${p}_TLS_CERT and ${p}_TLS_KEY for a client certificate`);
  const customerId = env[`${p}_CUSTOMER_ID`] || undefined;
  return { service, baseUrl, servicePath, auth, ...(alternateAuth ? { alternateAuth } : {}), sources, tls: tls.cert || tls.ca ? tls : undefined, customerId };
}

/**
 * Reads and validates every setting. `env` defaults to the process environment after `.env`
 * is loaded (environment wins over `.env`).
 * @throws SettingsError naming the first bad setting.
 */
export function loadSettings(env: Env = loadEnv()): Settings {
  const rawSeed = env.CONFORMANCE_SEED;
  let seed: number;
  if (rawSeed) {
    seed = Number(rawSeed);
    if (!Number.isSafeInteger(seed) || seed < 0) throw new SettingsError('CONFORMANCE_SEED', 'a non-negative integer', rawSeed);
  } else {
    seed = Math.floor(Math.random() * 2 ** 31);
  }
  const runId = env.CONFORMANCE_RUN_ID || undefined;
  if (runId && !/^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/.test(runId)) throw new SettingsError('CONFORMANCE_RUN_ID', 'up to 40 letters, digits and dashes', runId);
  const profilePath = env.CONFORMANCE_PROFILE || undefined;
  if (profilePath && !existsSync(profilePath)) throw new SettingsError('CONFORMANCE_PROFILE', 'the path of a deployment-profile JSON file', profilePath);

  const configured: Settings['configured'] = {};
  for (const name of serviceNames()) {
    const s = serviceSettings(env, name);
    if (s) configured[name] = s;
  }
  return {
    profilePath,
    seed,
    seedFromSettings: Boolean(rawSeed),
    runId,
    maxInFlight: intSetting(env, 'CONFORMANCE_MAX_IN_FLIGHT', 8, 1, 256),
    timeoutMs: intSetting(env, 'CONFORMANCE_TIMEOUT_MS', 30000, 100, 600000),
    reportDir: env.CONFORMANCE_REPORT_DIR || 'reports',
    walks: intSetting(env, 'CONFORMANCE_WALKS', 0, 0, 10000),
    walkSteps: intSetting(env, 'CONFORMANCE_WALK_STEPS', 0, 0, 200),
    badInputs: intSetting(env, 'CONFORMANCE_BAD_INPUTS', 0, 0, 10000),
    retries: intSetting(env, 'CONFORMANCE_RETRIES', 2, 0, 5),
    rateLimit: rateSetting(env),
    configured,
  };
}

/** Process environment with `.env` loaded underneath it. */
export function loadEnv(): Env {
  dotenv.config({ quiet: true });
  return process.env;
}

/** The target with `scheme` as its auth when both credentials were set (person: profile person.auth). */
export function preferAuth<T extends { auth: Auth; alternateAuth?: Auth }>(target: T, scheme: Auth['scheme'] | undefined): T {
  if (!scheme || target.auth.scheme === scheme || target.alternateAuth?.scheme !== scheme) return target;
  return { ...target, auth: target.alternateAuth, alternateAuth: target.auth };
}

/** Default walk and bad-input budgets: generous against the embedded reference, light against a shared deployment. */
export const DEFAULT_BUDGETS = {
  embedded: { walks: 12, walkSteps: 8, badInputs: 60 },
  configured: { walks: 3, walkSteps: 8, badInputs: 15 },
};

/** The run's walk and bad-input budgets: the settings when given, else the defaults for the target. */
export function resolveBudgets(settings: Pick<Settings, 'walks' | 'walkSteps' | 'badInputs'>, embedded: boolean): { walks: number; walkSteps: number; badInputs: number } {
  const d = embedded ? DEFAULT_BUDGETS.embedded : DEFAULT_BUDGETS.configured;
  return { walks: settings.walks || d.walks, walkSteps: settings.walkSteps || d.walkSteps, badInputs: settings.badInputs || d.badInputs };
}
