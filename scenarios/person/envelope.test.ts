/**
 * Envelope promises, per operation: the reply is a JSON reply envelope at the documented path
 * (the first five with /v2), echoes trackingId and auditId, and its content has the documented
 * shape; the failure envelope; customerId; includeEnrichData's default; the DEFAULT view; the
 * types of a returned identity and the source entries on its attributes.
 * Source: person-provider-identity-api.md, Resources (Envelope, Source entry, Person identity,
 * Person request content options), Endpoints, Errors, Versioning.
 */
import { expect } from 'vitest';
import { leafTypes, valuesAt, wireTypeSchema } from '../../specs/common/leaf-types.js';
import { PersonIdentity } from '../../specs/person/identity.js';
import { personOperations } from '../../specs/person/operations.js';
import { describeReply } from '../../harness/check.js';
import { envelopeChecks } from '../shared/rules/envelope.js';
import { area, person } from './person.js';

const { check } = area('envelope');

envelopeChecks({
  verifies: ['PERSON-ENDPOINT-PATHS', 'PERSON-ENV-ECHO', 'PERSON-ENV-REPLY', 'PERSON-ERR-CARRIED', 'PERSON-VIEWS-DEFAULT'],
  check,
  kit: person,
  operations: personOperations,
  optionsFor: (op) => ({ createsDataSources: op.name === 'createDataSource' }),
  mayFindNothing: ['householdQuery'],
});

check("a request carrying the deployment's customerId is accepted", ['PERSON-ENV-CUSTOMERID'], async (t) => {
  if (!t.target.customerId) t.omit('PERSON_CUSTOMER_ID is not set for this deployment');
  const a = await person.postNew(t, ['PERSON-ENV-CUSTOMERID']);
  const r = await t.call(
    'nativeIdQuery',
    { source: { name: a.source.name, id: a.source.id } },
    { envelope: { customerId: t.target.customerId } },
  );
  await t.rule('PERSON-ENV-CUSTOMERID', () => {
    expect(r.exchange.request.body, 'the request envelope carries customerId').toMatchObject({ customerId: t.target.customerId });
    expect(r.success, `accepted with customerId: ${describeReply(r)}`).toBe(true);
    expect(r.content?.linkId, 'and answered').toBe(a.linkId);
  });
});

check('includeEnrichData defaults to false and true is accepted', ['PERSON-ENRICH-DEFAULT'], async (t) => {
  const a = await person.postNew(t, ['PERSON-ENRICH-DEFAULT']);
  const q = (extra: Record<string, unknown>) => t.ok('nativeIdQuery', { source: { name: a.source.name, id: a.source.id }, ...extra });
  const [omitted, off, on] = await Promise.all([q({}), q({ includeEnrichData: false }), q({ includeEnrichData: true })]);
  await t.rule('PERSON-ENRICH-DEFAULT', () => {
    expect(omitted.content?.identity ?? null, 'identity without the option equals identity with false').toEqual(
      off.content?.identity ?? null,
    );
    expect(omitted.content?.enrichedDetails ?? null, 'enrichedDetails without the option equals enrichedDetails with false').toEqual(
      off.content?.enrichedDetails ?? null,
    );
    expect(on.content?.linkId, 'includeEnrichData=true is accepted and answered').toBe(a.linkId);
  });
});

const LEAVES = leafTypes(PersonIdentity);
const NUMBER_PATHS = [
  ['addresses', '[]', 'latitude'],
  ['addresses', '[]', 'longitude'],
];
const kinds = [
  {
    req: 'PERSON-TYPE-TEXT',
    what: 'string fields',
    values: (i: unknown) => LEAVES.filter((l) => l.type === 'TEXT').flatMap((l) => valuesAt(i, l.path, '/content/identity')),
    ok: (v: unknown) => typeof v === 'string',
  },
  {
    req: 'PERSON-TYPE-DATE',
    what: 'dates',
    values: (i: unknown) => LEAVES.filter((l) => l.type === 'DATE').flatMap((l) => valuesAt(i, l.path, '/content/identity')),
    ok: (v: unknown) => wireTypeSchema.DATE.safeParse(v).success,
  },
  {
    req: 'PERSON-TYPE-BOOLEAN',
    what: 'deathIndicator',
    values: (i: unknown) => valuesAt(i, ['deathDetails', '[]', 'deathIndicator'], '/content/identity'),
    ok: (v: unknown) => typeof v === 'boolean',
  },
  {
    req: 'PERSON-TYPE-NUMBER',
    what: 'latitude and longitude',
    values: (i: unknown) => NUMBER_PATHS.flatMap((p) => valuesAt(i, p, '/content/identity')),
    ok: (v: unknown) => typeof v === 'number',
  },
  {
    req: 'PERSON-TYPE-EMAIL',
    what: 'e-mail addresses',
    values: (i: unknown) => valuesAt(i, ['emails', '[]', 'email'], '/content/identity'),
    ok: (v: unknown) => typeof v === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  },
];

for (const k of kinds) {
  check(`${k.what} of a returned identity have their documented type`, [k.req], async (t) => {
    const a = await person.postNew(t, [k.req]);
    const reply = await person.lookup(t, a.source, t.profile.responseViews);
    const values = k.values(reply.content?.identity);
    if (!values.length) t.skip(`the returned identity holds no ${k.what} to check`);
    const bad = values.filter((v) => v.value !== null && !k.ok(v.value));
    await t.rule(k.req, () =>
      expect(
        bad.map((b) => `${b.pointer}=${JSON.stringify(b.value)}`),
        `${k.what} of the documented type`,
      ).toEqual([]),
    );
  });
}

/** The person identity's attribute arrays (Resources, Person identity): every object in them carries sources[] and clusterStatus. */
const ATTRIBUTE_KINDS = ['names', 'addresses', 'datesOfBirth', 'ssns', 'genders', 'phoneNumbers', 'emails', 'deathDetails'] as const;

check(
  'every attribute object of a returned identity carries sources[] naming the posted record, and clusterStatus',
  ['PERSON-ATTR-SOURCES'],
  async (t) => {
    const a = await person.postNew(t, ['PERSON-ATTR-SOURCES']);
    const reply = await person.lookup(t, a.source);
    const identity = (reply.content?.identity ?? {}) as Record<string, unknown>;
    const attributes = ATTRIBUTE_KINDS.flatMap((kind) =>
      (Array.isArray(identity[kind]) ? (identity[kind] as Array<Record<string, any>>) : []).map((o, i) => ({ at: `${kind}[${i}]`, o })),
    );
    await t.rule('PERSON-ATTR-SOURCES', () => {
      expect(attributes.length, 'the returned identity has attribute objects').toBeGreaterThan(0);
      const missing = attributes.filter(({ o }) => !Array.isArray(o?.sources) || typeof o?.clusterStatus !== 'string').map(({ at }) => at);
      expect(missing, 'attribute objects without sources[] or clusterStatus').toEqual([]);
      // Each kind the check posted has an object attributed to the posted record (others may come from records the deployment matched).
      const posted = ATTRIBUTE_KINDS.filter((kind) => Array.isArray(a.identity[kind]) && (a.identity[kind] as unknown[]).length);
      const unattributed = posted.filter(
        (kind) =>
          !attributes.some(
            ({ at, o }) => at.startsWith(`${kind}[`) && o.sources.some((s: { nativeId?: string }) => s?.nativeId === a.source.id),
          ),
      );
      expect(unattributed, `posted attribute kinds with no object whose sources name native ID ${a.source.id}`).toEqual([]);
    });
  },
);
