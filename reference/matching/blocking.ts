/**
 * Blocking for the reference's candidate search, so a large store (the match-quality benchmark posts 10,000+ records)
 * is not scanned in full on every post and search.
 *
 * Every record posted is indexed under cheap keys: the double-metaphone code of each name token, date of birth, SSN,
 * NPI, EIN, phone (10 digits) and 5-digit postal code. Below BLOCKING_MIN_RECORDS records the candidate search still
 * scans every record, exactly as before, so the conformance scenarios (small stores) see identical results. Above it,
 * only records sharing at least one key with the probe are scored; keys shared by more than max(300, 3% of records) are
 * skipped as too common (e.g. "Hospital"). A pair that shares no key has no equal name token, birth date, identifier,
 * phone or postal code, so it cannot reach a match threshold; such pairs may only drop out of the low-score tail of
 * demographicsSearch.
 */
import { doubleMetaphone } from 'double-metaphone';
import type { ServiceStore, SourceRecord } from '../store.js';
import { digits, normalize, valuesOf } from './strings.js';

export const BLOCKING_MIN_RECORDS = 1000;

type Identity = Record<string, unknown>;

const NAME_MEMBERS: Array<[string, string[]]> = [
  ['names', ['firstName', 'lastName', 'first', 'last']],
  ['organizationNames', ['legalBusinessName', 'tradingName', 'otherOrgName']],
];
const ID_MEMBERS: Array<[string, string, string, number]> = [
  ['datesOfBirth', 'dateOfBirth', 'd', 0],
  ['ssns', 'ssn', 's', 9],
  ['npis', 'npi', 'i', 10],
  ['alternateIdentifiers', 'value', 'i', 9],
  ['employerIdentificationNumber', 'value', 'e', 9],
];

/** The blocking keys of an identity. */
export function blockingKeys(identity: Identity): string[] {
  const keys = new Set<string>();
  for (const [array, members] of NAME_MEMBERS)
    for (const m of members)
      for (const v of valuesOf(identity, array, m))
        for (const token of normalize(v).split(' '))
          if (token.length >= 2) keys.add(`n:${doubleMetaphone(token)[0] || token}`);
  for (const [array, member, prefix, minDigits] of ID_MEMBERS)
    for (const v of valuesOf(identity, array, member)) {
      if (minDigits === 0) {
        if (typeof v === 'string' && v) keys.add(`${prefix}:${v}`);
        continue;
      }
      const d = digits(String(v));
      if (d.length >= minDigits) keys.add(`${prefix}:${d}`);
    }
  for (const v of valuesOf(identity, 'phoneNumbers', 'number')) {
    const d = digits(String(v)).slice(-10);
    if (d.length === 10) keys.add(`p:${d}`);
  }
  for (const v of valuesOf(identity, 'addresses', 'postalCode')) {
    const d = digits(String(v)).slice(0, 5);
    if (d.length === 5) keys.add(`z:${d}`);
  }
  return [...keys];
}

class BlockingIndex {
  readonly postings = new Map<string, SourceRecord[]>();
  readonly indexed = new WeakMap<SourceRecord, unknown>();

  add(record: SourceRecord): void {
    if (this.indexed.get(record) === record.data) return;
    this.indexed.set(record, record.data);
    for (const k of blockingKeys(record.data as Identity)) {
      const list = this.postings.get(k);
      if (list) list.push(record);
      else this.postings.set(k, [record]);
    }
  }
}

const indexes = new WeakMap<ServiceStore, BlockingIndex>();
const indexOf = (store: ServiceStore) => indexes.get(store) ?? indexes.set(store, new BlockingIndex()).get(store)!;

/** Indexes a record that was just added to the store or whose data was replaced. */
export function indexRecord(store: ServiceStore, record: SourceRecord): void {
  indexOf(store).add(record);
}

/**
 * The records worth scoring against `probe`: every record while the store is small (or when the probe has no usable
 * key), else the records sharing a key with it.
 */
export function blockedRecords(store: ServiceStore, probe: Identity): Iterable<SourceRecord> {
  const total = store.records.size;
  if (total < BLOCKING_MIN_RECORDS) return store.records.values();
  const index = indexOf(store);
  const cap = Math.max(300, total * 0.03);
  const out = new Set<SourceRecord>();
  let usable = 0;
  for (const k of blockingKeys(probe)) {
    const list = index.postings.get(k);
    if (!list || list.length > cap) continue;
    usable++;
    // A posting may outlive its record (hard delete) or its data (update): keep current ones only.
    for (const r of list) if (store.records.get(r.key) === r && index.indexed.get(r) === r.data) out.add(r);
  }
  return usable ? out : store.records.values();
}
