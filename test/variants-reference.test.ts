/**
 * The variant catalogue and its hooks (reference/variants): every entry cites seed sentences that
 * are in the seed it names; names and values are checked with one-line errors; and each variant
 * observably changes the reference the way its entry says, next to the plain reference where the
 * difference is the point. The suite passing each variant is test/faults-detection.test.ts's job.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VARIANT_LIST } from '../reference/variants/catalogue.js';
import { VariantError, VariantSet, parseVariantList, resolveVariant } from '../reference/variants/registry.js';
import { bundleVariants, mergePatches, plannedVariants, profileOf } from '../detection/variants.js';
import { type ReferenceCaller, newSource, referenceWith } from './support/reference-calls.js';

const SEEDS = join(import.meta.dirname, '..', 'specs', 'seeds');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let open: ReferenceCaller[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.stop()));
  open = [];
});
const reference = async (variants: string[] = [], extra: Parameters<typeof referenceWith>[0] = {}) => {
  const c = await referenceWith({ variants, ...extra });
  open.push(c);
  return c;
};

/** An organization identity on a source; `extra` members are added as given. */
const orgIdentity = (
  source: { name: string; id: string },
  name = 'Quillfeather Analytics',
  extra: Record<string, unknown> = {},
) => ({
  organizationNames: [{ legalBusinessName: name }],
  addresses: [{ line1: '12 Harbor Road', city: 'Springfield', postalCode: '62704' }],
  phoneNumbers: [{ number: '7205551234' }],
  ...extra,
  sources: [source],
});
const post = (c: ReferenceCaller, identity: Record<string, unknown>) => c.call('postIdentity', { identity });
const lookup = (c: ReferenceCaller, source: { name: string; id: string }) => c.call('nativeIdQuery', { source });
const window = { startDate: '2000-01-01T00:00:00Z', endDate: '2100-01-01T00:00:00Z' };

