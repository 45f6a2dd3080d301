/**
 * OAuth2 client credentials (harness/oauth.ts, harness/client.ts) against a local token endpoint
 * and a local deployment that accepts only the token the endpoint issued last: the token is
 * fetched once however many clients and requests of the run ask at once (they share it), fetched
 * again before it expires and once when the deployment answers 401, sent with the scope and
 * audience asked for, and never shown: the client secret and the tokens are masked in every
 * exchange and text. Settings and the preflight's advice name only the OAuth settings.
 */
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../harness/client.js';
import { SettingsError, loadSettings } from '../harness/config.js';
import { TokenSource, sharedTokenCell } from '../harness/oauth.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { redactText } from '../harness/redact.js';
import { RunContext } from '../harness/run.js';
import { preflight, preflightMessage } from '../run/preflight.js';
import { SERVICES } from '../specs/services.js';

const SECRET = 'client-s3cret-value';
let tokenServer: Server;
let deployment: Server;
let tokenUrl = '';
let deploymentUrl = '';
/** Token requests: their form and Authorization header. */
let requests: Array<{ form: URLSearchParams; authorization?: string }> = [];
let issued = 0;
let lifetimeSeconds = 3600;
/** Authorization headers the deployment received. */
let seen: string[] = [];
/** When set, the deployment refuses every token. */
let refuseAll = false;

const body = (req: IncomingMessage) =>
  new Promise<string>((r) => {
    let b = '';
    req.on('data', (d) => (b += d));
    req.on('end', () => r(b));
  });

beforeAll(async () => {
  tokenServer = createServer(async (req, res) => {
    const form = new URLSearchParams(await body(req));
    requests.push({ form, authorization: req.headers.authorization });
    if (req.headers.authorization !== `Basic ${Buffer.from(`conformance-client:${SECRET}`).toString('base64')}`)
      return void res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"invalid_client","error_description":"bad client"}');
    issued++;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: `tok-${issued}-xyzzy`, token_type: 'Bearer', expires_in: lifetimeSeconds }));
  });
  deployment = createServer(async (req, res) => {
    await body(req);
    seen.push(String(req.headers.authorization));
    // Only the token issued last is valid: an older one is refused as expired.
    const ok = !refuseAll && req.headers.authorization === `Bearer tok-${issued}-xyzzy`;
    res
      .writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ success: ok, content: {}, errors: ok ? [] : ['expired'] }));
  });
  for (const s of [tokenServer, deployment]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/oauth2/token`;
  deploymentUrl = `http://127.0.0.1:${(deployment.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of [tokenServer, deployment]) await new Promise<void>((r) => s.close(() => r()));
});
beforeEach(() => {
  requests = [];
  seen = [];
  lifetimeSeconds = 3600;
  refuseAll = false;
});

const settingsOf = (extra: Record<string, string> = {}) =>
  loadSettings({
    ORG_BASE_URL: deploymentUrl,
    ORG_SOURCES: 'cf_test_a',
    ORG_OAUTH_TOKEN_URL: tokenUrl,
    ORG_OAUTH_CLIENT_ID: 'conformance-client',
    ORG_OAUTH_CLIENT_SECRET: SECRET,
    ...extra,
  });
