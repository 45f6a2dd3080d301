/**
 * Teardown from the ledger: deletes every relationship and hard-deletes every source record the
 * run created, in reverse order of creation, even when checks failed. Used by the global
 * teardown and by `npm run cleanup -- --run <id>`.
 *
 * A removal counts as done when the deployment accepts it, or rejects it and a lookup then finds
 * no such record ("already gone"). A removal whose connection failed is re-sent at once (removing
 * the run's own record twice is harmless); a reply that stays transient is retried in further passes
 * (with more retries each); whatever still exists afterwards is listed in `failures` by source
 * name and native ID (or relationship ID), so the caller can report it and exit non-zero.
 * Source: README, "Safety with shared staging data".
 */
import type { ServiceName } from '../specs/common/model.js';
import { type ClientOptions, ServiceClient } from './client.js';
import type { ServiceTarget } from './config.js';
import type { Profile } from './profile.js';
import { type Reply, describeReply, isAbsent, isAuthFailure, isRejection, isTransient } from './reply.js';
import { type LedgerEntry, RunContext } from './run.js';

export interface CleanupResult {
  sources: { attempted: number; deleted: number; alreadyGone: number };
  relationships: { attempted: number; deleted: number; alreadyGone: number };
  /** What could not be removed, with why. */
  failures: Array<{ service: ServiceName; what: string; reason: string }>;
}

/** Passes over what is left after transient replies; each pass retries more. */
export const CLEANUP_PASSES = 3;

type Outcome = 'deleted' | 'alreadyGone' | { reason: string; transient: boolean };

export async function cleanupRun(
  run: RunContext,
  targets: Partial<Record<ServiceName, ServiceTarget | null>>,
  profile: Profile,
  options: Pick<ClientOptions, 'timeoutMs' | 'maxInFlight'> & Partial<ClientOptions>,
): Promise<CleanupResult> {
  const result: CleanupResult = { sources: { attempted: 0, deleted: 0, alreadyGone: 0 }, relationships: { attempted: 0, deleted: 0, alreadyGone: 0 }, failures: [] };
  const entries = run.entries();
  const clients = new Map<ServiceName, ServiceClient>();
  const clientOf = (service: ServiceName) => {
    const target = targets[service];
    if (!target) return undefined;
    let c = clients.get(service);
    if (!c) clients.set(service, (c = new ServiceClient(target, profile, run, { retries: 2, ...options })));
    return c;
  };

  /** Removes each item; what stays transient is tried again in the next pass with more retries. */
  const sweep = async <T>(items: T[], bucket: CleanupResult['sources'], describe: (i: T) => { service: ServiceName; what: string }, remove: (c: ServiceClient, i: T, retries: number) => Promise<Outcome>) => {
    let left = items.filter((i) => {
      const d = describe(i);
      if (clientOf(d.service)) return true;
      result.failures.push({ ...d, reason: 'service not configured in this run' });
      return false;
    });
    bucket.attempted += left.length;
    for (let pass = 0; pass < CLEANUP_PASSES && left.length; pass++) {
      const outcomes = await Promise.all(left.map((i) => remove(clientOf(describe(i).service)!, i, 2 + 2 * pass)));
      const next: T[] = [];
      outcomes.forEach((o, k) => {
        if (o === 'deleted') bucket.deleted++;
        else if (o === 'alreadyGone') bucket.alreadyGone++;
        else if (o.transient && pass < CLEANUP_PASSES - 1) next.push(left[k]!);
        else result.failures.push({ ...describe(left[k]!), reason: o.reason });
      });
      left = next;
    }
  };

  const judge = async (reply: Reply, stillThere: () => Promise<Reply | undefined>): Promise<Outcome> => {
    if (reply.success === true && !isTransient(reply)) return 'deleted';
    if (isTransient(reply)) return { reason: describeReply(reply), transient: true };
    if (isAuthFailure(reply)) return { reason: `credentials refused: ${describeReply(reply)}`, transient: false };
    if (!isRejection(reply)) return { reason: describeReply(reply), transient: false };
    const lookup = await stillThere();
    if (!lookup) return 'alreadyGone';
    if (isTransient(lookup)) return { reason: `removal rejected (${describeReply(reply)}) and the lookup could not tell whether it is gone`, transient: true };
    return isAbsent(lookup) ? 'alreadyGone' : { reason: `removal rejected and the record is still there: ${describeReply(reply)}`, transient: false };
  };

  // Records on data sources the run created are the run's to delete.
  for (const e of entries) if (e.kind === 'dataSource') clientOf(e.service)?.guard.adoptSourceName(e.name);
  const relationships = entries.filter((e): e is Extract<LedgerEntry, { kind: 'relationship' }> => e.kind === 'relationship');
  await sweep(
    relationships,
    result.relationships,
    (e) => ({ service: e.service, what: `relationship ${e.id}` }),
    async (c, e, retries) => {
      c.guard.adoptRelationship(e.id);
      // No lookup by relationship ID exists: a rejected delete is taken as "already gone".
      return judge(await c.call('deleteRelationshipService', { id: e.id }, { retries, resendable: true }), async () => undefined);
    },
  );
  const seen = new Set<string>();
  const sources = entries
    .filter((e): e is Extract<LedgerEntry, { kind: 'source' }> => e.kind === 'source')
    .reverse()
    .filter((e) => {
      const k = `${e.service}|${e.source.name}|${e.source.id}`;
      return !seen.has(k) && seen.add(k);
    });
  await sweep(
    sources,
    result.sources,
    (e) => ({ service: e.service, what: `source ${e.source.name}/${e.source.id}` }),
    async (c, e, retries) => {
      const source = { name: e.source.name, id: e.source.id };
      return judge(await c.call('deleteSourceIdentity', { source }, { retries, resendable: true }), () => c.call('nativeIdQuery', { source }, { retries }));
    },
  );
  await Promise.all([...clients.values()].map((c) => c.close()));
  return result;
}
