/**
 * OAuth2 client credentials as the reports show them: the mode, the token endpoint's host, the client ID and scope in
 * report.html, summary.md and Allure's environment, never the client secret; and a failure's curl replay that starts
 * by fetching a token from the same token endpoint with the same settings, which works in a real shell against a
 * local token endpoint and deployment.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthShown } from '../harness/oauth.js';
import type { Exchange } from '../harness/reply.js';
import { curlCommand } from '../report/curl.js';
import { writeRunReports } from '../report/write.js';
import { makeRunFolder } from './support/report-fixture.js';

const SECRET = 'oauth-client-s3cret';
const OAUTH = {
  tokenUrl: `https://login.example.com:8443/oauth2/token?tenant=acme`,
  clientId: 'conformance-suite',
  clientSecret: SECRET,
  scope: 'identity.read identity.write',
};
const SHOWN =
  'bearer, OAuth2 client credentials: token from login.example.com:8443, client conformance-suite, scope "identity.read identity.write"';

describe('the reports of a run whose organization token came from an OAuth2 client', () => {
  let html: InstanceType<typeof Window>['document'];
  let md: string;
  let environment: string;
  beforeAll(async () => {
    const f = makeRunFolder();
    f.run.targets[0]!.oauth = oauthShown(OAUTH);
    await writeRunReports(f.folder, undefined, f.run, f.results, undefined, { known: null });
    const window = new Window({ settings: { disableJavaScriptEvaluation: true } });
    window.document.write(readFileSync(join(f.folder, 'report.html'), 'utf8'));
    html = window.document;
    md = readFileSync(join(f.folder, 'summary.md'), 'utf8');
    environment = readFileSync(join(f.folder, 'allure-results', 'environment.properties'), 'utf8');
  });

  it('show the mode, the token host, the client and the scope, and no secret', () => {
    expect(oauthShown(OAUTH)).toEqual({
      tokenHost: 'login.example.com:8443',
      clientId: 'conformance-suite',
      scope: OAUTH.scope,
    });
    expect(html.body.textContent).toContain(SHOWN);
    expect(md).toContain(SHOWN);
    expect(environment).toContain('OAuth2 client credentials\\: token from login.example.com\\:8443'); // .properties escapes ':'
    for (const text of [html.documentElement.outerHTML, md, environment]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('tenant=acme');
    }
  });

  it('give a failure’s curl replay the line that fetches a token first', () => {
    const replays = [...html.querySelectorAll('pre')]
      .map((p) => p.textContent ?? '')
      .filter((t) => t.includes('curl -sS -X POST'));
    expect(replays.length).toBeGreaterThan(0);
    for (const r of replays)
      expect(r).toMatch(
        /^# ORG_TOKEN from the OAuth2 token endpoint of the run \(login\.example\.com:8443, client conformance-suite\):\nORG_TOKEN=\$\(curl /,
      );
  });
});

describe('the token line of a curl replay, in a real shell', () => {
  let token: Server;
  let deployment: Server;
  const seen: string[] = [];
  const body = (req: IncomingMessage) =>
    new Promise<string>((r) => {
      let b = '';
      req.on('data', (d) => (b += d));
      req.on('end', () => r(b));
    });
  const listen = (s: Server) =>
    new Promise<string>((r) =>
      s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
    );
  beforeAll(() => {
    token = createServer(async (req, res) => {
      const form = new URLSearchParams(await body(req));
      const ok =
        req.headers.authorization === `Basic ${Buffer.from(`conformance-suite:${SECRET}`).toString('base64')}` &&
        form.get('grant_type') === 'client_credentials' &&
        form.get('scope') === OAUTH.scope;
      res
        .writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
        .end(JSON.stringify(ok ? { access_token: 'issued-tok-1', expires_in: 60 } : { error: 'invalid_client' }));
    });
    deployment = createServer(async (req, res) => {
      await body(req);
      seen.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
  });
  afterAll(() => {
    token.close();
    deployment.close();
  });

  it('fetches a token with the OAuth settings and replays the request with it', async () => {
    const [tokenUrl, deploymentUrl] = [await listen(token), await listen(deployment)];
    const exchange: Exchange = {
      service: 'organization',
      operation: 'nativeIdQuery',
      method: 'POST',
      url: `${deploymentUrl}/provider-link-ws/svc/nativeIdQuery`,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      request: {
        headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
        body: { content: {} },
      },
      reply: { status: 200, headers: {}, body: { success: true } },
    };
    const command = curlCommand(exchange, oauthShown({ ...OAUTH, tokenUrl }));
    expect(command).not.toContain(SECRET);
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn('bash', ['-c', command], {
        env: {
          PATH: process.env.PATH!,
          ORG_OAUTH_TOKEN_URL: `${tokenUrl}/oauth2/token`,
          ORG_OAUTH_CLIENT_ID: OAUTH.clientId,
          ORG_OAUTH_CLIENT_SECRET: SECRET,
          ORG_OAUTH_SCOPE: OAUTH.scope,
        },
        stdio: 'ignore',
      });
      child.on('exit', resolve);
    });
    expect(code).toBe(0);
    expect(seen).toEqual(['Bearer issued-tok-1']);
  });
});
