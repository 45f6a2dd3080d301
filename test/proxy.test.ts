/**
 * Proxies: requests to a configured deployment go through HTTPS_PROXY / HTTP_PROXY, except to
 * the hosts NO_PROXY names (undici's EnvHttpProxyAgent, given the settings harness/config.ts read),
 * with the deployment's TLS settings inside the tunnel; a proxy that asks for credentials takes
 * them in its URL, and they never appear in an exchange or a message; the preflight names the
 * proxy when it cannot get through (run/preflight.ts). Against a local forward proxy
 * (test/support/proxy.ts) and the reference.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../harness/client.js';
import { SettingsError, loadSettings } from '../harness/config.js';
import { proxyFor } from '../harness/service-settings.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { redactText } from '../harness/redact.js';
import { RunContext } from '../harness/run.js';
import { type RunningReference, startReference } from '../reference/server.js';
import { preflight, preflightMessage } from '../run/preflight.js';
import { SERVICES } from '../specs/services.js';
import { runCommand } from './support/command.js';
import { closedPort } from './support/faulty-server.js';
import { type TestProxy, startProxy } from './support/proxy.js';

const profile = resolveProfile(loadProfile(undefined), false);
const run = new RunContext(`proxy-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-proxy-')));
let ref: RunningReference;
let proxy: TestProxy | undefined;
const clients: ServiceClient[] = [];

beforeAll(async () => {
  ref = await startReference({ faults: [] });
});
afterAll(() => ref.stop());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await proxy?.close();
  proxy = undefined;
});

/** The organization target of the reference at `baseUrl`, with the proxy variables `env`. */
function target(env: Record<string, string>, baseUrl = ref.baseUrlOf('organization')) {
  return loadSettings({ ORG_BASE_URL: baseUrl, ORG_TOKEN: ref.token, ORG_SOURCES: 'cf_test_a', ...env }).configured
    .organization!;
}

async function ask(t: ReturnType<typeof target>) {
  const c = new ServiceClient({ ...t, embedded: false }, profile, run, {
    timeoutMs: 5000,
    maxInFlight: 2,
    retryBudgetMs: 0,
  });
  clients.push(c);
  return c.call('identityIdQuery', { linkId: `${run.namespace}no-such` });
}

