/**
 * The preflight's one line per problem names only settings that exist and that the run used
 * (run/preflight.ts preflightMessage): credentials the provider service rejects point at
 * PROVIDER_USERNAME and PROVIDER_PASSWORD, never at PROVIDER_TOKEN, a setting the suite refuses.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../harness/config.js';
import { knownSettingNames } from '../harness/setting-names.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { type RunningReference, startReference } from '../reference/server.js';
import { preflight, preflightMessage } from '../run/preflight.js';
import { SERVICES } from '../specs/services.js';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({ faults: [] });
});
afterAll(() => ref.stop());

const options = () => ({
  timeoutMs: 5000,
  retryBudgetMs: 0,
  reportDir: mkdtempSync(join(tmpdir(), 'cf-advice-')),
  runId: 'advice',
});
const settingsIn = (line: string) =>
  [...line.matchAll(/\b(?:ORG|PERSON|PROVIDER|CONFORMANCE)_[A-Z_]+\b/g)].map((m) => m[0]);

describe('preflight advice', () => {
  it('names the credential settings each service was given, and only settings that exist', async () => {
    const settings = loadSettings({
      ORG_BASE_URL: ref.baseUrlOf('organization'),
      ORG_TOKEN: 'aaaa.bbbb.cccc',
      ORG_SOURCES: 'cf_test_a',
      PROVIDER_BASE_URL: ref.baseUrlOf('provider'),
      PROVIDER_USERNAME: ref.auth.username,
      PROVIDER_PASSWORD: 'not-the-password',
      PROVIDER_SOURCES: 'cf_test_a',
    });
    const r = await preflight(settings.configured, resolveProfile(loadProfile(undefined), false), options());
    const lines = preflightMessage(r.problems, (s) => SERVICES[s].envPrefix).split('\n');
    expect(lines).toHaveLength(2);
    const org = lines.find((l) => l.includes('the organization service'))!;
    const provider = lines.find((l) => l.includes('the provider service'))!;
    expect(org).toMatch(/rejecting the credentials \(HTTP 401\); check ORG_TOKEN\./);
    expect(provider).toMatch(/rejecting the credentials \(HTTP 401\); check PROVIDER_USERNAME and PROVIDER_PASSWORD\./);
    const known = new Set(knownSettingNames());
    for (const line of lines)
      for (const name of settingsIn(line)) expect(known.has(name), `${name} in: ${line}`).toBe(true);
    expect(provider).not.toContain('PROVIDER_TOKEN');
  });
});
