/**
 * One service's settings (harness/config.ts reads them all): where and how to reach its deployment, under the service's
 * prefix (ORG_, PERSON_, PROVIDER_): base URL and service path, credentials (a token, OAuth2 client credentials or a
 * user name and password), the sources the run may create records in, TLS files, and the environment's proxies.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { z } from 'zod';
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES } from '../specs/services.js';
import type { OAuthSettings } from './oauth.js';
import { type Env, SettingsError } from './settings-error.js';

/**
 * How a service is authenticated: a bearer token given as a setting, one from an OAuth2 token endpoint (client
 * credentials: harness/oauth.ts), or basic credentials.
 */
export type Auth =
  | { scheme: 'bearer'; token: string; oauth?: undefined }
  | { scheme: 'bearer'; oauth: OAuthSettings; token?: undefined }
  | { scheme: 'basic'; username: string; password: string };

export interface TlsFiles {
  cert?: string;
  key?: string;
  ca?: string;
}

/**
 * The proxies of the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, or their lower-case forms, which win as in curl
 * and undici): requests to a configured deployment go through them (harness/transport.ts, undici's EnvHttpProxyAgent);
 * the embedded reference never does.
 */
export interface ProxySettings {
  /** Proxy of https:// deployments, and which variable gave it. */
  https?: { url: string; setting: string };
  /** Proxy of http:// deployments, and which variable gave it. */
  http?: { url: string; setting: string };
  /** Hosts (and host:port, .domain, *) reached directly, comma or space separated, and which variable gave it. */
  noProxy?: { value: string; setting: string };
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
  /** The environment's proxies (configured targets only; absent when none is set). */
  proxy?: ProxySettings;
  customerId?: string;
  /** True when this target is the embedded reference deployment. */
  embedded: boolean;
}

