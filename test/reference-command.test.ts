/**
 * `npm run reference` prints two ready-to-run curl commands (run/reference-requests.ts): run as
 * printed, in a shell, the postIdentity is accepted and the demographicsSearch with the same data
 * finds the posted identity first.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, scriptArgs } from './support/command.js';

const exec = promisify(execFile);
let child: ChildProcess;
let printed = '';

beforeAll(async () => {
  child = spawn(process.execPath, [...scriptArgs('run/cli/reference.ts')], {
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "Press Ctrl+C" line in 30 s: ${printed}`)), 30000);
    child.stdout!.on('data', (d) => {
      printed += d;
      if (printed.includes('Press Ctrl+C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
});
afterAll(() => {
  child?.kill('SIGTERM');
});

/** The command printed on the line after `label`. */
const commandAfter = (label: string) => {
  const lines = printed.split('\n');
  return lines[lines.indexOf(label) + 1]!.trim();
};

describe('npm run reference', () => {
  it('prints a postIdentity and a demographicsSearch that run as printed: the search finds the posted identity first', async () => {
    const post = commandAfter('Post an organization identity:');
    const search = commandAfter('Search with its data (it comes back first):');
    expect(post).toMatch(
      /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/provider-link-ws\/svc\/postIdentity' .*-H 'Authorization: Bearer [\w.-]+' --data-raw '\{/,
    );
    expect(search).toMatch(/^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/provider-link-ws\/svc\/demographicsSearch' /);
    const posted = JSON.parse((await exec('bash', ['-c', post])).stdout) as {
      success: boolean;
      content: { linkId?: string };
    };
    expect(posted.success, JSON.stringify(posted)).toBe(true);
    const found = JSON.parse((await exec('bash', ['-c', search])).stdout) as {
      success: boolean;
      content: { searchResults: Array<{ linkId: string }> };
    };
    expect(found.success, JSON.stringify(found)).toBe(true);
    const lookup = (
      await exec('bash', [
        '-c',
        post
          .replace('/postIdentity', '/nativeIdQuery')
          .replace(
            /--data-raw '.*'$/,
            `--data-raw '{"content":{"source":{"name":"cf_test_a","id":"curl-example-1"}}}'`,
          ),
      ])
    ).stdout;
    const linkId = (JSON.parse(lookup) as { content: { linkId: string } }).content.linkId;
    expect(found.content.searchResults[0]?.linkId).toBe(linkId);
  });
});
