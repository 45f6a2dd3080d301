/**
 * Bring your own ground truth: a labelled set of records loaded from files, turned into the benchmark's data set so
 * that it is posted, read back, measured and compared exactly as generated data is (linkage/README.md, "Bring your own
 * ground truth").
 *
 * Records: JSON Lines files, one record a line, in one of two formats, told apart by the first record:
 * - Senzing (`{"DATA_SOURCE", "RECORD_ID", "FEATURES": [...]}`): linkage/truth/senzing.ts maps the features; a record
 *   is keyed `DATA_SOURCE/RECORD_ID`;
 * - plain (`{"id", "kind", "fields": {...}}`): `kind` person, organization, practitioner or facility, `fields` the
 *   benchmark's flat fields of that kind (linkage/data/wire.ts WIRE_FIELDS); a field of another name is refused, so a
 *   typo cannot drop data unseen.
 * Key: linkage/truth/key.ts. Every record needs a cluster in the key and every keyed record must be among the records.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Dataset, type LinkageRecord, sampleQueries } from '../data/dataset.js';
import { Rng } from '../data/edits.js';
import type { Entity, EntityKind, Fields } from '../data/entities.js';
import { WIRE_FIELDS } from '../data/wire.js';
import { TruthSetError } from './errors.js';
import { readKey, recordKey } from './key.js';
import { senzingFields, senzingKind } from './senzing.js';

export interface TruthRecord {
  /** `DATA_SOURCE/RECORD_ID` (Senzing) or the record's id (plain). */
  key: string;
  kind: EntityKind;
  fields: Fields;
  /** Its cluster in the ground-truth key. */
  cluster: string;
}

export interface TruthSet {
  format: 'senzing' | 'plain';
  /** The record files and the key file, as given. */
  files: { records: string[]; key: string };
  /**
   * SHA-256 of the record files' and the key file's contents, in order: the same set gives the same digest wherever it
   * lies.
   */
  sha256: string;
  records: TruthRecord[];
  /** Feature members of the records that no identity member carries, with how often (Senzing). */
  notSent: Record<string, number>;
  /** Records of a kind no service of the benchmark takes (a Senzing RECORD_TYPE other than PERSON and ORGANIZATION). */
  unknownKind: string[];
}

const KINDS = new Set<string>(Object.keys(WIRE_FIELDS));

/** The record files a `--truth` path names: a file, or every `*.jsonl` file in a folder (by name). */
export function recordFiles(path: string): string[] {
  if (!existsSync(path)) throw new TruthSetError(`${path}: no such file or folder`);
  if (!statSync(path).isDirectory()) return [path];
  const files = readdirSync(path)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(path, f));
  if (!files.length) throw new TruthSetError(`${path}: the folder holds no .jsonl record file`);
  return files;
}

/**
 * Loads a truth set.
 * @param paths record files or folders (--truth, repeatable)
 * @param keyPath the ground-truth key (--key)
 * @throws TruthSetError naming the file and line of anything it cannot read
 */
