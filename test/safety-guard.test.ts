/**
 * The guard refuses every mutating operation of every registered service when it names a source
 * (or link ID, relationship, data source) the run did not create, before anything is sent.
 * Table-driven from the operations tables: a request whose every member names a foreign
 * source, once with a foreign source name and once with a test source name but a foreign native ID.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../harness/client.js';
import { GuardRefusal } from '../harness/guard.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { SERVICES, serviceNames } from '../specs/services.js';

const run = new RunContext('safetyguard', mkdtempSync(join(tmpdir(), 'cf-safety-guard-')));
const profile = resolveProfile(loadProfile(undefined), false);
const clients: ServiceClient[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));

/** A request content in which every member read (at any depth) names `source`. */
function naming(source: { name: string; id: string }): any {
  return new Proxy(
    {},
    {
      get(_t, k) {
        if (typeof k === 'symbol' || k === 'toJSON' || k === 'then') return undefined;
        if (k === 'name') return source.name;
        if (k === 'id') return source.id;
        if (k === 'toString' || k === 'valueOf') return () => `${source.name}/${source.id}`;
        if (k === 'sources' || k === 'names' || k === 'dataSourceNames') return [naming(source)];
        return naming(source);
      },
    },
  );
}

const foreignSources = [
  { name: 'staging_crm', id: 'cf-safetyguard-looks-owned' },
  { name: 'cf_test_a', id: 'someone-elses-record' },
];

for (const service of serviceNames()) {
  const spec = SERVICES[service];
  const client = new ServiceClient(
    // Port 9 (discard) on loopback: a request that got through the guard would fail to connect, not reach anything.
    {
      service,
      baseUrl: 'http://127.0.0.1:9',
      servicePath: spec.servicePath,
      auth: { scheme: 'bearer', token: 'aaaa.bbbb.cccc' },
      sources: ['cf_test_a', 'cf_test_b'],
      embedded: false,
    },
    profile,
    run,
    { timeoutMs: 500, maxInFlight: 1, retries: 0 },
  );
  clients.push(client);
  describe(`${service}: guard`, () => {
    const mutating = spec.operations.filter((o) => o.mutates);
    it('has mutating operations to guard', () => expect(mutating.length).toBeGreaterThan(0));
    it.each(mutating.map((o) => o.name))(
      '%s naming something the run did not create is refused before sending',
      async (name) => {
        for (const s of foreignSources) {
          const ledgerBefore = run.entries().length;
          await expect(client.call(name, naming(s))).rejects.toBeInstanceOf(GuardRefusal);
          expect(run.entries().length, 'nothing written to the ledger for a refused request').toBe(ledgerBefore);
        }
      },
    );
  });
}
