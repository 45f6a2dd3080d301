/**
 * Teardown from the ledger: deletes every relationship and hard-deletes every source record the
 * run created, in reverse order of creation, even when checks failed. A record that is already
 * gone counts as cleaned. Used by the global teardown and by `npm run cleanup -- --run <id>`.
 * Source: ARCHITECTURE.md, "Run isolation".
 */
import type { ServiceName } from '../specs/common/model.js';
import { ServiceClient, isRejection } from './client.js';
import type { ServiceTarget } from './config.js';
import type { Profile } from './profile.js';
import { type LedgerEntry, RunContext } from './run.js';

export interface CleanupResult {
  sources: { attempted: number; deleted: number; alreadyGone: number };
  relationships: { attempted: number; deleted: number; alreadyGone: number };
  failures: Array<{ service: ServiceName; what: string; reason: string }>;
}

export async function cleanupRun(
  run: RunContext,
  targets: Partial<Record<ServiceName, ServiceTarget | null>>,
  profile: Profile,
  options: { timeoutMs: number; maxInFlight: number },
): Promise<CleanupResult> {
  const result: CleanupResult = { sources: { attempted: 0, deleted: 0, alreadyGone: 0 }, relationships: { attempted: 0, deleted: 0, alreadyGone: 0 }, failures: [] };
  const entries = run.entries();
  const clients = new Map<ServiceName, ServiceClient>();
  const clientOf = (service: ServiceName) => {
    const target = targets[service];
    if (!target) return undefined;
    let c = clients.get(service);
    if (!c) clients.set(service, (c = new ServiceClient(target, profile, run, options)));
    return c;
  };
  const tally = async (bucket: CleanupResult['sources'], service: ServiceName, what: string, send: (c: ServiceClient) => Promise<import('./client.js').Reply>) => {
    const client = clientOf(service);
    if (!client) {
      result.failures.push({ service, what, reason: 'service not configured in this run' });
      return;
    }
    bucket.attempted++;
    const reply = await send(client);
    if (reply.success === true) bucket.deleted++;
    else if (isRejection(reply) && reply.status !== 401 && reply.status !== 403) bucket.alreadyGone++;
    else result.failures.push({ service, what, reason: reply.exchange.error ?? `HTTP ${reply.status}` });
  };

  const relationships = entries.filter((e): e is Extract<LedgerEntry, { kind: 'relationship' }> => e.kind === 'relationship');
  await Promise.all(
    relationships.map((e) =>
      tally(result.relationships, e.service, `relationship ${e.id}`, (c) => {
        c.adoptRelationship(e.id);
        return c.call('deleteRelationshipService', { id: e.id });
      }),
    ),
  );
  const seen = new Set<string>();
  const sources = entries
    .filter((e): e is Extract<LedgerEntry, { kind: 'source' }> => e.kind === 'source')
    .reverse()
    .filter((e) => {
      const k = `${e.service}|${e.source.name}|${e.source.id}`;
      return !seen.has(k) && seen.add(k);
    });
  await Promise.all(sources.map((e) => tally(result.sources, e.service, `source ${e.source.name}/${e.source.id}`, (c) => c.call('deleteSourceIdentity', { source: { name: e.source.name, id: e.source.id } }))));
  await Promise.all([...clients.values()].map((c) => c.close()));
  return result;
}