export function loadTruthSet(paths: string[], keyPath: string): TruthSet {
  const files = paths.flatMap(recordFiles);
  const key = readKey(keyPath);
  const digest = createHash('sha256');
  const records: TruthRecord[] = [];
  const notSent: Record<string, number> = {};
  const unknownKind: string[] = [];
  const seen = new Set<string>();
  let format: TruthSet['format'] | undefined;
  for (const file of [...files, keyPath]) digest.update(createHash('sha256').update(readFileSync(file)).digest());
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${file}, line ${i + 1}`;
      let r: Record<string, unknown>;
      try {
        r = JSON.parse(line) as Record<string, unknown>;
      } catch (e) {
        throw new TruthSetError(`${where}: not JSON (${(e as Error).message})`);
      }
      const senzing = Array.isArray(r.FEATURES);
      format ??= senzing ? 'senzing' : 'plain';
      if ((format === 'senzing') !== senzing)
        throw new TruthSetError(`${where}: a ${senzing ? 'Senzing' : 'plain'} record in a set of ${format} records`);
      const { key: k, kind, fields } = senzing ? senzingRecord(r, where, notSent) : plainRecord(r, where);
      if (seen.has(k)) throw new TruthSetError(`${where}: record ${k} appears twice`);
      seen.add(k);
      const cluster = key.get(k);
      if (cluster === undefined) throw new TruthSetError(`${where}: record ${k} has no cluster in ${keyPath}`);
      if (!kind) unknownKind.push(k);
      else records.push({ key: k, kind, fields, cluster });
    });
  }
  const missing = [...key.keys()].filter((k) => !seen.has(k));
  if (missing.length)
    throw new TruthSetError(
      `${keyPath}: ${missing.length} keyed record(s) are not among the records, e.g. ${missing.slice(0, 3).join(', ')}`,
    );
  if (!records.length) throw new TruthSetError(`${paths.join(', ')}: no record of a kind the benchmark takes`);
  return {
    format: format!,
    files: { records: files, key: keyPath },
    sha256: digest.digest('hex'),
    records,
    notSent,
    unknownKind,
  };
}

/** A record read from a line: its key, kind (undefined: none the benchmark takes) and wire fields. */
type ReadRecord = { key: string; kind: EntityKind | undefined; fields: Fields };

/** A Senzing record (RECORD_ID, DATA_SOURCE, FEATURES); counts in `notSent` the features no wire field takes. */
function senzingRecord(r: Record<string, unknown>, where: string, notSent: Record<string, number>): ReadRecord {
  if (typeof r.RECORD_ID !== 'string' && typeof r.RECORD_ID !== 'number')
    throw new TruthSetError(`${where}: a Senzing record needs a RECORD_ID`);
  const key = recordKey(String(r.RECORD_ID), typeof r.DATA_SOURCE === 'string' ? r.DATA_SOURCE : undefined);
  const features = (r.FEATURES as unknown[]).filter(
    (f): f is Record<string, unknown> => Boolean(f) && typeof f === 'object',
  );
  const kind = senzingKind(features);
  if (!kind) return { key, kind, fields: {} };
  const mapped = senzingFields(features, kind);
  for (const m of mapped.notSent) notSent[m] = (notSent[m] ?? 0) + 1;
  return { key, kind, fields: mapped.fields };
}

/** A plain record ({ id, kind, fields }), its fields those of its kind on the wire. */
function plainRecord(r: Record<string, unknown>, where: string): ReadRecord {
  if (typeof r.id !== 'string' || !r.id) throw new TruthSetError(`${where}: a plain record needs an "id" (a string)`);
  if (typeof r.kind !== 'string' || !KINDS.has(r.kind))
    throw new TruthSetError(`${where}: "kind" must be one of ${[...KINDS].join(', ')}, got ${JSON.stringify(r.kind)}`);
  const kind = r.kind as EntityKind;
  const fields: Fields = {};
  const given = r.fields && typeof r.fields === 'object' ? (r.fields as Record<string, unknown>) : {};
  for (const [name, value] of Object.entries(given)) {
    if (!WIRE_FIELDS[kind].includes(name))
      throw new TruthSetError(
        `${where}: "${name}" is not a field of a ${kind} (fields: ${WIRE_FIELDS[kind].join(', ')})`,
      );
    if (value !== null && value !== undefined && value !== '') fields[name] = String(value);
  }
  return { key: r.id, kind, fields };
}

/**
 * The benchmark data set of the truth set's records of `kinds` (a service's): one entity per cluster (its label the
 * key's cluster ID), records in file order with the search sample (drawn by `seed`, as for generated data:
 * linkage/data/dataset.ts sampleQueries) moved last, since sampled records are searched before they are posted. Record
 * ids are the records' keys.
 * @returns undefined when the set holds no record of those kinds
 */
export function truthDataset(
  set: TruthSet,
  kinds: Partial<Record<EntityKind, number>>,
  seed: number,
  searchSample: number,
): Dataset | undefined {
  const mine = set.records.filter((r) => (kinds[r.kind] ?? 0) > 0);
  if (!mine.length) return undefined;
  const entities: Entity[] = [];
  const entityOf = new Map<string, Entity>();
  const byEntity: LinkageRecord[][] = [];
  const records: LinkageRecord[] = [];
  for (const r of mine) {
    let e = entityOf.get(r.cluster);
    if (!e) {
      e = { id: entities.length, kind: r.kind, fields: r.fields, label: r.cluster };
      entityOf.set(r.cluster, e);
      entities.push(e);
      byEntity.push([]);
    }
    const record: LinkageRecord = {
      id: r.key,
      entity: e.id,
      kind: r.kind,
      index: byEntity[e.id]!.length,
      fields: r.fields,
      ops: [],
    };
    byEntity[e.id]!.push(record);
    records.push(record);
  }
  const sampled = sampleQueries(new Rng(seed), byEntity, Math.min(searchSample, entities.length));
  const order = [...records.filter((r) => !sampled.has(r)), ...records.filter((r) => sampled.has(r))];
  return {
    options: { preset: 'truth-set', size: entities.length, seed, kinds, searchSample: sampled.size },
    entities,
    records: order,
    searchSample: order.filter((r) => sampled.has(r)).map((r) => r.id),
  };
}
