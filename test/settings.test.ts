/** Settings validation: every bad setting stops the run with one message naming it (harness/config.ts). */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsError, loadSettings } from '../harness/config.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
const org = { ORG_BASE_URL: 'https://staging.example.com/prefix/', ORG_TOKEN: JWT, ORG_SOURCES: 'crm, billing' };

function settingOf(env: Record<string, string>): string | undefined {
  try {
    loadSettings(env);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(SettingsError);
    return (e as SettingsError).setting;
  }
}

describe('loadSettings', () => {
  it('with no service URL, nothing is configured (the embedded reference runs) and defaults apply', () => {
    const s = loadSettings({});
    expect(s.configured).toEqual({});
    expect(s.maxInFlight).toBe(8);
    expect(s.timeoutMs).toBe(30000);
    expect(s.reportDir).toBe('reports');
    expect(s.seedFromSettings).toBe(false);
  });

  it('reads a configured organization target, trims the URL and appends the documented service path', () => {
    const s = loadSettings({ ...org, CONFORMANCE_SEED: '42' });
    expect(s.configured.organization).toMatchObject({ baseUrl: 'https://staging.example.com/prefix', servicePath: '/provider-link-ws/svc', sources: ['crm', 'billing'], auth: { scheme: 'bearer', token: JWT } });
    expect(s.seed).toBe(42);
    expect(s.configured.person).toBeUndefined();
  });

  it('honours ORG_SERVICE_PATH', () => {
    expect(loadSettings({ ...org, ORG_SERVICE_PATH: '/org-link-ws/svc' }).configured.organization?.servicePath).toBe('/org-link-ws/svc');
  });

  const bad: Array<[string, Record<string, string>]> = [
    ['ORG_BASE_URL', { ...org, ORG_BASE_URL: 'ftp://nope' }],
    ['ORG_BASE_URL', { ...org, ORG_BASE_URL: 'not a url' }],
    ['ORG_TOKEN', { ORG_BASE_URL: org.ORG_BASE_URL, ORG_SOURCES: 'crm' }],
    ['ORG_TOKEN', { ...org, ORG_TOKEN: 'not-a-jwt' }],
    ['ORG_SOURCES', { ORG_BASE_URL: org.ORG_BASE_URL, ORG_TOKEN: JWT }],
    ['ORG_SOURCES', { ...org, ORG_SOURCES: 'crm,bad name!' }],
    ['ORG_TLS_CERT', { ...org, ORG_TLS_CERT: '/no/such/file.pem', ORG_TLS_KEY: '/no/such/key.pem' }],
    ['CONFORMANCE_SEED', { CONFORMANCE_SEED: '-1' }],
    ['CONFORMANCE_SEED', { CONFORMANCE_SEED: 'abc' }],
    ['CONFORMANCE_MAX_IN_FLIGHT', { CONFORMANCE_MAX_IN_FLIGHT: '0' }],
    ['CONFORMANCE_TIMEOUT_MS', { CONFORMANCE_TIMEOUT_MS: '5s' }],
    ['CONFORMANCE_BAD_INPUTS', { CONFORMANCE_BAD_INPUTS: '-3' }],
    ['CONFORMANCE_BAD_INPUTS', { CONFORMANCE_BAD_INPUTS: 'many' }],
    ['CONFORMANCE_RUN_ID', { CONFORMANCE_RUN_ID: '../etc' }],
    ['CONFORMANCE_PROFILE', { CONFORMANCE_PROFILE: '/no/such/profile.json' }],
  ];
  it.each(bad)('names %s when it is wrong', (setting, env) => {
    expect(settingOf(env)).toBe(setting);
  });

  it('the message names the setting and what is expected, and never echoes a token', () => {
    try {
      loadSettings({ ...org, ORG_TOKEN: 'secret-but-not-a-jwt' });
    } catch (e) {
      expect((e as Error).message).toMatch(/^Setting ORG_TOKEN: expected a JWT/);
      expect((e as Error).message).not.toContain('secret-but-not-a-jwt');
    }
  });
});

describe('deployment profile', () => {
  it('defaults serve the reference; automatic values resolve per target kind', () => {
    const p = loadProfile();
    expect(p.members.restoreSource).toBe('sourceToRestore');
    expect(p.sourcePlacement).toBe('identity.sources');
    expect(resolveProfile(p, true).consistencyBudgetMs).toBe(0);
    expect(resolveProfile(p, false).consistencyBudgetMs).toBe(10000);
    expect(resolveProfile(p, false).createDataSources).toBe(false);
  });

  it('a profile file overrides defaults; an unknown member or bad value is a SettingsError naming CONFORMANCE_PROFILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-profile-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ members: { restoreSource: 'source' }, notifications: { firstPage: 1 } }));
    expect(loadProfile(good).members.restoreSource).toBe('source');
    expect(loadProfile(good).notifications.pageSize).toBe(3);
    for (const body of ['{"nope": true}', '{"notifications": {"firstPage": 7}}', 'not json']) {
      const f = join(dir, 'bad.json');
      writeFileSync(f, body);
      expect(() => loadProfile(f)).toThrow(/Setting CONFORMANCE_PROFILE/);
    }
  });
});
