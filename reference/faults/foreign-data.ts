/**
 * Foreign data for the safety self-tests: identities of a source that is not a test source (as on a shared staging
 * deployment), in every service the reference serves, some merged and linked, with a relationship, and other people's
 * activity in the notification feed while the run goes on. Loaded with `startReference({ foreignData: true })` or
 * REFERENCE_FOREIGN_DATA=1.
 *
 * Every identifying value is a distinctive marker (FOREIGN_MARKERS: names, SSNs, e-mail addresses, native IDs, EINs,
 * NPIs) that must never reach a report, a log or the console. `foreignDigest` is a digest of a store's foreign state
 * (records, identities, relationships), so a test can prove a run left them exactly as they were.
 */
import { createHash } from 'node:crypto';
import type { ServiceName } from '../../specs/common/model.js';
import { keyOf, type ServiceStore, type SourceRecord } from '../store.js';

export const FOREIGN_SOURCE = 'staging_crm';

/** Organization names of the foreign organization identities (kept for older tests). */
export const FOREIGN_NAMES = [
  'Quillfeather Orchard Holdings',
  'Brambleworth Tidal Logistics',
  'Ossington Vale Cooperative',
  'Marrowgate Lantern Works',
];

const ORG_EINS = ['91-7364052', '91-7364053', '91-7364054', '91-7364055'];
// Invented names (no generator of the suite produces them), so a hit is always a leak.
const PERSON_NAMES = [
  ['Zephyrinx', 'Quxwellby'],
  ['Thaddeox', 'Vexleyworth'],
  ['Ottolinex', 'Pembrothwick'],
  ['Barnabyx', 'Cholmondelyx'],
];
const PERSON_SSNS = ['431-62-7781', '431-62-7782', '431-62-7783', '431-62-7784'];
const PROVIDER_NAMES = [
  ['Ignatiox', 'Fairweatherbyx'],
  ['Perpetuax', 'Goldthwaitex'],
];
const FACILITY_NAMES = ['Wimbleshaw Convalescent Priory', 'Thistlecombe Infirmary Trust'];
const PROVIDER_NPIS = ['1730264019', '1730264027', '1730264035', '1730264043'];
const PROVIDER_EINS = ['91-7364062', '91-7364063'];

/** The foreign native ID of record i of a service. */
export const foreignNativeId = (service: ServiceName, i: number) =>
  `FXN-${service.slice(0, 3).toUpperCase()}-77${31 + i}`;
const email = (service: ServiceName, i: number) => `fx-${service}-${i}@foreign-marker.example.net`;

function organization(i: number): Record<string, unknown> {
  return {
    organizationNames: [
      {
        legalBusinessName: FOREIGN_NAMES[i],
        tradingName: `${FOREIGN_NAMES[i]} Trading`,
        otherOrgName: ORDINARY.organization,
      },
    ],
    addresses: [{ line1: `${100 + i} Hidden Lane`, city: 'Privacyville', postalCode: `9${i}001`, country: 'US' }],
    phoneNumbers: [{ number: `555010${i}`, type: 'WORK' }],
    emails: [{ email: email('organization', i), type: 'work' }],
    employerIdentificationNumber: [{ value: ORG_EINS[i], status: true, issuer: 'IRS' }],
  };
}

function person(i: number): Record<string, unknown> {
  const [firstName, lastName] = PERSON_NAMES[i]!;
  return {
    names: [{ firstName, middleName: ORDINARY.person, lastName }],
    addresses: [
      {
        type: 'home',
        line1: `${200 + i} Hidden Lane`,
        city: 'Privacyville',
        state: 'NV',
        postalCode: `8${i}002`,
        country: 'USA',
      },
    ],
    datesOfBirth: [{ dateOfBirth: `1961-0${i + 1}-1${i}` }],
    ssns: [{ ssn: PERSON_SSNS[i] }],
    genders: [{ gender: i % 2 ? 'M' : 'F' }],
    phoneNumbers: [{ countryCode: '+1', number: `555020${i}`, type: 'home' }],
    emails: [{ email: email('person', i), type: 'home' }],
  };
}

function provider(i: number): Record<string, unknown> {
  const common = {
    addresses: [
      {
        addressName: 'Main Office',
        addressType: 'work',
        line1: `${300 + i} Hidden Lane`,
        city: 'Privacyville',
        state: 'NV',
        postalCode: `7${i}003`,
        country: 'USA',
      },
    ],
    phoneNumbers: [{ number: `555030${i}`, type: 'work' }],
    emails: [{ email: email('provider', i), type: 'work' }],
  };
  // Records 0 and 1 are practitioners (type 1), 2 and 3 health facilities (type 2): the pairs merge and link within
  // their type.
  if (i < 2) {
    const [first, last] = PROVIDER_NAMES[i]!;
    return {
      ...common,
      names: [{ first, last, credential: 'MD' }],
      npis: [{ npi: PROVIDER_NPIS[i], entityTypeCode: '1' }],
    };
  }
  const name = FACILITY_NAMES[i - 2]!;
  return {
    ...common,
    organizationNames: [{ legalBusinessName: name }],
    npis: [{ npi: PROVIDER_NPIS[i], entityTypeCode: '2' }],
    employerIdentificationNumber: [{ value: PROVIDER_EINS[i - 2] }],
  };
}

