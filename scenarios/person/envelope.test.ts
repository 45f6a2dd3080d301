/**
 * Envelope promises, per operation: the reply is a JSON reply envelope at the documented path
 * (the first five with /v2), echoes trackingId and auditId, and its content has the documented
 * shape; the failure envelope; customerId; includeEnrichData's default; the DEFAULT view; the
 * types of a returned identity and the source entries on its attributes.
 * Source: person-provider-identity-api.md, Resources (Envelope, Source entry, Person identity,
 * Person request content options), Endpoints, Errors, Versioning.
 */
import { REQUEST_REFUSED, WIRE_FORM, requestRefused } from '../../specs/clauses/contract.js';
import {
  CUSTOMERID_REFUSED,
  ENRICH_DEFAULT_DIFFERS,
  ENRICH_NOT_ASKED,
  ENRICH_TRUE_REFUSED,
  customerIdRefused,
  enrichDefaultDiffers,
  enrichNotAsked,
  enrichTrueRefused,
} from '../../specs/clauses/envelope.js';
import {
  ATTRIBUTE_NOT_ATTRIBUTED,
  ATTRIBUTE_WITHOUT_SOURCES,
  attributeNotAttributed,
  attributeWithoutSources,
} from '../../specs/clauses/person.js';
import { isEmailAddress, wrongWireForm } from '../../specs/clauses/types.js';
import { leafTypes, valuesAt, wireTypeSchema } from '../../specs/common/leaf-types.js';
import { PersonIdentity } from '../../specs/person/identity.js';
import { personOperations } from '../../specs/person/operations.js';
import { answerOf } from '../../harness/reply.js';
import { envelopeChecks } from '../shared/rules/envelope.js';
import { area, person } from './person.js';

const { check } = area('envelope');

envelopeChecks({
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
  // The suite's own request, not the deployment, is at fault when it lacks customerId.
  if ((r.exchange.request.body as { customerId?: unknown })?.customerId !== t.target.customerId)
    throw new Error('the request envelope the suite sent does not carry customerId (a bug of the suite)');
  t.judge(CUSTOMERID_REFUSED, 'PERSON-ENV-CUSTOMERID', customerIdRefused(answerOf(r), r.content?.linkId, a.linkId), r);
});

check('includeEnrichData defaults to false and true is accepted', ['PERSON-ENRICH-DEFAULT'], async (t) => {
  const a = await person.postNew(t, ['PERSON-ENRICH-DEFAULT']);
  const q = (extra: Record<string, unknown>) =>
    t.call('nativeIdQuery', { source: { name: a.source.name, id: a.source.id }, ...extra });
  const [omitted, off, on, best] = await Promise.all([
    q({}),
    q({ includeEnrichData: false }),
    q({ includeEnrichData: true }),
    t.call('demographicsQuery', { identity: a.identity }),
  ]);
  for (const r of [omitted, off])
    t.judge(REQUEST_REFUSED, 'PERSON-ENRICH-DEFAULT', requestRefused('nativeIdQuery', answerOf(r)), r);
  // postIdentity and demographicsQuery list includeEnrichData among their request members and enrichedDetails among
  // their reply members (Endpoints, Person service; Resources, Person reply content members); neither request asked.
  t.judge(ENRICH_NOT_ASKED, 'PERSON-ENRICH-DEFAULT', enrichNotAsked('postIdentity', a.reply.content), a.reply);
  t.judge(ENRICH_NOT_ASKED, 'PERSON-ENRICH-DEFAULT', enrichNotAsked('demographicsQuery', best.content), best);
  t.judge(ENRICH_DEFAULT_DIFFERS, 'PERSON-ENRICH-DEFAULT', enrichDefaultDiffers(omitted.content, off.content), omitted);
  t.judge(
    ENRICH_TRUE_REFUSED,
    'PERSON-ENRICH-DEFAULT',
    enrichTrueRefused(answerOf(on), on.content?.linkId, a.linkId),
    on,
  );
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
    values: (i: unknown) =>
      LEAVES.filter((l) => l.type === 'TEXT').flatMap((l) => valuesAt(i, l.path, '/content/identity')),
    ok: (v: unknown) => typeof v === 'string',
  },
  {
    req: 'PERSON-TYPE-DATE',
    what: 'dates',
    values: (i: unknown) =>
      LEAVES.filter((l) => l.type === 'DATE').flatMap((l) => valuesAt(i, l.path, '/content/identity')),
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
    ok: isEmailAddress,
  },
];

for (const k of kinds) {
  check(`${k.what} of a returned identity have their documented type`, [k.req], async (t) => {
    const a = await person.postNew(t, [k.req]);
    const reply = await person.lookup(t, a.source, t.profile.responseViews);
    const values = k.values(reply.content?.identity);
    if (!values.length) t.skip(`the returned identity holds no ${k.what} to check`);
    t.judge(WIRE_FORM, k.req, wrongWireForm(values, k.ok, `of the documented type (${k.what})`), reply);
  });
}

/** The person identity's attribute arrays (Resources, Person identity): every object in them carries sources[] and clusterStatus. */
const ATTRIBUTE_KINDS = [
  'names',
  'addresses',
  'datesOfBirth',
  'ssns',
  'genders',
  'phoneNumbers',
  'emails',
  'deathDetails',
] as const;

check(
  'every attribute object of a returned identity carries sources[] naming the posted record, and clusterStatus',
  ['PERSON-ATTR-SOURCES'],
  async (t) => {
    const a = await person.postNew(t, ['PERSON-ATTR-SOURCES']);
    const reply = await person.lookup(t, a.source);
    const identity = (reply.content?.identity ?? {}) as Record<string, unknown>;
    const attributes = ATTRIBUTE_KINDS.flatMap((kind) =>
      (Array.isArray(identity[kind]) ? (identity[kind] as Array<Record<string, any>>) : []).map((o, i) => ({
        at: `${kind}[${i}]`,
        kind,
        o,
      })),
    );
    if (!attributes.length) t.skip('the returned identity holds no attribute object to check');
    t.judge(ATTRIBUTE_WITHOUT_SOURCES, 'PERSON-ATTR-SOURCES', attributeWithoutSources(attributes), reply);
    // Each kind the check posted has an object attributed to the posted record (others may come from records the deployment matched),
    // where the kind's source entries name native IDs at all (the entry's members are not marked required).
    const posted = ATTRIBUTE_KINDS.filter(
      (kind) => Array.isArray(a.identity[kind]) && (a.identity[kind] as unknown[]).length,
    );
    t.judge(
      ATTRIBUTE_NOT_ATTRIBUTED,
      'PERSON-ATTR-SOURCES',
      attributeNotAttributed(posted, attributes, a.source.id),
      reply,
    );
  },
);
