/**
 * Run isolation: the run id, native IDs namespaced by it, and the ledger of what the run created.
 *
 * Every source record the run creates uses a configured test source name and a native ID
 * `cf-<runId>-<random>`; the ledger (append-only JSONL in the run's report folder) is written
 * BEFORE the creating request is sent, so a crash can never leave an unlisted record.
 * Source: ARCHITECTURE.md, "Run isolation".
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ServiceName } from '../specs/common/model.js';
import type { SourceRef } from '../specs/common/wire.js';

export const NATIVE_ID_PREFIX = 'cf-';

export type LedgerEntry =
  | { kind: 'source'; service: ServiceName; source: SourceRef; at: string }
  | { kind: 'relationship'; service: ServiceName; id: string; at: string }
  | { kind: 'dataSource'; service: ServiceName; name: string; at: string };

/** A new run id: UTC timestamp plus 4 random hex digits, e.g. 20261121-054012-9f3a. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export const runFolder = (reportDir: string, runId: string) => join(reportDir, runId);
export const ledgerPath = (reportDir: string, runId: string) => join(runFolder(reportDir, runId), 'ledger.jsonl');

export class RunContext {
  readonly folder: string;
  readonly ledgerFile: string;
  constructor(
    readonly runId: string,
    readonly reportDir: string,
  ) {
    this.folder = runFolder(reportDir, runId);
    this.ledgerFile = ledgerPath(reportDir, runId);
    mkdirSync(this.folder, { recursive: true });
  }

  /** Native-ID prefix of this run; any native ID under it belongs to the run. */
  get namespace(): string {
    return `${NATIVE_ID_PREFIX}${this.runId}-`;
  }

  /** A fresh native ID in the run's namespace. */
  newNativeId(): string {
    return `${this.namespace}${randomBytes(5).toString('hex')}`;
  }

  /** True when a native ID lies in this run's namespace. */
  ownsNativeId(id: unknown): boolean {
    return typeof id === 'string' && id.startsWith(this.namespace);
  }

  /** Appends one entry to the ledger (synchronously, so it is on disk before the request leaves). */
  record(entry: LedgerEntry): void {
    appendFileSync(this.ledgerFile, `${JSON.stringify(entry)}\n`);
  }

  /** Every ledger entry written so far (by any worker of this run). */
  entries(): LedgerEntry[] {
    return readLedger(this.ledgerFile);
  }
}

export function readLedger(file: string): LedgerEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LedgerEntry];
      } catch {
        return []; // a line cut by a hard kill: the rest of the ledger still counts
      }
    });
}
