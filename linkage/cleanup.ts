/**
 * Hard-deletes every record a match-quality run created, from its ledger: harness/cleanup.ts `cleanupRun` (the same
 * order, passes, lookups and counts) gated to at most `maxInFlight` removals under way. `cleanupRun` starts every
 * removal at once and lets the client's in-flight bound queue them; for the 12,000 records of 10,000 entities that held
 * 12,000 prepared requests at once, about 90 MB of the benchmark's peak memory. Only the records of the services given
 * are removed: a run that measures several services one after another shares one ledger, and the services measured
 * before were cleaned up already. Source: docs/safety.md, "Safety with shared staging data".
 */
import pLimit from 'p-limit';
import { type CleanupResult, cleanupRun } from '../harness/cleanup.js';
import type { ClientOptions } from '../harness/client.js';
import type { ServiceTarget } from '../harness/config.js';
import type { Profile } from '../harness/profile.js';
import type { RunContext } from '../harness/run.js';
import type { ServiceName } from '../specs/common/model.js';

export async function removeRunRecords(
  run: RunContext,
  targets: Partial<Record<ServiceName, ServiceTarget | null>>,
  profile: Profile,
  options: Pick<ClientOptions, 'timeoutMs' | 'maxInFlight'>,
): Promise<CleanupResult> {
  const underWay = pLimit(options.maxInFlight);
  return cleanupRun(run, targets, profile, options, () => underWay, Object.keys(targets) as ServiceName[]);
}
