/**
 * The data-safety guard: a mutating request that names a source, link ID or relationship the run
 * did not create is refused before anything is sent; redaction keeps secrets out of exchanges.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../harness/client.js';
import { GuardRefusal } from '../harness/guard.js';
import { FOREIGN_NOTE } from '../harness/redact-foreign.js';
import type { Exchange } from '../harness/reply.js';
import { readOwnership } from '../harness/ownership.js';
import { loadProfile } from '../harness/profile.js';
import { redactHeaders, redactJson, registerSecret } from '../harness/redact.js';
import { RunContext } from '../harness/run.js';
import { SERVICES } from '../specs/services.js';

let requests = 0;
const DEFAULT_REPLY = JSON.stringify({ success: true, content: { relationship: { id: 'REL1' }, linkId: 'L1' } });
/** The text the server answers with (a test may set another and put the default back). */
let replyText = DEFAULT_REPLY;
const server = createServer((req, res) => {
  requests++;
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(replyText));
});
let client: ServiceClient;
let run: RunContext;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  run = new RunContext('guardtest', mkdtempSync(join(tmpdir(), 'cf-guard-')));
  client = new ServiceClient(
    {
      service: 'organization',
      baseUrl: `http://127.0.0.1:${port}`,
      servicePath: '/svc',
      auth: { scheme: 'bearer', token: 'aaaa.bbbb.cccc-distinct-token' },
      sources: ['cf_test_a'],
      embedded: false,
    },
    loadProfile(),
    run,
    { timeoutMs: 2000, maxInFlight: 2 },
  );
});
afterAll(async () => {
  await client.close();
  server.close();
});

const foreign = { name: 'cf_test_a', id: 'someone-elses-record' };
const foreignSourceName = { name: 'production_crm', id: 'cf-guardtest-x' };

