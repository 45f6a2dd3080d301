/**
 * curl replays (report/curl.ts): every word survives a real POSIX shell unchanged (bodies with
 * quotes, `$`, backticks, `!` and line breaks), and the credential is a variable the shell
 * expands, never the secret.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../harness/reply.js';
import { curlCommand } from '../report/curl.js';

const exchange = (body: unknown, authorization: string): Exchange => ({
  service: 'organization',
  operation: 'postIdentity',
  method: 'POST',
  url: 'http://127.0.0.1:9/provider-link-ws/svc/postIdentity',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  request: { headers: { 'content-type': 'application/json', authorization }, body },
  reply: { status: 200, headers: {}, body: { success: true } },
});

/** The words bash sees when it runs the command with `curl` replaced by a word printer. */
function wordsInBash(command: string, env: Record<string, string> = {}): string[] {
  const r = spawnSync(
    'bash',
    ['-c', `words() { for w in "$@"; do printf '%s\\0' "$w"; done; }; ${command.replace(/^curl /, 'words ')}`],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH!, ...env },
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

describe('curl replay', () => {
  it.each([
    ["O'Kon & Sons", 'an apostrophe'],
    ['say "hi" for $HOME and `id`', 'double quotes, a variable and a backtick'],
    ["Don't panic!", 'an apostrophe and an exclamation mark'],
    ['two\nlines\tand a tab \\ backslash', 'line breaks, tabs and backslashes'],
  ])('passes a body with %j (%s) to curl unchanged', (name) => {
    const body = { trackingId: 't-1', content: { identity: { organizationNames: [{ legalBusinessName: name }] } } };
    const words = wordsInBash(curlCommand(exchange(body, 'Bearer [REDACTED]')), { ORG_TOKEN: 'tok' });
    expect(words.at(-2)).toBe('--data-raw');
    expect(JSON.parse(words.at(-1)!)).toEqual(body);
    expect(words.slice(0, 4)).toEqual(['-sS', '-X', 'POST', 'http://127.0.0.1:9/provider-link-ws/svc/postIdentity']);
  });

  it('reads as one would type it: the URL and JSON in single quotes, no backslash escapes where none are needed', () => {
    const command = curlCommand(exchange({ content: { linkId: 'L1' } }, 'Bearer [REDACTED]'));
    expect(command).toBe(
      `curl -sS -X POST 'http://127.0.0.1:9/provider-link-ws/svc/postIdentity' -H "Authorization: Bearer $ORG_TOKEN" -H 'content-type: application/json' --data-raw '{"content":{"linkId":"L1"}}'`,
    );
  });

  it('sends the credential as the setting variable the shell expands, never the recorded value', () => {
    const bearer = curlCommand(exchange({}, 'Bearer eyJ.secret.sig'));
    expect(bearer).not.toContain('eyJ.secret.sig');
    expect(bearer).toContain('"Authorization: Bearer $ORG_TOKEN"');
    expect(wordsInBash(bearer, { ORG_TOKEN: 'from-env' })).toContain('Authorization: Bearer from-env');
    const basic = curlCommand({ ...exchange({}, 'Basic dXNlcjpwYXNz'), service: 'provider' });
    expect(basic).not.toContain('dXNlcjpwYXNz');
    expect(wordsInBash(basic, { PROVIDER_USERNAME: 'u', PROVIDER_PASSWORD: 'p' })).toContain('u:p');
  });
});