const urlSetting = (name: string, raw: string): string => {
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(raw);
  if (!parsed.success)
    throw new SettingsError(
      name,
      'an http or https URL: scheme, host and optional path prefix, e.g. https://staging.example.com',
      raw,
    );
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

/**
 * A service's OAuth2 client credentials (<PREFIX>_OAUTH_TOKEN_URL, _CLIENT_ID, _CLIENT_SECRET, and _SCOPE or _AUDIENCE
 * when the token endpoint wants them), or undefined when no token URL is set.
 * @throws SettingsError naming a missing or malformed one (never the secret's value)
 */
function oauthSettings(env: Env, p: string): OAuthSettings | undefined {
  const tokenUrl = env[`${p}_OAUTH_TOKEN_URL`];
  const others = [`${p}_OAUTH_CLIENT_ID`, `${p}_OAUTH_CLIENT_SECRET`, `${p}_OAUTH_SCOPE`, `${p}_OAUTH_AUDIENCE`].filter(
    (n) => env[n],
  );
  if (!tokenUrl) {
    if (others.length)
      throw new SettingsError(`${p}_OAUTH_TOKEN_URL`, `the token endpoint's URL with ${others.join(', ')}`);
    return undefined;
  }
  if (!z.url({ protocol: /^https?$/ }).safeParse(tokenUrl).success)
    throw new SettingsError(`${p}_OAUTH_TOKEN_URL`, 'the http or https URL of the OAuth2 token endpoint', tokenUrl);
  const clientId = env[`${p}_OAUTH_CLIENT_ID`];
  const clientSecret = env[`${p}_OAUTH_CLIENT_SECRET`];
  if (!clientId) throw new SettingsError(`${p}_OAUTH_CLIENT_ID`, `the client ID for ${p}_OAUTH_TOKEN_URL`);
  if (!clientSecret) throw new SettingsError(`${p}_OAUTH_CLIENT_SECRET`, `the client secret for ${p}_OAUTH_TOKEN_URL`);
  const scope = env[`${p}_OAUTH_SCOPE`] || undefined;
  const audience = env[`${p}_OAUTH_AUDIENCE`] || undefined;
  return { tokenUrl, clientId, clientSecret, ...(scope ? { scope } : {}), ...(audience ? { audience } : {}) };
}

/** The first of `names` set in `env` (to a non-empty value), with its name. */
const firstSet = (env: Env, names: string[]) => {
  const name = names.find((n) => env[n]);
  return name ? { name, value: env[name]! } : undefined;
};

/**
 * The environment's proxies (ProxySettings). A proxy is an http or https URL, with user and password in it when the
 * proxy asks for them (they are secrets: masked wherever they could appear).
 * @throws SettingsError naming the variable whose value is not such a URL (never the value: it may hold a password)
 */
export function proxySettings(env: Env): ProxySettings | undefined {
  const proxy = (names: string[]) => {
    const set = firstSet(env, names);
    if (!set) return undefined;
    if (!z.url({ protocol: /^https?$/ }).safeParse(set.value).success)
      throw new SettingsError(
        set.name,
        'a proxy URL such as http://proxy.example.com:3128 (http or https, user:password@ when the proxy asks ' +
          'for them)',
        '<hidden>',
      );
    return { url: set.value, setting: set.name };
  };
  const https = proxy(['https_proxy', 'HTTPS_PROXY']);
  const http = proxy(['http_proxy', 'HTTP_PROXY']);
  const no = firstSet(env, ['no_proxy', 'NO_PROXY']);
  if (!https && !http) return undefined;
  return {
    ...(https ? { https } : {}),
    ...(http ? { http } : {}),
    ...(no ? { noProxy: { value: no.value, setting: no.name } } : {}),
  };
}

/**
 * The proxy a request to `url` goes through, if any: the http or https proxy by the URL's scheme, unless NO_PROXY names
 * the host (exactly, or as a domain the host is in; with a port, only that port) or is `*`. The rules of undici's
 * EnvHttpProxyAgent, which sends the requests (harness/transport.ts); this says which proxy a message should name
 * (test/proxy.test.ts holds the two to the same answers).
 */
export function proxyFor(url: string, proxy: ProxySettings | undefined): { url: string; setting: string } | undefined {
  if (!proxy) return undefined;
  const u = new URL(url);
  const chosen = u.protocol === 'https:' ? (proxy.https ?? proxy.http) : proxy.http;
  if (!chosen) return undefined;
  const no = proxy.noProxy?.value.trim() ?? '';
  if (no === '*') return undefined;
  const host = u.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
  for (const entry of no.split(/[,\s]/).filter(Boolean)) {
    const m = /^(.+):(\d+)$/.exec(entry);
    const name = (m ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return undefined;
  }
  return chosen;
}

/** A proxy URL as messages and reports show it: without user and password. */
export const shownProxy = (url: string) => url.replace(/\/\/[^/@]*@/, '//');

/**
 * One service's target from its settings (<PREFIX>_BASE_URL and the rest of its family), or undefined when its base
 * URL is not set.
 * @throws SettingsError naming the first missing or malformed one
 */
export function serviceSettings(env: Env, service: ServiceName): Omit<ServiceTarget, 'embedded'> | undefined {
  const spec = SERVICES[service];
  const p = spec.envPrefix;
  const rawUrl = env[`${p}_BASE_URL`];
  if (!rawUrl) return undefined;
  const baseUrl = urlSetting(`${p}_BASE_URL`, rawUrl);
  const servicePath = env[`${p}_SERVICE_PATH`] ?? spec.servicePath;
  if (!/^(\/[A-Za-z0-9._~-]+)*$/.test(servicePath))
    throw new SettingsError(`${p}_SERVICE_PATH`, 'a path such as /provider-link-ws/svc', servicePath);
  const { auth, alternateAuth } = authSettings(env, service);
  const sources = sourcesSetting(env, p);
  const tls = tlsSettings(env, p);
  // customerId is a member of the person request envelope only (person-provider-identity-api.md, Resources, Envelope).
  const customerId = (service === 'person' ? env[`${p}_CUSTOMER_ID`] : undefined) || undefined;
  const proxy = proxySettings(env);
  return {
    service,
    baseUrl,
    servicePath,
    auth,
    ...(alternateAuth ? { alternateAuth } : {}),
    sources,
    tls: tls.cert || tls.ca ? tls : undefined,
    ...(proxy ? { proxy } : {}),
    customerId,
  };
}

/**
 * A service's credentials: an OAuth2 client, a bearer token or a user name and password, as its auth schemes allow;
 * and the basic ones besides when both a token and a user name/password are set.
 * @throws SettingsError naming the missing or malformed one
 */
function authSettings(env: Env, service: ServiceName): { auth: Auth; alternateAuth?: Auth } {
  const spec = SERVICES[service];
  const p = spec.envPrefix;
  const token = env[`${p}_TOKEN`];
  const username = env[`${p}_USERNAME`];
  const password = env[`${p}_PASSWORD`];
  const oauth = spec.authSchemes.includes('bearer') ? oauthSettings(env, p) : undefined;
  if (oauth && token)
    throw new SettingsError(
      `${p}_TOKEN`,
      `either ${p}_TOKEN or ${p}_OAUTH_TOKEN_URL (a token from the token endpoint), not both`,
    );
  let auth: Auth;
  if (oauth) {
    auth = { scheme: 'bearer', oauth };
  } else if (token && spec.authSchemes.includes('bearer')) {
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token))
      throw new SettingsError(`${p}_TOKEN`, 'a JWT (three base64url parts separated by dots)', '<hidden>');
    auth = { scheme: 'bearer', token };
  } else if (spec.authSchemes.includes('basic') && (username || password)) {
    if (!username) throw new SettingsError(`${p}_USERNAME`, `a user name (set together with ${p}_PASSWORD)`);
    if (!password) throw new SettingsError(`${p}_PASSWORD`, `a password (set together with ${p}_USERNAME)`);
    auth = { scheme: 'basic', username, password };
  } else {
    const accepted = spec.authSchemes
      .map((s) =>
        s === 'bearer'
          ? `${p}_TOKEN (or ${p}_OAUTH_TOKEN_URL, _CLIENT_ID, _CLIENT_SECRET)`
          : `${p}_USERNAME and ${p}_PASSWORD`,
      )
      .join(' or ');
    throw new SettingsError(
      spec.authSchemes[0] === 'bearer' ? `${p}_TOKEN` : `${p}_USERNAME`,
      `credentials for ${p}_BASE_URL: ${accepted}`,
    );
  }
  const alternate = auth.scheme === 'bearer' && spec.authSchemes.includes('basic') && username && password;
  return alternate ? { auth, alternateAuth: { scheme: 'basic', username, password } } : { auth };
}

