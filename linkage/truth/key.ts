/**
 * A clustering key: a CSV file assigning every record of a truth set to a cluster, one row per record. The ground truth
 * is one (`--key`); a clustering to compare with it, or two to compare with each other, are others (`--before-key`,
 * `--after-key`). Parsed with csv-parse.
 *
 * Columns, by header name (any order, others ignored): the record (`RECORD_ID`, or `id` in the plain format), its
 * cluster (`CLUSTER_ID`, or `cluster`), and, when the records name data sources (the Senzing format), `DATA_SOURCE`.
 * Records sharing a cluster are the same real-world entity.
 * Source: linkage/README.md, "Bring your own ground truth".
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { TruthSetError } from './errors.js';

/** The key of a record: `DATA_SOURCE/RECORD_ID` when the set names data sources, else the record's id. */
export const recordKey = (id: string, dataSource?: string) => (dataSource ? `${dataSource}/${id}` : id);

const pick = (header: string[], names: string[]) => header.find((h) => names.includes(h.trim().toLowerCase()));

/**
 * Reads a key file.
 * @returns cluster label by record key, in file order
 * @throws TruthSetError when the file cannot be read or parsed, lacks a record or cluster column, or names a record
 *   twice
 */
export function readKey(path: string): Map<string, string> {
  let rows: Record<string, string>[];
  try {
    rows = parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (e) {
    throw new TruthSetError(`${path}: not a readable CSV key (${(e as Error).message})`);
  }
  const header = rows.length ? Object.keys(rows[0]!) : [];
  const idColumn = pick(header, ['record_id', 'id']);
  const clusterColumn = pick(header, ['cluster_id', 'cluster']);
  const sourceColumn = pick(header, ['data_source']);
  if (!idColumn || !clusterColumn)
    throw new TruthSetError(
      `${path}: a key needs a record column (RECORD_ID or id) and a cluster column (CLUSTER_ID or cluster); the ` +
        `header has ${header.join(', ') || 'nothing'}`,
    );
  const out = new Map<string, string>();
  rows.forEach((row, i) => {
    const key = recordKey(row[idColumn] ?? '', sourceColumn ? row[sourceColumn] : undefined);
    const cluster = row[clusterColumn] ?? '';
    if (!row[idColumn] || !cluster)
      throw new TruthSetError(`${path}, line ${i + 2}: a record and a cluster are both required`);
    if (out.has(key)) throw new TruthSetError(`${path}, line ${i + 2}: record ${key} is named twice`);
    out.set(key, cluster);
  });
  return out;
}