describe('guard', () => {
  const ops = SERVICES.organization.operations.filter((o) => o.mutates);
  const requestNaming = (op: string, s: object): Record<string, unknown> =>
    ({
      postIdentity: { identity: { sources: [s] } },
      deleteSourceIdentity: { source: s },
      softDeleteSource: { sourceToSoftDelete: s },
      restoreSource: { sourceToRestore: s },
      mergeIdentities: { toSurviveSource: { name: 'cf_test_a', id: run.newNativeId() }, toRetireSource: s },
      unmergeIdentities: { unmergeFromSource: s, unmergeSource: { name: 'cf_test_a', id: run.newNativeId() } },
      linkIdentities: { linkToSource: s, source: { name: 'cf_test_a', id: run.newNativeId() } },
      unlinkIdentities: { unlinkFromSource: s, source: { name: 'cf_test_a', id: run.newNativeId() } },
      addRelationshipService: {
        relationship: { relationshipVerb: 'x', subjectServiceId: 'FOREIGN-LINK', objectServiceId: 'FOREIGN-LINK-2' },
      },
      deleteRelationshipService: { id: 'FOREIGN-REL' },
    })[op]!;

  it.each(ops.map((o) => o.name))(
    '%s naming something the run did not create is refused and nothing is sent',
    async (name) => {
      for (const s of [foreign, foreignSourceName]) {
        const before = requests;
        await expect(client.call(name, requestNaming(name, s))).rejects.toBeInstanceOf(GuardRefusal);
        expect(requests).toBe(before);
      }
    },
  );

  it('allows run-owned sources, records them in the ledger before sending, and learns owned link IDs and relationships', async () => {
    const mine = { name: 'cf_test_a', id: run.newNativeId() };
    await client.call('postIdentity', { identity: { sources: [mine] } });
    expect(run.entries().some((e) => e.kind === 'source' && e.source.id === mine.id)).toBe(true);
    await client.call('addRelationshipService', {
      relationship: { relationshipVerb: 'x', subjectServiceId: 'L1', objectServiceId: 'L1' },
    });
    await expect(client.call('deleteRelationshipService', { id: 'REL1' })).resolves.toBeDefined();
    // What the guard adopted is the run's ownership record: the evidence bundle's scan judges by it.
    expect(readOwnership(run.folder).organization).toEqual({ linkId: ['L1'], relationship: ['REL1'], dataSource: [] });
  });

  // The busy-staging bundle (test/evidence-bundle.test.ts) met it: a walk's post matched nothing (linkId null, rule 2),
  // and a search of another check met the record before the walk queried its source.
  it('a posted record that matched nothing is the run’s from its reply’s events: a search meeting it is kept', async () => {
    const mine = { name: 'cf_test_a', id: run.newNativeId() };
    const theirs = { name: 'partner_crm', id: 'PCRM-1' };
    const posted = (events: unknown[]) => JSON.stringify({ success: true, content: { linkId: null, events } });
    const found = (linkId: string) =>
      JSON.stringify({
        success: true,
        content: { searchResults: [{ linkId, identity: { names: [{ lastName: 'Ownrecord' }], sources: [mine] } }] },
      });
    try {
      replyText = posted([
        { eventType: 'CREATE', linkId: 'L-posted', source: mine },
        { eventType: 'MATCH', linkId: 'L-theirs', source: theirs },
      ]);
      await client.call('postIdentity', { identity: { sources: [mine] } });
      let seen: Exchange | undefined;
      replyText = found('L-posted');
      await client.call('demographicsSearch', { identity: {} }, { record: (e) => (seen = e) });
      expect(JSON.stringify(seen?.reply)).toContain('Ownrecord');
      expect(JSON.stringify(seen?.reply)).not.toContain(FOREIGN_NOTE);
      // An event naming another source gives nothing: that identity stays foreign.
      replyText = found('L-theirs');
      await client.call('demographicsSearch', { identity: {} }, { record: (e) => (seen = e) });
      expect(JSON.stringify(seen?.reply)).toContain(FOREIGN_NOTE);
      const owned = readOwnership(run.folder).organization?.linkId ?? [];
      expect(owned).toContain('L-posted');
      expect(owned).not.toContain('L-theirs');
    } finally {
      replyText = DEFAULT_REPLY;
    }
  });

  it('the identities an unmerge, unlink, merge, link or restore of the run’s sources leaves are the run’s', async () => {
    const mine = () => ({ name: 'cf_test_a', id: run.newNativeId() });
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      [
        'unmergeIdentities',
        { unmergeFromSource: mine(), unmergeSource: mine() },
        { unmergedId: 'L-um', unmergedFromId: 'L-umf' },
      ],
      [
        'unlinkIdentities',
        { unlinkFromSource: mine(), source: mine() },
        { unlinkedId: 'L-ul', unlinkedFromId: 'L-ulf' },
      ],
      ['mergeIdentities', { toSurviveSource: mine(), toRetireSource: mine() }, { linkId: 'L-mg' }],
      ['linkIdentities', { linkToSource: mine(), source: mine() }, { linkId: 'L-lk' }],
      ['restoreSource', { sourceToRestore: mine() }, { linkIdsModified: [], linkIdCreated: 'L-rs' }],
    ];
    try {
      for (const [name, content, reply] of cases) {
        replyText = JSON.stringify({ success: true, content: reply });
        await client.call(name as 'mergeIdentities', content);
      }
      expect(readOwnership(run.folder).organization?.linkId).toEqual(
        expect.arrayContaining(['L-um', 'L-umf', 'L-ul', 'L-ulf', 'L-mg', 'L-lk', 'L-rs']),
      );
    } finally {
      replyText = DEFAULT_REPLY;
    }
  });

  it('read-only operations are never refused', async () => {
    await expect(client.call('nativeIdQuery', { source: foreign })).resolves.toBeDefined();
  });
});