/**
 * <PREFIX>_SOURCES: the pre-registered source names the run may create records in, a comma list.
 * @throws SettingsError when unset, empty or holding a name that is not one
 */
function sourcesSetting(env: Env, p: string): string[] {
  const rawSources = env[`${p}_SOURCES`];
  if (!rawSources)
    throw new SettingsError(
      `${p}_SOURCES`,
      `a comma list of pre-registered source names the run may create records in (needed with ${p}_BASE_URL)`,
    );
  const sources = rawSources
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = sources.find((s) => !SOURCE_NAME.test(s));
  if (!sources.length || bad !== undefined)
    throw new SettingsError(`${p}_SOURCES`, 'a comma list of source names (letters, digits, _ . : -)', rawSources);
  return sources;
}

/**
 * <PREFIX>_TLS_CERT, _TLS_KEY and _TLS_CA: readable PEM files, the certificate and its key set together.
 * @throws SettingsError naming the unreadable file or the missing half of the client certificate
 */
function tlsSettings(env: Env, p: string): TlsFiles {
  const tls: TlsFiles = {
    cert: fileSetting(`${p}_TLS_CERT`, env[`${p}_TLS_CERT`]),
    key: fileSetting(`${p}_TLS_KEY`, env[`${p}_TLS_KEY`]),
    ca: fileSetting(`${p}_TLS_CA`, env[`${p}_TLS_CA`]),
  };
  if (Boolean(tls.cert) !== Boolean(tls.key))
    throw new SettingsError(
      tls.cert ? `${p}_TLS_KEY` : `${p}_TLS_CERT`,
      `both ${p}_TLS_CERT and ${p}_TLS_KEY for a client certificate`,
    );
  return tls;
}
