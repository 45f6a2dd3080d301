/**
 * Requests in the vendor's form where the seeds and the vendor's contract disagree (harness/vendor-forms.ts,
 * docs/vendor-contract.md). A local deployment stands for one built to the vendor's contract: it refuses a person
 * request whose address latitude or longitude is not a string, and a provider search or query whose identity has no
 * source reference. With the profile's defaults the suite sends the seeds' form, which it refuses; with the settings,
 * the vendor's form, which it accepts, while the check keeps the content it built.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../harness/client.js';
import { type Profile, ProfileSchema } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import type { ServiceName } from '../specs/common/model.js';

type Body = { content?: { identity?: Record<string, any> } };
const received: Body[] = [];
/** The vendor's contract, as a gateway enforcing its types and required members would. */
function refusal(url: string, body: Body): string | undefined {
  const identity = body.content?.identity;
  if (url.includes('/link-ws/') && identity)
    for (const a of identity.addresses ?? [])
      for (const k of ['latitude', 'longitude'])
        if (k in a && typeof a[k] !== 'string') return `addresses.${k}: must be string`;
  if (/\/demographics(Search|Query)$/.test(url) && url.includes('/provider/') && !identity?.sources?.length)
    return 'identity.sources: required';
  return undefined;
}
const server = createServer((req, res) => {
  let text = '';
  req.on('data', (d) => (text += d));
  req.on('end', () => {
    const body = JSON.parse(text) as Body;
    received.push(body);
    const why = refusal(req.url ?? '', body);
    res
      .writeHead(why ? 400 : 200, { 'content-type': 'application/json' })
      .end(JSON.stringify(why ? { success: false, errors: [why] } : { success: true, content: {} }));
  });
});
const run = new RunContext('vendorforms', mkdtempSync(join(tmpdir(), 'cf-vendor-')));
let base = '';
const clients: ServiceClient[] = [];
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) await c.close();
  server.close();
});

function client(service: ServiceName, profile: Record<string, unknown> = {}): ServiceClient {
  const c = new ServiceClient(
    {
      service,
      baseUrl: service === 'provider' ? `${base}/provider` : base,
      servicePath: service === 'person' ? '/link-ws/svc' : '/provider-link-ws/svc',
      auth: { scheme: 'bearer', token: 'vendor.forms.token' },
      sources: ['cf_test_a'],
      embedded: false,
    },
    ProfileSchema.parse(profile) as Profile,
    run,
    { timeoutMs: 2000, maxInFlight: 2, retryBudgetMs: 0 },
  );
  clients.push(c);
  return c;
}

const person = () => ({
  identity: {
    sources: [{ name: 'cf_test_a', id: run.newNativeId() }],
    names: [{ firstName: 'Ada', middleName: 'B', lastName: 'Lovelace' }],
    addresses: [{ line1: '1 Main St', latitude: 40.7128, longitude: -74.006 }],
    deathDetails: [{ deathIndicator: false, deathDate: '2020-01-02' }],
  },
});
const last = () => received[received.length - 1]!.content!.identity!;

describe('person requests', () => {
  it('by default carry the seeds’ form, which a deployment built to the vendor’s contract refuses', async () => {
    const r = await client('person').call('postIdentity', person());
    expect(last().addresses[0]).toMatchObject({ latitude: 40.7128, longitude: -74.006 });
    expect(r.success).toBe(false);
  });

  it('with person.coordinates "string" carry strings and are accepted; the check keeps its numbers', async () => {
    const content = person();
    const r = await client('person', { person: { coordinates: 'string' } }).call('postIdentity', content);
    expect(last().addresses[0]).toMatchObject({ latitude: '40.7128', longitude: '-74.006' });
    expect(r.success).toBe(true);
    expect(content.identity.addresses[0]!.latitude).toBe(40.7128);
    expect(r.exchange.request.body).toMatchObject({ content: { identity: { addresses: [{ latitude: '40.7128' }] } } });
  });

  it('with "omit" leave latitude and longitude out; names and death details in the vendor’s members when asked', async () => {
    const profile = { person: { coordinates: 'omit', nameMembers: 'vendor', deathDetails: 'vendor' } };
    await client('person', profile).call('demographicsSearch', { identity: person().identity, maxSearchResults: 5 });
    expect(last().addresses[0]).toEqual({ line1: '1 Main St' });
    expect(last().names[0]).toEqual({ first: 'Ada', middle: 'B', last: 'Lovelace' });
    expect(last().deathDetails[0]).toEqual({ deceased: 'N', dateOfDeath: '2020-01-02' });
    await client('person', { person: { deathDetails: 'omit' } }).call('postIdentity', person());
    expect(last().deathDetails).toBeUndefined();
  });
});

describe('provider searches', () => {
  const search = { identity: { names: [{ first: 'Ada', last: 'Lovelace' }] }, maxSearchResults: 5 };

  it('by default send no source reference, which a deployment built to the vendor’s contract refuses', async () => {
    const r = await client('provider').call('demographicsSearch', search);
    expect(last().sources).toBeUndefined();
    expect(r.success).toBe(false);
  });

  it('with provider.searchIdentitySource carry a test source with a native ID of the run that no record has', async () => {
    const c = client('provider', { provider: { searchIdentitySource: true } });
    expect((await c.call('demographicsSearch', search)).success).toBe(true);
    const [source] = last().sources;
    expect(source.name).toBe('cf_test_a');
    expect(run.ownsNativeId(source.id)).toBe(true);
    expect(run.entries().some((e) => e.kind === 'source' && e.source.id === source.id)).toBe(false);
    expect((await c.call('demographicsQuery', { identity: { names: [{ first: 'Ada' }] } })).success).toBe(true);
    // A post is no search: its own source stays the only one.
    const post = { identity: { sources: [{ name: 'cf_test_a', id: run.newNativeId() }], names: [{ first: 'Ada' }] } };
    await c.call('postIdentity', post);
    expect(last().sources).toEqual(post.identity.sources);
  });
});