describe('redaction', () => {
  it('exchange records never carry the token', async () => {
    let seen = '';
    await client.call('nativeIdQuery', { source: foreign }, { record: (e) => (seen = JSON.stringify(e)) });
    expect(seen).not.toContain('distinct-token');
    expect(seen).toContain('Bearer [REDACTED]');
  });

  // Each way a secret can stand in a reply must be masked in its exchange, also inside content
  // redaction by ownership keeps (the reply is the run's).
  it.each([
    [
      'the token in a string',
      `{"success":true,"content":{"note":"echo aaaa.bbbb.cccc-distinct-token"}}`,
      'distinct-token',
    ],
    ['a secret-named member', `{"success":true,"content":{"Password":"plain-value-17"}}`, 'plain-value-17'],
    [
      'the token with an escaped letter',
      `{"success":true,"content":{"note":"aaaa.bbbb.cccc-\\u0064istinct-token"}}`,
      'distinct-token',
    ],
    [
      'a secret-named member spelt with an escape',
      `{"success":true,"content":{"pass\\u0077ord":"plain-value-18"}}`,
      'plain-value-18',
    ],
  ])('a reply echoing %s keeps it out of the exchange', async (_, text, secret) => {
    replyText = text;
    try {
      let seen = '';
      const reply = await client.call(
        'nativeIdQuery',
        { source: foreign },
        { record: (e) => (seen = JSON.stringify(e.reply)) },
      );
      expect(JSON.stringify(reply.body)).toContain(secret.slice(-6)); // the check sees the reply as it came
      expect(seen).not.toContain(secret);
      expect(seen).toContain('[REDACTED]');
    } finally {
      replyText = DEFAULT_REPLY;
    }
  });

  it('an exchange read after the run adopted its link ID is redacted by what the run owned when it arrived', async () => {
    let early: Exchange | undefined;
    try {
      replyText = JSON.stringify({
        success: true,
        content: { linkId: 'L-later', identity: { names: [{ lastName: 'Quackenbush' }] } },
      });
      const reply = await client.call('identityIdQuery', { linkId: 'L-later' }, { record: (e) => (early = e) });
      expect(JSON.stringify(reply.body)).toContain('Quackenbush');
      // A post of the run's own source answered with that link ID: from now on the run owns it.
      replyText = JSON.stringify({ success: true, content: { linkId: 'L-later', events: [] } });
      await client.call('postIdentity', { identity: { sources: [{ name: 'cf_test_a', id: run.newNativeId() }] } });
      replyText = JSON.stringify({
        success: true,
        content: { linkId: 'L-later', identity: { names: [{ lastName: 'Ownrecord' }] } },
      });
      let late: Exchange | undefined;
      await client.call('identityIdQuery', { linkId: 'L-later' }, { record: (e) => (late = e) });
      expect(JSON.stringify(late?.reply)).toContain('Ownrecord');
      expect(JSON.stringify(early?.reply)).not.toContain('Quackenbush');
      expect(JSON.stringify(early?.reply)).toContain(FOREIGN_NOTE);
    } finally {
      replyText = DEFAULT_REPLY;
    }
  });

  it('an exchange shows the request as sent, secrets masked, whatever the caller does with its content afterwards', async () => {
    let sent: Exchange | undefined;
    const content = { linkId: 'L-as-sent', note: 'aaaa.bbbb.cccc-distinct-token' };
    await client.call('identityIdQuery', content, { record: (e) => (sent = e) });
    content.linkId = 'L-changed-later';
    const shown = JSON.stringify(sent?.request);
    expect(shown).toContain('L-as-sent');
    expect(shown).not.toContain('L-changed-later');
    expect(shown).not.toContain('distinct-token');
  });

  it('masks secret headers, secret-named members and registered secret values anywhere', () => {
    registerSecret('hunter2-password');
    expect(redactHeaders({ Authorization: 'Basic abc', 'x-other': 'has hunter2-password inside' })).toEqual({
      Authorization: 'Basic [REDACTED]',
      'x-other': 'has [REDACTED] inside',
    });
    expect(redactJson({ password: 'x', nested: [{ token: 'y', note: 'hunter2-password' }] })).toEqual({
      password: '[REDACTED]',
      nested: [{ token: '[REDACTED]', note: '[REDACTED]' }],
    });
  });
});
