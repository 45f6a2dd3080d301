/**
 * Run isolation: the run id, native IDs namespaced by it, and the ledger of what the run created.
 *
 * Every source record the run creates uses a configured test source name and a native ID `cf-<runId>-<random>`; the
 * ledger (append-only JSONL in the run's report folder) is written BEFORE the creating request is sent, so a crash can
 * never leave an unlisted record.
 * Source: docs/safety.md.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ServiceName } from '../specs/common/model.js';
import type { SourceRef } from '../specs/common/wire.js';
import { type Adoption, ownedFile } from './ownership.js';

export const NATIVE_ID_PREFIX = 'cf-';

/**
 * Entries of what the run created carry `file`, the scenario file whose check created it, when a check did
 * (run/vitest/early-removal.ts).
 */
export type LedgerEntry =
  | { kind: 'source'; service: ServiceName; source: SourceRef; at: string; file?: string }
  | { kind: 'relationship'; service: ServiceName; id: string; at: string; file?: string }
  | { kind: 'dataSource'; service: ServiceName; name: string; at: string; file?: string }
  /**
   * A source record or relationship of an earlier entry, removed while the run went on (run/vitest/early-removal.ts): the
   * teardown counts it with its outcome and does not ask again.
   */
  | {
      kind: 'removed';
      service: ServiceName;
      source?: SourceRef;
      id?: string;
      outcome: 'deleted' | 'alreadyGone';
      at: string;
    }
  /**
   * A record the run posted with invalid content on purpose and the deployment accepted: it is deleted at once, and
   * until then no other check judges it (its link ID when known).
   */
  | { kind: 'quarantine'; service: ServiceName; source: SourceRef; linkId?: string; at: string };

/** A new run id: UTC timestamp plus 4 random hex digits, e.g. 20261121-054012-9f3a. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export const runFolder = (reportDir: string, runId: string) => join(reportDir, runId);
export const ledgerPath = (reportDir: string, runId: string) => join(runFolder(reportDir, runId), 'ledger.jsonl');
/**
 * Where a merged run folder (npm run report:merge) keeps its shards' ledgers, as a report directory of its own:
 * `<merged run folder>/shards/<shard run id>/ledger.jsonl`.
 */
export const shardLedgersDir = (reportDir: string, mergedRunId: string) =>
  join(runFolder(reportDir, mergedRunId), 'shards');

/** A run's ledger as the cleanup reads it: the run ID it was written under (its namespace) and its report directory. */
export interface RunLedger {
  runId: string;
  reportDir: string;
}

/**
 * The ledgers of run `runId` under `reportDir`: its own; or, for a merged run (report:merge), those of its shards,
 * kept in its folder (shardLedgersDir) or in their own run folders beside it; or, for a sharded run never merged, its
 * shards' run folders `<runId>-s<i>of<n>`. Empty when there is none.
 */
export function runLedgers(reportDir: string, runId: string): RunLedger[] {
  if (existsSync(ledgerPath(reportDir, runId))) return [{ runId, reportDir }];
  const described = join(runFolder(reportDir, runId), 'run.json');
  let shards: string[] = [];
  if (existsSync(described)) {
    try {
      const run = JSON.parse(readFileSync(described, 'utf8')) as { shards?: Array<{ runId?: unknown }> };
      shards = (run.shards ?? []).map((x) => x.runId).filter((x): x is string => typeof x === 'string');
    } catch {
      // an unreadable run.json names no shard: the shards' own folders are looked for below
    }
  }
  if (!shards.length && existsSync(reportDir))
    shards = readdirSync(reportDir)
      .filter((n) => n.startsWith(`${runId}-s`) && /-s\d+of\d+$/.test(n))
      .sort();
  return shards.flatMap((shard) => {
    const kept = shardLedgersDir(reportDir, runId);
    if (existsSync(ledgerPath(kept, shard))) return [{ runId: shard, reportDir: kept }];
    return existsSync(ledgerPath(reportDir, shard)) ? [{ runId: shard, reportDir }] : [];
  });
}

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

  /** Native-ID prefix of records posted with invalid content on purpose (quarantined when accepted). */
  get invalidNamespace(): string {
    return `${this.namespace}bad-`;
  }

  /** A fresh native ID for a request that is invalid on purpose. */
  newInvalidNativeId(): string {
    return `${this.invalidNamespace}${randomBytes(5).toString('hex')}`;
  }

  /** True when a native ID lies in this run's namespace. */
  ownsNativeId(id: unknown): boolean {
    return typeof id === 'string' && id.startsWith(this.namespace);
  }

  /** Appends one entry to the ledger (synchronously, so it is on disk before the request leaves). */
  record(entry: LedgerEntry): void {
    appendFileSync(this.ledgerFile, `${JSON.stringify(entry)}\n`);
  }

  /** Appends what a guard adopted to the run's ownership record (harness/ownership.ts), with when (`at`, ms). */
  recordOwned(adoption: Adoption): void {
    appendFileSync(ownedFile(this.folder), `${JSON.stringify({ ...adoption, at: Date.now() })}\n`);
  }

  private quarantineOffset = 0;
  private readonly quarantinedLinkIds = new Set<string>();

  /** Reads ledger lines appended since the last call (by any worker) for quarantined link IDs. */
  refreshQuarantine(): void {
    if (!existsSync(this.ledgerFile)) return;
    const fd = openSync(this.ledgerFile, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= this.quarantineOffset) return;
      const buf = Buffer.alloc(size - this.quarantineOffset);
      readSync(fd, buf, 0, buf.length, this.quarantineOffset);
      const text = buf.toString('utf8');
      const end = text.lastIndexOf('\n') + 1; // a line still being written is read next time
      this.quarantineOffset += Buffer.byteLength(text.slice(0, end));
      for (const line of text.slice(0, end).split('\n')) {
        if (!line.includes('"quarantine"')) continue;
        try {
          const e = JSON.parse(line) as LedgerEntry;
          if (e.kind === 'quarantine' && e.linkId) this.quarantinedLinkIds.add(e.linkId);
        } catch {
          /* a cut line: ignored */
        }
      }
    } finally {
      closeSync(fd);
    }
  }

  /**
   * True when an identity-shaped value (a search result, a reply's content) is a record the run posted with invalid
   * content: by its link ID, or by a source whose native ID is in the invalid namespace.
   */
  isQuarantined(value: { linkId?: unknown; identityGroupedBySource?: unknown } | null | undefined): boolean {
    if (!value) return false;
    if (typeof value.linkId === 'string' && this.quarantinedLinkIds.has(value.linkId)) return true;
    const grouped = Array.isArray(value.identityGroupedBySource)
      ? (value.identityGroupedBySource as Array<{ source?: { id?: unknown } }>)
      : [];
    return grouped.some((g) => typeof g?.source?.id === 'string' && g.source.id.startsWith(this.invalidNamespace));
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