describe('variant catalogue', () => {
  it('names are unique and every entry describes itself and cites at least one seed sentence', () => {
    expect(new Set(VARIANT_LIST.map((v) => v.name)).size).toBe(VARIANT_LIST.length);
    for (const v of VARIANT_LIST) {
      expect(v.seeds.length, v.name).toBeGreaterThan(0);
      expect(v.description.length, v.name).toBeGreaterThan(20);
    }
  });

  // The seed documents ship in specs/seeds/ (test/seeds.test.ts holds them equal to the project's copy).
  it('every cited seed sentence is found word for word in the seed it names', () => {
    const text = (file: string) => readFileSync(join(SEEDS, file), 'utf8').replace(/\s+/g, ' ');
    for (const v of VARIANT_LIST) {
      for (const s of v.seeds) {
        // A quote may join table cells with " | " and leave words out with "...": each piece is in the seed.
        for (const piece of s.quote.split(/\s*\|\s*|\s*\.\.\.\s*/).filter(Boolean))
          expect(text(s.file), `${v.name}: "${piece}"`).toContain(piece);
      }
    }
  });

  it('parameter defaults and detection values parse; profile settings make a valid profile', () => {
    for (const v of VARIANT_LIST) {
      if (v.parameter)
        for (const raw of [v.parameter.default, ...(v.parameter.detection ?? [])])
          expect(() => v.parameter!.parse(raw), `${v.name}=${raw}`).not.toThrow();
      expect(() => profileOf(plannedVariants([v.name])), v.name).not.toThrow();
    }
  });

  it('REFERENCE_VARIANTS lists name or name=value, comma separated', () => {
    expect(parseVariantList(' search-lag=250 , pages-from-1,,')).toEqual([
      { name: 'search-lag', value: '250' },
      { name: 'pages-from-1' },
    ]);
    expect(parseVariantList(undefined)).toEqual([]);
    expect(resolveVariant('search-lag').value).toBe(600);
    expect(resolveVariant({ name: 'threshold', value: '0.95' }).value).toBe(0.95);
  });

  it('an unknown name, a bad value, a value where none is taken, a repeat and a conflict each give one line naming the variant', () => {
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(VariantError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(message(() => new VariantSet(['no-such-variant']))).toMatch(
      /^unknown reference variant "no-such-variant" \(known: lenient-validation, /,
    );
    expect(message(() => new VariantSet(['search-lag=soon']))).toBe(
      'reference variant search-lag: expected an integer from 0 to 10000, got "soon" (lag in ms (integer from 0 to 10000))',
    );
    expect(message(() => new VariantSet(['threshold=1.5']))).toMatch(
      /^reference variant threshold: expected a number above 0 up to 1, got "1.5"/,
    );
    expect(message(() => new VariantSet(['link-id-format=hex']))).toMatch(
      /^reference variant link-id-format: expected one of uuid, numeric, urn, got "hex"/,
    );
    expect(message(() => new VariantSet(['pages-from-1=2']))).toBe(
      'reference variant pages-from-1 takes no value, got "2"',
    );
    expect(message(() => new VariantSet(['no-events', 'no-events']))).toBe(
      'reference variant no-events is listed twice',
    );
    expect(message(() => new VariantSet(['status-200', 'status-500']))).toBe(
      'reference variants status-200 and status-500 cannot be on together',
    );
    for (const m of [
      message(() => new VariantSet(['no-such-variant'])),
      message(() => new VariantSet(['search-lag=soon'])),
    ])
      expect(m).not.toContain('\n');
  });

  it('startReference reads REFERENCE_VARIANTS and refuses a bad one before listening', async () => {
    process.env.REFERENCE_VARIANTS = 'pages-from-1';
    try {
      const c = await referenceWith({});
      open.push(c);
      const r = await c.call('searchNotifications', { pageNumber: 0, pageSize: 3, ...window });
      expect(r.status).toBe(400);
      process.env.REFERENCE_VARIANTS = 'pages-from-one';
      await expect(referenceWith({})).rejects.toThrow(
        /Setting REFERENCE_VARIANTS: unknown variant "pages-from-one" \(did you mean pages-from-1\?\)/,
      );
    } finally {
      delete process.env.REFERENCE_VARIANTS;
    }
  });

  it('detection bundles: conflicting variants, two values of one variant and a variant that runs alone never share a reference', () => {
    const bundles = bundleVariants(plannedVariants()).map((b) => b.map((v) => v.active.definition));
    for (const b of bundles) {
      const names = b.map((d) => d.name);
      expect(new Set(names).size, names.join(' + ')).toBe(names.length);
      for (const d of b)
        for (const other of (d.conflicts ?? []).filter((x) => x !== d.name))
          expect(names, `${d.name} with ${other}`).not.toContain(other);
      if (b.some((d) => d.alone)) expect(b.length).toBe(1);
    }
    expect(
      mergePatches([
        { consistencyBudgetMs: 3000, notifications: { firstPage: 1 } },
        { consistencyBudgetMs: 5000, disabledExpectations: ['A'] },
        { disabledExpectations: ['B'] },
      ]),
    ).toEqual({
      consistencyBudgetMs: 5000,
      notifications: { firstPage: 1 },
      disabledExpectations: ['A', 'B'],
    });
    expect(profileOf(plannedVariants(['pages-from-1', 'search-lag=600'])).notifications.firstPage).toBe(1);
    expect(profileOf(plannedVariants(['search-lag=600'])).consistencyBudgetMs).toBeGreaterThan(600);
  });
});

describe('variant hooks change the reference as described', () => {
  it('lenient-validation accepts and stores wrongly typed and unknown members; a missing identity and maxSearchResults 0 are still rejected', async () => {
    const [plain, lenient] = await Promise.all([reference(), reference(['lenient-validation'])]);
    const s = newSource();
    const odd = orgIdentity(s, 'Quillfeather Analytics', { vendorScore: 3, foundedDate: [{ foundedDate: 20200101 }] });
    expect((await post(plain, odd)).status).toBe(400);
    expect((await post(lenient, odd)).body?.success).toBe(true);
    expect(JSON.stringify((await lookup(lenient, s)).body?.content?.identity)).toContain('20200101');
    expect((await lenient.call('postIdentity', {})).status).toBe(400);
    expect((await lenient.call('demographicsSearch', { identity: odd, maxSearchResults: 0 })).status).toBe(400);
    expect(
      (await lenient.call('demographicsSearch', { identity: odd, maxSearchResults: '1' })).body?.content?.searchResults,
    ).toHaveLength(1);
  });

  it('strict-validation rejects unknown members in the content and the envelope, and accepts what the suite sends', async () => {
    const [plain, strict] = await Promise.all([reference(), reference(['strict-validation'])]);
    const s = newSource();
    const sent = { identity: orgIdentity(s), responseIdentityFormatNames: ['DEFAULT'] };
    const withExtra = {
      ...sent,
      identity: { ...sent.identity, organizationNames: [{ legalBusinessName: 'X', nickname: 'Y' }] },
    };
    expect((await plain.call('postIdentity', withExtra)).body?.success).toBe(true);
    const r = await strict.call('postIdentity', withExtra);
    expect(r.status).toBe(400);
    expect(r.body?.errors?.[0]).toContain('content.identity.organizationNames.0');
    expect((await strict.call('postIdentity', sent, { envelope: { auditLogMap: { run: 'x' } } })).body?.success).toBe(
      true,
    );
    expect((await strict.call('nativeIdQuery', { source: s }, { envelope: { debug: true } })).status).toBe(400);
    expect((await strict.call('nativeIdQuery', { source: s })).body?.success).toBe(true);
    expect(
      (await strict.call('demographicsSearch', { identity: sent.identity, matchScoreThreshold: 1.5 })).status,
    ).toBe(400);
    expect((await strict.call('softDeleteSource', { sourceToSoftDelete: s })).body?.success).toBe(true);
    expect((await strict.call('restoreSource', { sourceToRestore: s })).body?.success).toBe(true);
  });

  it('status-200, status-4xx and status-500 carry a validation failure with HTTP 200, 422 and 500, enveloped; authentication stays 401', async () => {
    const bad = { identity: orgIdentity(newSource()), maxSearchResults: 0 };
    const cases: Array<[string[], number]> = [
      [[], 400],
      [['status-200'], 200],
      [['status-4xx'], 422],
      [['status-500'], 500],
    ];
    for (const [variants, status] of cases) {
      const c = await reference(variants);
      const r = await c.call('demographicsSearch', bad);
      expect(r.status, variants.join() || 'plain').toBe(status);
      expect(r.body).toMatchObject({ success: false, retryableError: false, trackingId: 'track-1' });
      expect(r.body?.errors?.length).toBeGreaterThan(0);
      expect((await c.call('nativeIdQuery', { source: newSource() })).status).toBe(
        variants[0] === 'status-200' ? 200 : variants[0] === 'status-500' ? 500 : 404,
      );
      expect((await c.call('nativeIdQuery', { source: newSource() }, { auth: 'basic' })).status).toBe(401);
    }
  });

  it('absent-optional leaves null members out, but keeps postIdentity linkId null (rule 2)', async () => {
    const c = await reference(['absent-optional']);
    const r = await post(c, orgIdentity(newSource()));
    expect(r.body?.content).toHaveProperty('linkId', null);
    expect(r.body?.content).not.toHaveProperty('identity');
    expect(r.body).not.toHaveProperty('unparsedJson');
  });

  it('extra-members adds members to the envelope, content, identities and their objects without touching the stored record', async () => {
    const c = await reference(['extra-members']);
    const s = newSource();
    await post(c, orgIdentity(s));
    const r = await lookup(c, s);
    expect(r.body).toHaveProperty('apiVersion');
    expect(r.body?.content).toHaveProperty('vendorExtensions');
    expect(r.body?.content?.identity).toHaveProperty('vendorAttributes');
    expect(r.body?.content?.identity?.organizationNames?.[0]).toHaveProperty('vendorConfidence', 1);
    expect(JSON.stringify([...c.ref.stores.get('organization')!.records.values()].map((x) => x.data))).not.toContain(
      'vendor',
    );
  });

  it('minimal-replies and no-grouped-by-source leave out members no row marks required', async () => {
    const c = await reference(['minimal-replies', 'no-grouped-by-source']);
    const [a, b] = [newSource(), newSource()];
    await post(c, orgIdentity(a, 'Alder Mill Works'));
    await post(
      c,
      orgIdentity(b, 'Birchwood Tannery', {
        phoneNumbers: [{ number: '3125550000' }],
        addresses: [{ line1: '9 Elm', postalCode: '10001' }],
      }),
    );
    const merge = await c.call('mergeIdentities', { toSurviveSource: a, toRetireSource: b });
    expect(merge.body?.content).toHaveProperty('linkId');
    expect(merge.body?.content).not.toHaveProperty('toSurviveSource');
    const q = await lookup(c, a);
    expect(q.body?.content).toHaveProperty('identity');
    expect(q.body?.content).not.toHaveProperty('identityGroupedBySource');
    expect(q.body?.content).not.toHaveProperty('domains');
  });

  it('link-id-format gives UUIDs, 19-digit numbers or URNs', async () => {
    const forms: Record<string, RegExp> = {
      uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      numeric: /^[1-9]\d{18}$/,
      urn: /^urn:organization:entity:[0-9a-f]{24}$/,
    };
    for (const [format, shape] of Object.entries(forms)) {
      const c = await reference([`link-id-format=${format}`]);
      const s = newSource();
      await post(c, orgIdentity(s));
      expect((await lookup(c, s)).body?.content?.linkId, format).toMatch(shape);
    }
  });

  it('search-lag: a search right after a write sees the old state, one after the lag sees the new, with the primary link IDs; lookups are consistent at once', async () => {
    const c = await reference(['search-lag=400']);
    const s = newSource();
    const identity = orgIdentity(s);
    await post(c, identity);
    const linkId = (await lookup(c, s)).body?.content?.linkId;
    expect(linkId).toEqual(expect.any(String));
    expect((await c.call('demographicsSearch', { identity })).body?.content?.searchResults).toEqual([]);
    expect((await c.call('demographicsQuery', { identity })).body?.content?.linkId ?? null).toBeNull();
    await sleep(500);
    expect(
      (await c.call('demographicsSearch', { identity })).body?.content?.searchResults?.map(
        (r: { linkId: string }) => r.linkId,
      ),
    ).toEqual([linkId]);
    await c.call('softDeleteSource', { sourceToSoftDelete: s });
    expect((await lookup(c, s)).status).toBe(404);
    expect(
      (await c.call('demographicsQuery', { identity })).body?.content?.linkId,
      'the old state stays visible during the lag',
    ).toBe(linkId);
    await sleep(500);
    expect((await c.call('demographicsQuery', { identity })).body?.content?.linkId ?? null).toBeNull();
  });

  it('notification-lag lists a notification only after the lag; clock-skew and datetime-offset change its timestamp', async () => {
    const lag = await reference(['notification-lag=400']);
    const s = newSource();
    await post(lag, orgIdentity(s));
    const page = async (c: ReferenceCaller) =>
      (await c.call('searchNotifications', { pageNumber: 0, pageSize: 50, ...window })).body?.content;
    expect(JSON.stringify((await page(lag)).notifications)).not.toContain(s.id);
    await sleep(500);
    expect(JSON.stringify((await page(lag)).notifications)).toContain(s.id);

    const skewed = await reference(['clock-skew=-60000', 'datetime-offset']);
    const before = Date.now();
    await post(skewed, orgIdentity(newSource()));
    const ts = (await page(skewed)).notifications[0].ts as string;
    expect(ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    expect(Date.parse(ts)).toBeLessThan(before - 55000);
  });

  it('pages-from-1 rejects page 0; page-size-cap serves at most n per page with truthful hasNext and totalElements', async () => {
    const c = await reference(['pages-from-1', 'page-size-cap=2']);
    for (let i = 0; i < 3; i++) await post(c, orgIdentity(newSource(), `Company ${i}`));
    expect((await c.call('searchNotifications', { pageNumber: 0, pageSize: 5, ...window })).status).toBe(400);
    const first = (await c.call('searchNotifications', { pageNumber: 1, pageSize: 5, ...window })).body?.content;
    expect(first).toMatchObject({ hasNext: true, totalElements: 3 });
    expect(first.notifications).toHaveLength(2);
    const second = (await c.call('searchNotifications', { pageNumber: 2, pageSize: 5, ...window })).body?.content;
    expect(second).toMatchObject({ hasNext: false, totalElements: 3 });
    expect(second.notifications).toHaveLength(1);
  });

  it('event-shapes writes events as strings or renamed objects, and notifications with other member names that still name the record', async () => {
    const c = await reference(['event-shapes=strings']);
    const s = newSource();
    const r = await post(c, orgIdentity(s));
    expect(r.body?.content?.events).toEqual([expect.stringContaining(s.id)]);
    const n = (await c.call('searchNotifications', { pageNumber: 0, pageSize: 5, ...window })).body?.content
      ?.notifications[0];
    expect(n).not.toHaveProperty('notificationType');
    expect(JSON.stringify(n)).toContain(s.id);
    const o = await reference(['event-shapes=objects']);
    const e = (await post(o, orgIdentity(newSource()))).body?.content?.events[0];
    expect(e).toMatchObject({ type: 'CREATE', record: { system: 'cf_test_a' } });
    expect(e).not.toHaveProperty('eventType');
  });

  it('threshold moves the link decision: a name-only copy (score 0.85) links at 0.7, a name-and-phone copy (0.94) does not link at 0.95', async () => {
    const nameOnly = (s: { name: string; id: string }) => ({
      organizationNames: [{ legalBusinessName: 'Quillfeather Analytics' }],
      sources: [s],
    });
    const namePhone = (s: { name: string; id: string }) => ({
      ...nameOnly(s),
      phoneNumbers: [{ number: '7205551234' }],
    });
    const linked = async (variants: string[], copy: (s: { name: string; id: string }) => Record<string, unknown>) => {
      const c = await reference(variants);
      await post(c, orgIdentity(newSource()));
      return (await post(c, copy(newSource()))).body?.content?.linkId !== null;
    };
    expect(await linked([], nameOnly)).toBe(false);
    expect(await linked(['threshold=0.7'], nameOnly)).toBe(true);
    expect(await linked([], namePhone)).toBe(true);
    expect(await linked(['threshold=0.95'], namePhone)).toBe(false);
  });

  it('max-results caps searches without maxSearchResults and with a larger one', async () => {
    const [plain, capped] = await Promise.all([reference(), reference(['max-results=2'])]);
    const distinct = ['Alder Mill Works', 'Birchwood Tannery', 'Cedar Point Freight', 'Dogwood Bakery'];
    for (const c of [plain, capped])
      for (const name of distinct) await post(c, orgIdentity(newSource(), name, { addresses: [], phoneNumbers: [] }));
    const probe = { identity: orgIdentity(newSource()), matchScoreThreshold: 0 };
    expect((await plain.call('demographicsSearch', probe)).body?.content?.searchResults.length).toBeGreaterThan(2);
    expect((await capped.call('demographicsSearch', probe)).body?.content?.searchResults).toHaveLength(2);
    expect(
      (await capped.call('demographicsSearch', { ...probe, maxSearchResults: 10 })).body?.content?.searchResults,
    ).toHaveLength(2);
  });

  it('restore variants: restoring an unknown source succeeds with nothing restored; a restored source comes back in a new identity', async () => {
    const [plain, lenient] = await Promise.all([
      reference(),
      reference(['restore-after-delete-succeeds', 'restore-new-identity']),
    ]);
    expect((await plain.call('restoreSource', { sourceToRestore: newSource() })).status).toBe(404);
    expect((await lenient.call('restoreSource', { sourceToRestore: newSource() })).body).toMatchObject({
      success: true,
      content: { linkIdsModified: [], linkIdCreated: null },
    });
    for (const c of [plain, lenient]) {
      const [a, b] = [newSource(), newSource()];
      await post(c, orgIdentity(a));
      await post(c, orgIdentity(b));
      const link = (await lookup(c, a)).body?.content?.linkId;
      expect((await lookup(c, b)).body?.content?.linkId).toBe(link);
      await c.call('softDeleteSource', { sourceToSoftDelete: b });
      const r = await c.call('restoreSource', { sourceToRestore: b });
      const now = (await lookup(c, b)).body?.content?.linkId;
      if (c === plain) expect(now).toBe(link);
      else expect(r.body?.content?.linkIdCreated).toBe(now);
      if (c === lenient) expect(now).not.toBe(link);
    }
  });

  it('soft-deleted-visible answers nativeIdQuery of a soft-deleted organization source with its former link ID', async () => {
    const c = await reference(['soft-deleted-visible']);
    const s = newSource();
    await post(c, orgIdentity(s));
    const link = (await lookup(c, s)).body?.content?.linkId;
    await c.call('softDeleteSource', { sourceToSoftDelete: s });
    expect((await lookup(c, s)).body).toMatchObject({ success: true, content: { linkId: link } });
  });

  it('no-events drops events; relationship-object answers a search with one object', async () => {
    const c = await reference(['no-events', 'relationship-object']);
    const [a, b] = [newSource(), newSource()];
    const r = await post(c, orgIdentity(a));
    expect(r.body?.content).not.toHaveProperty('events');
    await post(c, orgIdentity(b, 'Other Name Ltd', { phoneNumbers: [], addresses: [] }));
    const [la, lb] = [(await lookup(c, a)).body?.content?.linkId, (await lookup(c, b)).body?.content?.linkId];
    await c.call('addRelationshipService', {
      relationship: { relationshipVerb: 'affiliatedWith', subjectServiceId: la, objectServiceId: lb },
    });
    const found = (await c.call('searchRelationshipsService', { relationship: { subjectServiceId: la } })).body?.content
      ?.relationship;
    expect(Array.isArray(found)).toBe(false);
    expect(found).toMatchObject({ subjectServiceId: la, objectServiceId: lb });
  });

  it('member-names, source-in-content, relationship-verbs and person-basic-auth change the names and schemes the deployment takes', async () => {
    const c = await reference([
      'member-names',
      'source-in-content',
      'relationship-verbs=PARENT_OF',
      'person-basic-auth',
    ]);
    const s = newSource();
    expect((await post(c, orgIdentity(s))).status, 'identity.sources alone names no source here').toBe(400);
    const { sources: _s, ...identity } = orgIdentity(s);
    expect((await c.call('postIdentity', { identity, source: s })).body?.success).toBe(true);
    await c.call('softDeleteSource', { sourceToSoftDelete: s });
    expect((await c.call('restoreSource', { sourceToRestore: s })).status).toBe(400);
    expect((await c.call('restoreSource', { source: s })).body?.success).toBe(true);
    const link = (await lookup(c, s)).body?.content?.linkId;
    const rel = (verb: string) =>
      c.call('addRelationshipService', {
        relationship: { relationshipVerb: verb, subjectServiceId: link, objectServiceId: link },
      });
    expect((await rel('affiliatedWith')).status).toBe(400);
    expect((await rel('PARENT_OF')).body?.success).toBe(true);
    const q = { source: newSource() };
    expect((await c.call('nativeIdQuery', q, { service: 'person', auth: 'bearer' })).status).toBe(401);
    expect((await c.call('nativeIdQuery', q, { service: 'person', auth: 'basic' })).status).toBe(404);
    const p = newSource();
    await c.call(
      'postIdentity',
      { identity: { names: [{ firstName: 'Ada', lastName: 'Quill' }] }, source: p },
      { service: 'person', auth: 'basic' },
    );
    const personLink = (await c.call('nativeIdQuery', { source: p }, { service: 'person', auth: 'basic' })).body
      ?.content?.linkId;
    const added = await c.call(
      'addRelationshipService',
      { relationship: { relationshipVerb: 'PARENT_OF', subjectLinkId: personLink, objectLinkId: personLink } },
      { service: 'person', auth: 'basic' },
    );
    expect(added.body?.content?.relationship).toMatchObject({ subjectLinkId: personLink, objectLinkId: personLink });
    expect(added.body?.content?.relationship).not.toHaveProperty('subjectVeratoId');
  });

  it('latency delays every request (variant and REFERENCE_LATENCY_MS setting); transient=1 fails every request without changing state', async () => {
    const slow = await reference(['latency=150']);
    expect((await slow.call('nativeIdQuery', { source: newSource() })).ms).toBeGreaterThanOrEqual(150);
    const setting = await reference([], { latencyMs: 120, jitterMs: 0 });
    expect((await setting.call('nativeIdQuery', { source: newSource() })).ms).toBeGreaterThanOrEqual(120);
    // The time spent answering counts the latency of each request, per service (bench:latency's floor).
    await setting.call('nativeIdQuery', { source: newSource() });
    const answering = setting.ref.answeringMs();
    expect(answering.organization).toBeGreaterThanOrEqual(2 * 120);
    expect(answering.person).toBe(0);
    await expect(referenceWith({ latencyMs: -1 })).rejects.toThrow(
      'startReference option latencyMs: expected an integer number of ms from 0 to 60000, got -1',
    );

    const flaky = await reference(['transient=1']);
    const seen = new Set<string>();
    for (let i = 0; i < 48; i++) {
      const r = await post(flaky, orgIdentity(newSource()));
      seen.add(r.error ? 'reset' : r.status === 503 ? 'http-503' : `retryable-${r.status}`);
      if (!r.error && r.status !== 503) expect(r.body).toMatchObject({ success: false, retryableError: true });
    }
    // transient fails only in ways that say "not processed"; transient-reset loses the connection.
    expect([...seen].sort()).toEqual(['http-503', 'retryable-200', 'retryable-500']);
    expect(flaky.ref.stores.get('organization')!.records.size).toBe(0);
    // Failed attempts count among the requests received (bench:latency's N is the deployment's count).
    expect(flaky.ref.requestsReceived()).toEqual({ organization: 48, person: 0, provider: 0 });
    const resets = await reference(['transient-reset=1']);
    for (let i = 0; i < 3; i++) expect((await post(resets, orgIdentity(newSource()))).error).toBeDefined();
    expect(resets.ref.stores.get('organization')!.records.size).toBe(0);
    const steady = await reference(['transient=0']);
    expect((await post(steady, orgIdentity(newSource()))).body?.success).toBe(true);
  });

  it('slow-tail=1/300 answers every request 300 ms (up to 450 ms) later; restarts answer HTTP 503 without Retry-After and change nothing; the reference stays up', async () => {
    const slow = await reference(['slow-tail=1/300']);
    const r = await post(slow, orgIdentity(newSource()));
    expect(r.body?.success).toBe(true);
    expect(r.ms).toBeGreaterThanOrEqual(290);
    // The shortest outage every 1 s on average: within a few seconds of requests one is met.
    const down = await reference(['restarts=0.5/1']);
    const replies: Awaited<ReturnType<typeof post>>[] = [];
    for (let i = 0; i < 40 && !replies.some((x) => x.status === 503); i++) {
      replies.push(await post(down, orgIdentity(newSource())));
      await sleep(100);
    }
    const refused = replies.filter((x) => x.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.headers?.['retry-after']).toBeUndefined();
    expect(down.ref.stores.get('organization')!.records.size).toBe(
      replies.filter((x) => x.body?.success === true).length,
    );
  });

  it("busy=20 writes records of a source that is not a test source while requests come, each with its notification; the run's own posts are untouched", async () => {
    const c = await reference(['busy=20']);
    const own = newSource();
    expect((await post(c, orgIdentity(own))).body?.success).toBe(true);
    for (let i = 0; i < 12; i++) {
      await lookup(c, own);
      await sleep(100);
    }
    const store = c.ref.stores.get('organization')!;
    const theirs = [...store.records.values()].filter((r) => r.source.name === 'partner_crm');
    expect(theirs.length).toBeGreaterThan(5);
    const feed = await c.call('searchNotifications', { pageNumber: 0, pageSize: 100, ...window });
    expect(feed.body?.content?.totalElements).toBeGreaterThan(theirs.length);
    const mine = await lookup(c, own);
    expect(mine.body?.content?.identityGroupedBySource.map((g: { source: { name: string } }) => g.source.name)).toEqual(
      [own.name],
    );
  });

  it('throttled=N lets N requests per second per service through and answers the others 429 with Retry-After: 1 (throttled-bare: without it), changing nothing', async () => {
    const gate = await reference(['throttled=3']);
    const replies = await Promise.all(Array.from({ length: 5 }, () => post(gate, orgIdentity(newSource()))));
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r.headers?.['retry-after']).toBe('1');
    expect(gate.ref.stores.get('organization')!.records.size).toBe(3);
    // Counted per service: the person service still has its own 3.
    expect((await gate.call('nativeIdQuery', { source: newSource() }, { service: 'person' })).status).not.toBe(429);
    const bare = await reference(['throttled-bare=1']);
    const two = await Promise.all([post(bare, orgIdentity(newSource())), post(bare, orgIdentity(newSource()))]);
    const over = two.find((r) => r.status === 429);
    expect(over).toBeDefined();
    expect(over!.headers?.['retry-after']).toBeUndefined();
  });
});
