/**
 * The run's ownership record (`owned.jsonl` in the run folder): every link ID, relationship and
 * data-source name a guard of the run adopted (harness/guard.ts), one line each, appended as it is
 * adopted by whichever process adopted it. Redaction by ownership (harness/redact-foreign.ts) judges
 * each reply by what the guard owned; the evidence bundle carries this record (`ownership.json`),
 * so that its scan (report/evidence/scan.ts) judges the bundle's exchanges by the same facts,
 * including what the run learned from exchanges the bundle does not hold in full (walk steps, the
 * checks kept as summary lines). Source: docs/safety.md.
 *
 * The record names only the run's own identifiers (link IDs of identities holding its records,
 * relationships it created, data sources it named in its namespace): no identity data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from '../specs/common/model.js';

export const OWNED_FILE = 'owned.jsonl';

/** What a guard adopted: a link ID, a relationship it created, a data-source name it created. */
export type AdoptionKind = 'linkId' | 'relationship' | 'dataSource';
export interface Adoption {
  service: ServiceName;
  kind: AdoptionKind;
  id: string;
  /** When it was adopted (ms since the epoch; `owned.jsonl` only, not the bundle's ownership.json). */
  at?: number;
}

/** Per service, what the run owned by the end of the run, each list sorted. */
export type OwnershipRecord = Partial<Record<ServiceName, Record<AdoptionKind, string[]>>>;

export const ownedFile = (runFolder: string) => join(runFolder, OWNED_FILE);

/** The ownership record of a run folder (empty when the run adopted nothing); a cut last line is ignored. */
export function readOwnership(runFolder: string): OwnershipRecord {
  const file = ownedFile(runFolder);
  const sets = new Map<ServiceName, Record<AdoptionKind, Set<string>>>();
  if (existsSync(file))
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let a: Adoption;
      try {
        a = JSON.parse(line) as Adoption;
      } catch {
        continue; // a line cut by a hard kill
      }
      let s = sets.get(a.service);
      if (!s) sets.set(a.service, (s = { linkId: new Set(), relationship: new Set(), dataSource: new Set() }));
      s[a.kind]?.add(a.id);
    }
  const out: OwnershipRecord = {};
  for (const [service, s] of [...sets].sort(([a], [b]) => a.localeCompare(b)))
    out[service] = {
      linkId: [...s.linkId].sort(),
      relationship: [...s.relationship].sort(),
      dataSource: [...s.dataSource].sort(),
    };
  return out;
}
