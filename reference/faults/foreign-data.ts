/**
 * Foreign data for the safety self-tests: identities from a source that is not a test source
 * (as on a shared staging deployment), some merged and linked, with a relationship, loaded into
 * the reference with `startReference({ foreignData: true })` or REFERENCE_FOREIGN_DATA=1.
 * `foreignDigest` is a digest of their state (records, identities, relationships), so a test can
 * prove a run left them exactly as they were.
 */
import { createHash } from 'node:crypto';
import { keyOf, type ServiceStore, type SourceRecord } from '../store.js';

export const FOREIGN_SOURCE = 'staging_crm';

/** Distinctive identity content that must never reach a report. */
export const FOREIGN_NAMES = ['Quillfeather Orchard Holdings', 'Brambleworth Tidal Logistics', 'Ossington Vale Cooperative', 'Marrowgate Lantern Works'];

function organization(i: number): Record<string, unknown> {
  return {
    organizationNames: [{ legalBusinessName: FOREIGN_NAMES[i], tradingName: `${FOREIGN_NAMES[i]} Trading` }],
    addresses: [{ line1: `${100 + i} Hidden Lane`, city: 'Privacyville', postalCode: `9${i}001`, country: 'US' }],
    phoneNumbers: [{ number: `555010${i}`, type: 'WORK' }],
  };
}

/** Loads four foreign identities: 0 alone, 1 merged into 0's identity (retired), 2 and 3 linked; a relationship 0 -> 2. */
export function loadForeignData(store: ServiceStore): void {
  const records: SourceRecord[] = FOREIGN_NAMES.map((_, i) => {
    const source = { name: FOREIGN_SOURCE, id: `crm-${1000 + i}` };
    const linkId = `${store.service.slice(0, 3).toUpperCase()}foreign${i}`;
    return { key: keyOf(source), source, data: organization(i), state: 'active', linkId, originalLinkId: linkId, updatedAt: 1 };
  });
  records[1]!.state = 'retired';
  records[1]!.retiredInto = records[0]!.key;
  records[1]!.linkId = records[0]!.linkId;
  records[3]!.linkId = records[2]!.linkId;
  for (const r of records) store.records.set(r.key, r);
  store.relationships.set('RELforeign1', { id: 'RELforeign1', relationshipVerb: 'affiliatedWith', subjectServiceId: records[0]!.linkId, objectServiceId: records[2]!.linkId, status: 'ACTIVE' });
}

/** SHA-256 of the foreign records and relationships (everything not created by a test source). */
export function foreignDigest(store: ServiceStore): string {
  const records = [...store.records.values()].filter((r) => r.source.name === FOREIGN_SOURCE).sort((a, b) => a.key.localeCompare(b.key));
  const linkIds = new Set(records.map((r) => r.linkId));
  const relationships = [...store.relationships.values()].filter((r) => linkIds.has(String(r.subjectServiceId)) || linkIds.has(String(r.objectServiceId))).sort((a, b) => a.id.localeCompare(b.id));
  const members = [...linkIds].sort().map((l) => [l, store.activeMembers(l).map((r) => r.key).sort()]);
  return createHash('sha256').update(JSON.stringify({ records: records.map(({ updatedAt: _u, ...r }) => r), relationships, members })).digest('hex');
}
