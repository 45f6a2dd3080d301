/** Settings validation: every bad setting stops the run with one message naming it (harness/config.ts). */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_BUDGET_MS, SettingsError, loadSettings, filesAtOnceFor } from '../harness/config.js';
import { HANDOFFS } from '../harness/handoff.js';
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
    expect(s.configured.organization).toMatchObject({
      baseUrl: 'https://staging.example.com/prefix',
      servicePath: '/provider-link-ws/svc',
      sources: ['crm', 'billing'],
      auth: { scheme: 'bearer', token: JWT },
    });
    expect(s.seed).toBe(42);
    expect(s.configured.person).toBeUndefined();
  });

  it('runs 2 files at once against the embedded reference, 2 to 6 against a configured deployment by its round trip, CONFORMANCE_FILES_AT_ONCE when set', () => {
    expect(filesAtOnceFor(loadSettings({}))).toBe(2);
    expect(filesAtOnceFor(loadSettings(org))).toBe(4);
    expect(filesAtOnceFor(loadSettings({ ...org, CONFORMANCE_FILES_AT_ONCE: '3' }))).toBe(3);
    expect(filesAtOnceFor(loadSettings({ CONFORMANCE_FILES_AT_ONCE: '1' }))).toBe(1);
    // The older name still counts, and the new one wins over it.
    expect(filesAtOnceFor(loadSettings({ ...org, CONFORMANCE_WORKERS: '3' }))).toBe(3);
    expect(filesAtOnceFor(loadSettings({ ...org, CONFORMANCE_WORKERS: '3', CONFORMANCE_FILES_AT_ONCE: '5' }))).toBe(5);
    expect(() => loadSettings({ CONFORMANCE_FILES_AT_ONCE: 'many' })).toThrow(/CONFORMANCE_FILES_AT_ONCE/);
    expect(() => loadSettings({ CONFORMANCE_FILES_AT_ONCE: '2', CONFORMANCE_WORKERS: 'four' })).toThrow(
      /CONFORMANCE_WORKERS/,
    );
    expect(filesAtOnceFor(loadSettings({ ...org, CONFORMANCE_FILES_AT_ONCE: '', CONFORMANCE_WORKERS: '3' }))).toBe(3);
    // A distant deployment (preflight round trip of 100 ms or more) gets six, unless the setting says otherwise.
    expect(filesAtOnceFor(loadSettings(org), 99)).toBe(4);
    expect(filesAtOnceFor(loadSettings(org), 100)).toBe(6);
    expect(filesAtOnceFor(loadSettings({ ...org, CONFORMANCE_FILES_AT_ONCE: '3' }), 300)).toBe(3);
    expect(filesAtOnceFor(loadSettings({}), 300)).toBe(2);
    // A near deployment (round trip under 15 ms) leaves the run CPU-bound: a file per core, 2 to 4.
    expect(filesAtOnceFor(loadSettings(org), 14, 2)).toBe(2);
    expect(filesAtOnceFor(loadSettings(org), 14, 1)).toBe(2);
    expect(filesAtOnceFor(loadSettings(org), 14, 3)).toBe(3);
    expect(filesAtOnceFor(loadSettings(org), 14, 16)).toBe(4);
    expect(filesAtOnceFor(loadSettings(org), 15, 2)).toBe(4);
    expect(filesAtOnceFor(loadSettings({ ...org, CONFORMANCE_FILES_AT_ONCE: '5' }), 3, 2)).toBe(5);
  });

  it('honours ORG_SERVICE_PATH', () => {
    expect(loadSettings({ ...org, ORG_SERVICE_PATH: '/org-link-ws/svc' }).configured.organization?.servicePath).toBe(
      '/org-link-ws/svc',
    );
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
    ['CONFORMANCE_WORKERS', { CONFORMANCE_WORKERS: 'four' }],
    ['CONFORMANCE_TIMEOUT_MS', { CONFORMANCE_TIMEOUT_MS: '5s' }],
    ['CONFORMANCE_BAD_INPUTS', { CONFORMANCE_BAD_INPUTS: '-3' }],
    ['CONFORMANCE_RETRY_BUDGET_MS', { CONFORMANCE_RETRY_BUDGET_MS: '30s' }],
    ['CONFORMANCE_RETRY_BUDGET_MS', { CONFORMANCE_RETRY_BUDGET_MS: '-1' }],
    ['CONFORMANCE_RETRIES', { CONFORMANCE_RETRIES: 'many' }],
    ['CONFORMANCE_RETRIES', { CONFORMANCE_RETRIES: '101' }],
    ['CONFORMANCE_BAD_INPUTS', { CONFORMANCE_BAD_INPUTS: 'many' }],
    ['CONFORMANCE_RUN_ID', { CONFORMANCE_RUN_ID: '../etc' }],
    ['CONFORMANCE_PROFILE', { CONFORMANCE_PROFILE: '/no/such/profile.json' }],
    ['CONFORMANCE_REQUIREMENT_URL', { CONFORMANCE_REQUIREMENT_URL: 'https://tracker.example.com/req' }],
  ];
  it.each(bad)('names %s when it is wrong', (setting, env) => {
    expect(settingOf(env)).toBe(setting);
  });

  it('a variable with a suite prefix that is no setting is refused with the closest setting, never with its value', () => {
    const cases: Array<[Record<string, string>, string, string | undefined]> = [
      [
        { ORG_BASEURL: 'https://staging.example.com', ORG_TOKEN: JWT, ORG_SOURCES: 'crm' },
        'ORG_BASEURL',
        'ORG_BASE_URL',
      ],
      [{ PERSON_PASWORD: 'hunter2hunter2' }, 'PERSON_PASWORD', 'PERSON_PASSWORD'],
      [{ CONFORMANCE_TIMEOUT: '100' }, 'CONFORMANCE_TIMEOUT', 'CONFORMANCE_TIMEOUT_MS'],
      [{ REFERENCE_FAULT: 'merge-no-unify' }, 'REFERENCE_FAULT', 'REFERENCE_FAULTS'],
      // a setting of a scheme the service does not use is not silently ignored
      [{ PROVIDER_TOKEN: JWT }, 'PROVIDER_TOKEN', undefined],
      [{ ORG_USERNAME: 'me' }, 'ORG_USERNAME', undefined],
      [{ CONFORMANCE_XYZZY_PLUGH: '1' }, 'CONFORMANCE_XYZZY_PLUGH', undefined],
    ];
    for (const [env, name, suggestion] of cases) {
      let message = '';
      try {
        loadSettings(env);
      } catch (e) {
        expect(e).toBeInstanceOf(SettingsError);
        expect((e as SettingsError).setting).toBe(name);
        message = (e as Error).message;
      }
      expect(message, name).toMatch(new RegExp(`^Setting ${name}: expected a known setting`));
      if (suggestion) expect(message).toContain(`did you mean ${suggestion}?`);
      else expect(message).not.toContain('did you mean');
      for (const value of Object.values(env)) expect(message).not.toContain(value);
    }
  });

  it('internal variables the commands set for their children, and variables without a suite prefix, are accepted', () => {
    expect(() =>
      loadSettings({
        ...Object.fromEntries(HANDOFFS.filter((h) => !h.handedOn).map((h) => [h.name, '1'])),
        ORGANISATION: 'x',
        PATH: '/bin',
      }),
    ).not.toThrow();
  });

  it('CONFORMANCE_TARGET states the target; a contradiction with the service URLs is refused', () => {
    expect(loadSettings({}).target).toBe('embedded');
    expect(loadSettings({ CONFORMANCE_TARGET: 'embedded' }).target).toBe('embedded');
    expect(loadSettings(org).target).toBe('configured');
    expect(loadSettings({ ...org, CONFORMANCE_TARGET: 'configured' }).target).toBe('configured');
    expect(settingOf({ CONFORMANCE_TARGET: 'configured' })).toBe('CONFORMANCE_TARGET');
    expect(settingOf({ ...org, CONFORMANCE_TARGET: 'embedded' })).toBe('CONFORMANCE_TARGET');
    expect(settingOf({ CONFORMANCE_TARGET: 'staging' })).toBe('CONFORMANCE_TARGET');
  });

  it('in CI, a run that would fall back to the embedded reference while a base-URL-like variable is set is refused', () => {
    for (const [env, name] of [
      [{ CI: 'true', ORGANIZATION_BASE_URL: 'https://staging.example.com' }, 'ORGANIZATION_BASE_URL'],
      [{ CI: 'true', ORG_BASE_URL: '' }, 'ORG_BASE_URL'],
      [{ CI: '1', PERSONBASEURL: 'https://staging.example.com' }, 'PERSONBASEURL'],
    ] as Array<[Record<string, string>, string]>) {
      expect(settingOf(env), JSON.stringify(env)).toBe(name);
    }
    // outside CI, or with the intent stated, or with a configured service, it runs
    expect(loadSettings({ ORGANIZATION_BASE_URL: 'https://staging.example.com' }).target).toBe('embedded');
    expect(
      loadSettings({ CI: 'true', ORGANIZATION_BASE_URL: 'https://x.example.com', CONFORMANCE_TARGET: 'embedded' })
        .target,
    ).toBe('embedded');
    expect(loadSettings({ CI: 'true', ...org, API_BASE_URL: 'https://x.example.com' }).target).toBe('configured');
    expect(loadSettings({ CI: 'true', GITHUB_SERVER_URL: 'https://github.com' }).target).toBe('embedded');
    // vite sets BASE_URL=/ in its own processes: a path is no deployment address
    expect(loadSettings({ CI: 'true', BASE_URL: '/' }).target).toBe('embedded');
  });

  it('retries are bounded by CONFORMANCE_RETRY_BUDGET_MS (default 30 s), and by CONFORMANCE_RETRIES only when set', () => {
    expect(loadSettings({}).retryBudgetMs).toBe(DEFAULT_RETRY_BUDGET_MS);
    expect(DEFAULT_RETRY_BUDGET_MS).toBe(30000);
    expect(loadSettings({}).retries).toBeUndefined();
    expect(loadSettings({ CONFORMANCE_RETRY_BUDGET_MS: '0', CONFORMANCE_RETRIES: '3' })).toMatchObject({
      retryBudgetMs: 0,
      retries: 3,
    });
  });

  it("CONFORMANCE_EXCHANGES keeps failing checks' exchanges by default and accepts all or none", () => {
    expect(loadSettings({}).exchanges).toBe('failing');
    expect(loadSettings({ CONFORMANCE_EXCHANGES: 'all' }).exchanges).toBe('all');
    expect(loadSettings({ CONFORMANCE_EXCHANGES: 'none' }).exchanges).toBe('none');
    expect(settingOf({ CONFORMANCE_EXCHANGES: 'some' })).toBe('CONFORMANCE_EXCHANGES');
  });

  it('CONFORMANCE_SCOPE is default unless it says full; anything else is refused naming it', () => {
    expect(loadSettings({}).scope).toBe('default');
    expect(loadSettings({ CONFORMANCE_SCOPE: 'full' }).scope).toBe('full');
    expect(loadSettings({ CONFORMANCE_SCOPE: 'FULL' }).scope).toBe('full');
    expect(settingOf({ CONFORMANCE_SCOPE: 'everything' })).toBe('CONFORMANCE_SCOPE');
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

  it('a misspelt member is refused at every level, with its full path and the member meant', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-profile-'));
    const cases: Array<[unknown, string]> = [
      [{ responseView: ['DEFAULT'] }, 'responseView: not a profile member (did you mean responseViews?)'],
      [{ relationship: { verbb: 'x' } }, 'relationship.verbb: not a profile member (did you mean relationship.verb?)'],
      [
        { members: { restoreSorce: 'source' } },
        'members.restoreSorce: not a profile member (did you mean members.restoreSource?)',
      ],
      [
        { notifications: { pagesize: 5 } },
        'notifications.pagesize: not a profile member (did you mean notifications.pageSize?)',
      ],
      [
        { person: { schemaVersio: '1.0.0' } },
        'person.schemaVersio: not a profile member (did you mean person.schemaVersion?)',
      ],
      [
        { provider: { typeMembr: 'npis.entityTypeCode' } },
        'provider.typeMembr: not a profile member (did you mean provider.typeMember?)',
      ],
    ];
    for (const [body, message] of cases) {
      const f = join(dir, 'typo.json');
      writeFileSync(f, JSON.stringify(body));
      expect(() => loadProfile(f), JSON.stringify(body)).toThrow(message);
    }
  });
});
