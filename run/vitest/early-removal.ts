/**
 * Removal of a scenario file's records while the run goes on. Once every check of a file has ended, the source records
 * and relationships its checks created (ledger entries carrying the file, harness/run.ts) are removed by the run's main
 * process, instead of all of them at the end: against a distant deployment most of the teardown's requests then overlap
 * the checks still running (docs/performance.md), and the run's records stay on a shared staging for less time.
 *
 * - Checks never share records across files, so a file that ended has no check left to use its records.
 * - Removals take slots of the same in-flight bound per service as the checks (harness/shared-limit.ts), at most half
 *   of them while checks run, so those keep slots of their own; all of them once the checks have ended (finish).
 * - Files whose checks page a service's notification feed (FEED_READERS) see every change of the run inside their
 *   windows: removing records then would lengthen their walks through the feed (person notifications went from 108 to
 *   288 requests when records went at every file's end). While such a file of a service is queued or running, that
 *   service's removals wait until it ends.
 * - A file with a failed check keeps its records until the teardown: a check that timed out may still be sending
 *   requests (vitest does not stop its body).
 * - Only source records and relationships go early; data sources a file created stay until the teardown.
 * - Each removal done is written to the ledger (`removed`): the teardown (harness/cleanup.ts) counts it and does not
 *   ask again. One attempt only: what could not be removed is left to the teardown.
 */
import { basename, dirname } from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import type { ServiceName } from '../../specs/common/model.js';
import { serviceNames } from '../../specs/services.js';
import { LedgerRemover, removable, removalKey, removedOutcomes } from '../../harness/cleanup.js';
import type { ClientOptions } from '../../harness/client.js';
import type { ServiceTarget } from '../../harness/config.js';
import type { Profile } from '../../harness/profile.js';
import type { RunContext } from '../../harness/run.js';
import { SharedLimit } from '../../harness/shared-limit.js';
import { type FileListener, attachFileListener } from './file-events.js';

/** Longest the teardown waits for removals under way (ms): see finish. */
export const FINISH_LIMIT_MS = 60_000;

/** Scenario areas (file names without `.test.ts`) whose checks page the notification feed. */
export const FEED_READERS = ['notifications'];

const areaOf = (file: string) => basename(file).replace(/\.test\.ts$/, '');
const serviceOf = (file: string) => basename(dirname(file));

export interface EarlyRemovalOptions
  extends Pick<ClientOptions, 'timeoutMs' | 'maxInFlight' | 'retryBudgetMs' | 'ratePerSecond' | 'tokenCells'> {
  /**
   * The run's in-flight counters shared with the workers (harness/shared-limit.ts), one per service in serviceNames()
   * order.
   */
  counters: SharedArrayBuffer;
  /** The run's pacing shared with the workers (harness/pacing.ts): removals pause with the checks' requests. */
  pacing?: SharedArrayBuffer;
}

export class EarlyRemoval implements FileListener {
  private readonly remover: LedgerRemover;
  /** Feed-reading files not yet ended, by service. */
  private readonly readers = new Map<string, Set<string>>();
  private readonly ended = new Set<string>();
  private readonly taken = new Set<string>();
  private readonly sweeps = new Set<Promise<void>>();
  private closed = false;
  /** Removals under way at once per service: half the bound while checks run, all of it once they have ended. */
  private readonly gates = new Map<ServiceName, LimitFunction>();
  private readonly fullBound: number;

  constructor(
    private readonly run: RunContext,
    targets: Partial<Record<ServiceName, ServiceTarget | null>>,
    profile: Profile,
    options: EarlyRemovalOptions,
  ) {
    const { counters, pacing, maxInFlight } = options;
    const share = Math.max(1, Math.floor(maxInFlight / 2));
    this.remover = new LedgerRemover(
      run,
      targets,
      profile,
      {
        timeoutMs: options.timeoutMs,
        maxInFlight,
        ...(options.retryBudgetMs !== undefined ? { retryBudgetMs: options.retryBudgetMs } : {}),
        ...(options.ratePerSecond ? { ratePerSecond: options.ratePerSecond } : {}),
        ...(pacing ? { pacing } : {}),
        ...(options.tokenCells ? { tokenCells: options.tokenCells } : {}),
      },
      true,
      (service) => ({ sharedLimit: new SharedLimit(counters, serviceNames().indexOf(service), maxInFlight) }),
      (service) => {
        let gate = this.gates.get(service);
        if (!gate) this.gates.set(service, (gate = pLimit(this.closed ? maxInFlight : share)));
        return gate;
      },
    );
    this.fullBound = maxInFlight;
  }

  /** The run's scenario files (relative to the project root), before any ends. */
  selected(files: string[]): void {
    for (const f of files) {
      if (!FEED_READERS.includes(areaOf(f))) continue;
      const set = this.readers.get(serviceOf(f)) ?? new Set<string>();
      this.readers.set(serviceOf(f), set.add(f));
    }
  }

  /**
   * Every check of `file` has ended: its records go, unless a feed reader of their service has yet to end, or one of
   * its checks failed (`settled` false: a check that timed out may still be running).
   */
  fileEnded(file: string, settled: boolean): void {
    if (this.closed) return;
    if (settled) this.ended.add(file);
    this.readers.get(serviceOf(file))?.delete(file);
    // A sweep that fails loses nothing: what it did not mark removed, the teardown removes.
    const sweep = this.sweep()
      .catch(() => {})
      .finally(() => this.sweeps.delete(sweep));
    this.sweeps.add(sweep);
  }

  /** Removes what may go now and was not taken yet. */
  private async sweep(): Promise<void> {
    const entries = this.run.entries();
    const removed = removedOutcomes(entries);
    const items = removable(entries).filter((e) => {
      const key = removalKey(e);
      if (
        !e.file ||
        !this.ended.has(e.file) ||
        this.readers.get(e.service)?.size ||
        removed.has(key) ||
        this.taken.has(key)
      )
        return false;
      this.taken.add(key);
      return true;
    });
    if (items.length) await this.remover.remove(entries, items, 1);
  }

  /**
   * Takes no more files, and resolves once every removal under way has ended (the teardown removes the rest), or after
   * FINISH_LIMIT_MS at the latest: removals wait for slots of the bound the workers share, and a worker ended while
   * holding one never gives it back. What is still under way then is left to the teardown, which removes without that
   * bound (a record removed twice is counted once, as already gone the second time). `limitMs`: a shorter wait (an
   * interrupted run's teardown, run/vitest/teardown.ts).
   */
  async finish(limitMs = FINISH_LIMIT_MS): Promise<void> {
    this.closed = true;
    // No check is left to keep slots for.
    for (const gate of this.gates.values()) gate.concurrency = this.fullBound;
    const settled = (async () => {
      while (this.sweeps.size) await Promise.allSettled([...this.sweeps]);
    })();
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), limitMs))),
    ]);
    clearTimeout(timer);
    if (late) void this.remover.close().catch(() => {});
    else await this.remover.close();
  }
}

/**
 * Attaches `removal` to the file events of vitest project `project` (run/vitest/file-events.ts), handing it those that
 * came before.
 */
export function attachEarlyRemoval(project: string, removal: EarlyRemoval): void {
  attachFileListener(project, removal);
}
