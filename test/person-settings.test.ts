/** Person settings and guard: person.auth picks the scheme when both credentials are set; createDataSource may only create names in the run namespace, ledgered before sending. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../harness/client.js';
import { GuardRefusal } from '../harness/guard.js';
import { loadSettings, preferAuth } from '../harness/config.js';
import { ProfileSchema } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
const env = {
  PERSON_BASE_URL: 'https://staging.example.com',
  PERSON_TOKEN: JWT,
  PERSON_USERNAME: 'u',
  PERSON_PASSWORD: 'p',
  PERSON_SOURCES: 'cf_a',
  PERSON_CUSTOMER_ID: 'cust-1',
};

describe('person settings', () => {
  it('keeps both credentials and lets person.auth choose', () => {
    const person = loadSettings(env).configured.person!;
    expect(person.customerId).toBe('cust-1');
    expect(preferAuth(person, 'bearer').auth.scheme).toBe('bearer');
    expect(preferAuth(person, 'basic').auth).toEqual({ scheme: 'basic', username: 'u', password: 'p' });
  });

  it('uses the only credentials given whatever person.auth says', () => {
    const person = loadSettings({ ...env, PERSON_TOKEN: '' }).configured.person!;
    expect(preferAuth(person, 'bearer').auth.scheme).toBe('basic');
  });
});

describe('createDataSource guard', () => {
  const run = new RunContext('guardtest-1', mkdtempSync(join(tmpdir(), 'cf-guard-')));
  // A closed local port: the request fails at connect, nothing leaves the machine.
  const target = { ...loadSettings(env).configured.person!, baseUrl: 'http://127.0.0.1:9', embedded: false };
  const client = new ServiceClient(target, ProfileSchema.parse({}), run, { timeoutMs: 1000, maxInFlight: 1 });

  it('refuses a name outside the run namespace and sends nothing', async () => {
    await expect(
      client.call('createDataSource', { sources: [`${run.namespace}ok`, 'PRODUCTION_EHR'] }),
    ).rejects.toBeInstanceOf(GuardRefusal);
    expect(run.entries()).toEqual([]);
  });

  it('ledgers every name before the request leaves', async () => {
    const name = `${run.namespace}ds-1`;
    await client.call('createDataSource', { sources: [name] }); // nothing listens: a transport error, not a throw
    expect(run.entries()).toEqual([expect.objectContaining({ kind: 'dataSource', service: 'person', name })]);
    await client.close();
  });
});