const profile = resolveProfile(loadProfile(undefined), false);
const run = new RunContext(`oauth-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-oauth-')));
const client = (cells?: Record<string, SharedArrayBuffer>, extra: Record<string, string> = {}) =>
  new ServiceClient({ ...settingsOf(extra).configured.organization!, embedded: false }, profile, run, {
    timeoutMs: 5000,
    maxInFlight: 4,
    retryBudgetMs: 0,
    ...(cells ? { tokenCells: cells } : {}),
  });

describe('OAuth2 client credentials', () => {
  it('fetch the token once for every client and request of the run that asks at once, with the scope and audience', async () => {
    const cells = { organization: sharedTokenCell() };
    const clients = [
      client(cells, { ORG_OAUTH_SCOPE: 'identity.write identity.read', ORG_OAUTH_AUDIENCE: 'https://api.example.com' }),
      client(cells),
      client(cells),
    ];
    try {
      const replies = await Promise.all(
        clients.flatMap((c) => Array.from({ length: 4 }, () => c.call('identityIdQuery', { linkId: 'x' }))),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect(requests).toHaveLength(1);
      expect(Object.fromEntries(requests[0]!.form)).toEqual({
        grant_type: 'client_credentials',
        scope: 'identity.write identity.read',
        audience: 'https://api.example.com',
      });
      expect(new Set(seen)).toEqual(new Set([`Bearer tok-${issued}-xyzzy`]));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('fetch a new token before the old one expires, not before', async () => {
    lifetimeSeconds = 120;
    let now = 1_000_000;
    const { auth } = settingsOf().configured.organization!;
    if (auth.scheme !== 'bearer' || !auth.oauth) throw new Error('expected OAuth settings');
    const source = new TokenSource(auth.oauth, { timeoutMs: 5000, now: () => now });
    const first = await source.token();
    now += 100_000; // 20 s left: more than the margin (a tenth of 120 s)
    expect(await source.token()).toBe(first);
    now += 9_000; // 11 s left: within it
    const second = await source.token();
    expect(second).not.toBe(first);
    expect(requests).toHaveLength(2);
  });

  it('fetch a new token once when the deployment refuses the current one (401), and send the request again', async () => {
    const cells = { organization: sharedTokenCell() };
    const c = client(cells);
    try {
      expect((await c.call('identityIdQuery', { linkId: 'x' })).status).toBe(200);
      const old = `Bearer tok-${issued}-xyzzy`;
      issued++; // the endpoint moved on (a rotation): the run's token is no longer valid
      const r = await c.call('identityIdQuery', { linkId: 'x' });
      expect(r.status).toBe(200);
      expect(requests).toHaveLength(2);
      expect(seen.slice(-2)).toEqual([old, `Bearer tok-${issued}-xyzzy`]);
      // A deployment that refuses every token gets one new token per refused request, not a loop.
      refuseAll = true;
      const refused = await c.call('identityIdQuery', { linkId: 'x' });
      expect(refused.status).toBe(401);
      expect(requests).toHaveLength(3);
    } finally {
      await c.close();
    }
  });

  it('never show the client secret or a token: masked in the exchange and in any text', async () => {
    const c = client();
    try {
      const r = await c.call('identityIdQuery', { linkId: 'x' });
      const text = JSON.stringify(r.exchange);
      expect(text).not.toContain('xyzzy');
      expect(r.exchange.request.headers.authorization).toBe('Bearer [REDACTED]');
      expect(redactText(`token tok-${issued}-xyzzy secret ${SECRET}`)).toBe('token [REDACTED] secret [REDACTED]');
    } finally {
      await c.close();
    }
  });

  it('a refused client is a preflight problem naming the OAuth settings, with what the endpoint said', async () => {
    const s = settingsOf({ ORG_OAUTH_CLIENT_SECRET: 'wrong-secret' });
    const p = await preflight(s.configured, profile, {
      timeoutMs: 3000,
      retryBudgetMs: 0,
      reportDir: run.reportDir,
      runId: run.runId,
    });
    const line = preflightMessage(p.problems, (x) => SERVICES[x].envPrefix);
    expect(line).toMatch(
      /is rejecting the credentials \(the token endpoint .* answered HTTP 401 \(invalid_client: bad client\)\); check ORG_OAUTH_CLIENT_ID and ORG_OAUTH_CLIENT_SECRET and ORG_OAUTH_SCOPE\./,
    );
    expect(line).not.toContain('wrong-secret');
  });

  it('settings: all three are needed, not together with ORG_TOKEN, and not for the provider service (basic only)', () => {
    expect(() => settingsOf({ ORG_OAUTH_CLIENT_SECRET: '' })).toThrow(
      /Setting ORG_OAUTH_CLIENT_SECRET: expected the client secret/,
    );
    expect(() => settingsOf({ ORG_TOKEN: 'a.b.c' })).toThrow(SettingsError);
    expect(() => settingsOf({ ORG_OAUTH_TOKEN_URL: '' })).toThrow(
      /Setting ORG_OAUTH_TOKEN_URL: expected the token endpoint's URL/,
    );
    expect(() => loadSettings({ PROVIDER_OAUTH_TOKEN_URL: tokenUrl })).toThrow(
      /PROVIDER_OAUTH_TOKEN_URL: expected a known setting/,
    );
  });
});