describe('requests to a configured deployment', () => {
  it('go through HTTP_PROXY, and get the deployment’s answer', async () => {
    proxy = await startProxy();
    const r = await ask(target({ HTTP_PROXY: proxy.url }));
    expect(r.exchange.error).toBeUndefined();
    expect(r.body, 'the reference answered, through the tunnel').toBeDefined();
    expect(proxy.tunnels).toEqual([new URL(ref.baseUrlOf('organization')).host]);
  });

  it('go direct to the hosts NO_PROXY names, and through the proxy otherwise, as proxyFor says', async () => {
    const port = new URL(ref.url).port;
    const cases: Array<[host: string, noProxy: string, proxied: boolean]> = [
      ['127.0.0.1', '', true],
      ['127.0.0.1', '127.0.0.1', false],
      ['127.0.0.1', `127.0.0.1:${port}`, false],
      ['127.0.0.1', '127.0.0.1:1', true],
      ['127.0.0.1', '*', false],
      ['127.0.0.1', 'example.com, localhost', true],
      ['localhost', '.localhost', false],
      ['localhost', 'other.localhost', true],
    ];
    for (const [host, noProxy, proxied] of cases) {
      proxy = await startProxy();
      const t = target({ HTTP_PROXY: proxy.url, ...(noProxy ? { NO_PROXY: noProxy } : {}) }, `http://${host}:${port}`);
      const r = await ask(t);
      const what = `${host} with NO_PROXY="${noProxy}"`;
      expect(r.exchange.error, what).toBeUndefined();
      expect(proxy.tunnels.length > 0, `${what} went through the proxy`).toBe(proxied);
      expect(Boolean(proxyFor(`http://${host}:${port}`, t.proxy)), `proxyFor agrees: ${what}`).toBe(proxied);
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await proxy.close();
      proxy = undefined;
    }
  });

  it("keep the deployment's TLS settings inside the proxy's tunnel (an https deployment of a private CA)", async () => {
    const tls = join(import.meta.dirname, 'support', 'tls');
    const server = createHttpsServer(
      { cert: readFileSync(join(tls, 'deployment.pem')), key: readFileSync(join(tls, 'deployment.key')) },
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"content":{}}'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      proxy = await startProxy();
      const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const trusted = await ask(target({ HTTPS_PROXY: proxy.url, ORG_TLS_CA: join(tls, 'deployment.pem') }, baseUrl));
      expect(trusted.exchange.error).toBeUndefined();
      expect(trusted.success).toBe(true);
      expect(proxy.tunnels).toEqual([new URL(baseUrl).host]);
      // Without the CA the same deployment is refused: the TLS settings are what made it trusted.
      const untrusted = await ask(target({ HTTPS_PROXY: proxy.url }, baseUrl));
      expect(untrusted.exchange.error).toMatch(/certificate/i);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('give a proxy that asks for credentials the ones in its URL, which appear nowhere else', async () => {
    proxy = await startProxy({ credentials: { user: 'cf-user', password: 'proxy-s3cret' } });
    const withCredentials = `http://cf-user:proxy-s3cret@${new URL(proxy.url).host}`;
    const r = await ask(target({ HTTP_PROXY: withCredentials }));
    expect(r.exchange.error).toBeUndefined();
    expect(proxy.authorizations).toEqual([`Basic ${Buffer.from('cf-user:proxy-s3cret').toString('base64')}`]);
    expect(JSON.stringify(r.exchange)).not.toContain('proxy-s3cret');
    expect(redactText(`through ${withCredentials}`), 'the password is a secret of the run').not.toContain(
      'proxy-s3cret',
    );
  });

  it('refuse a proxy setting that is no URL, naming the variable and not its value', () => {
    expect(() => target({ HTTPS_PROXY: 'proxy.example.com:3128' })).toThrow(SettingsError);
    expect(() => target({ HTTPS_PROXY: 'user:pw@proxy:3128' })).toThrow(
      /^Setting HTTPS_PROXY: expected a proxy URL .*, got "<hidden>"$/,
    );
  });
});

describe('the preflight through a proxy', () => {
  const message = async (env: Record<string, string>) => {
    const t = target(env);
    const r = await preflight({ organization: t }, profile, {
      timeoutMs: 3000,
      retryBudgetMs: 0,
      reportDir: run.reportDir,
      runId: run.runId,
    });
    return preflightMessage(r.problems, (s) => SERVICES[s].envPrefix);
  };

  it('names the proxy (without its credentials) when the proxy cannot be reached', async () => {
    const url = `http://someone:pw-1234@127.0.0.1:${await closedPort()}`;
    const line = await message({ HTTP_PROXY: url });
    expect(line).toMatch(
      /is unreachable \(ECONNREFUSED.*\); check HTTP_PROXY and NO_PROXY \(ORG_BASE_URL is reached through the proxy\), and ORG_BASE_URL\. No check was run\.$/,
    );
    expect(line).toContain(`through the proxy http://127.0.0.1:${new URL(url).port} (HTTP_PROXY)`);
    expect(line).not.toContain('pw-1234');
  });

  it('says the proxy asks for credentials (HTTP 407) and where they go', async () => {
    proxy = await startProxy({ credentials: { user: 'u', password: 'p' } });
    const line = await message({ http_proxy: proxy.url });
    expect(line).toMatch(
      /through the proxy http:\/\/127\.0\.0\.1:\d+ \(http_proxy\) is not reachable: the proxy refused \(the proxy answered HTTP 407 to the tunnel\)/,
    );
    expect(line).toContain(
      'check http_proxy (a proxy that asks for credentials takes them in the URL: http://user:password@host:port), or NO_PROXY to reach ORG_BASE_URL directly',
    );
  });

  it('stops npm run conformance with exit code 3 and that line', async () => {
    const port = await closedPort();
    const r = await runCommand('run/cli/conformance.mjs', [], {
      ORG_BASE_URL: ref.baseUrlOf('organization'),
      ORG_TOKEN: ref.token,
      ORG_SOURCES: 'cf_test_a',
      HTTP_PROXY: `http://127.0.0.1:${port}`,
      CONFORMANCE_REPORT_DIR: mkdtempSync(join(tmpdir(), 'cf-proxy-cli-')),
    });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toContain(`through the proxy http://127.0.0.1:${port} (HTTP_PROXY) is unreachable`);
  }, 60000);
});