/**
 * Ordinary words among the foreign values, likely inside the suite's own generated names and texts: masking must leave
 * those intact (harness/foreign-values.ts masks whole tokens outside the run's own values only).
 */
export const ORDINARY = { organization: 'Health', person: 'James' };

const BUILDERS: Partial<Record<ServiceName, (i: number) => Record<string, unknown>>> = {
  organization,
  person,
  provider,
};

/** Every marker the foreign data carries, per kind: none of them may appear in anything a run writes. */
export const FOREIGN_MARKERS = {
  names: [...FOREIGN_NAMES, ...PERSON_NAMES.flat(), ...PROVIDER_NAMES.flat(), ...FACILITY_NAMES],
  ssns: PERSON_SSNS,
  emails: (['organization', 'person', 'provider'] as const).flatMap((s) => [0, 1, 2, 3].map((i) => email(s, i))),
  nativeIds: (['organization', 'person', 'provider'] as const).flatMap((s) =>
    [0, 1, 2, 3].map((i) => foreignNativeId(s, i)),
  ),
  eins: [...ORG_EINS, ...PROVIDER_EINS],
  npis: PROVIDER_NPIS,
  /** Free text of the foreign relationship's details. */
  details: ['Confidential board seat of Quillfeather'],
};

/**
 * Loads four foreign identities into a service's store: 0 alone, 1 merged into 0's identity (retired), 2 and 3 linked;
 * a relationship 0 -> 2.
 */
export function loadForeignData(store: ServiceStore): void {
  const build = BUILDERS[store.service];
  if (!build) return;
  const prefix = store.service.slice(0, 3).toUpperCase();
  const records: SourceRecord[] = [0, 1, 2, 3].map((i) => {
    const source = { name: FOREIGN_SOURCE, id: foreignNativeId(store.service, i) };
    const linkId = `${prefix}foreign${i}`;
    return {
      key: keyOf(source),
      source,
      data: build(i),
      state: 'active',
      linkId,
      originalLinkId: linkId,
      updatedAt: 1,
    };
  });
  records[1]!.state = 'retired';
  records[1]!.retiredInto = records[0]!.key;
  records[1]!.linkId = records[0]!.linkId;
  records[3]!.linkId = records[2]!.linkId;
  for (const r of records) store.records.set(r.key, r);
  const [subject, object] =
    store.service === 'person' ? ['subjectVeratoId', 'objectVeratoId'] : ['subjectServiceId', 'objectServiceId'];
  store.relationships.set(`RELforeign1${prefix}`, {
    id: `RELforeign1${prefix}`,
    relationshipVerb: 'affiliatedWith',
    [subject]: records[0]!.linkId,
    [object]: records[2]!.linkId,
    status: 'ACTIVE',
    details: { note: FOREIGN_MARKERS.details[0], contact: records[0]!.source.id },
  });
}

/**
 * Other people's activity on a shared deployment: called once per request a service handles, it adds a notification
 * about a foreign record to that service's feed every `every` requests, so the run's notification windows hold changes
 * it did not make.
 */
export function foreignActivity(stores: Map<ServiceName, ServiceStore>, every = 4): (service: ServiceName) => void {
  const counts = new Map<ServiceName, number>();
  return (service) => {
    const store = stores.get(service);
    if (!store || !BUILDERS[service]) return;
    const n = (counts.get(service) ?? 0) + 1;
    counts.set(service, n);
    if (n % every) return;
    const foreign = [...store.records.values()].filter((r) => r.source.name === FOREIGN_SOURCE && r.state === 'active');
    const r = foreign[(n / every) % Math.max(1, foreign.length)];
    if (r) store.notify('UPDATE', { source: r.source.name, nativeId: r.source.id, newLinkId: r.linkId });
  };
}

/** SHA-256 of the foreign records and relationships (everything not created by a test source). */
export function foreignDigest(store: ServiceStore): string {
  const records = [...store.records.values()]
    .filter((r) => r.source.name === FOREIGN_SOURCE)
    .sort((a, b) => a.key.localeCompare(b.key));
  const linkIds = new Set(records.map((r) => r.linkId));
  const relationships = [...store.relationships.values()]
    .filter((r) => Object.values(r).some((v) => typeof v === 'string' && linkIds.has(v)))
    .sort((a, b) => a.id.localeCompare(b.id));
  const members = [...linkIds].sort().map((l) => [
    l,
    store
      .activeMembers(l)
      .map((r) => r.key)
      .sort(),
  ]);
  return createHash('sha256')
    .update(JSON.stringify({ records: records.map(({ updatedAt: _u, ...r }) => r), relationships, members }))
    .digest('hex');
}
