/**
 * Faults of stated rules that checks used to pass vacuously: each breaks one rule in a way only a check of that rule
 * observes (a threshold ignored above a floor, data that does not follow a state change, search entries of records that
 * left matching or of retired identities, merge notifications left out, attribute sources given on names only).
 * Sources: organization-identity-api.md and person-provider-identity-api.md (sections named by each requirement).
 */
import { SERVICES } from '../../specs/services.js';
import type { ServiceName } from '../../specs/common/model.js';
import { type HandlerContext, recordNamed as recordOf } from '../handlers/types.js';
import type { SourceRecord, ServiceStore } from '../store.js';
import type { FaultDefinition, ReplyInfo, RequirementRef } from './types.js';
import { idQueryAnswer } from '../handlers/identity.js';

/** A fault of several services: `requirement` is a role or per-service IDs (as in catalogue.ts SHARED). */
export type RuleFaultSpec = Omit<FaultDefinition, 'service' | 'requirement' | 'name'> & {
  name: string;
  requirement: RequirementRef;
  services?: ServiceName[];
};

/** Runs `next` with the records in state `from` seen as `as` (then puts them back). */
function seeingAs(
  ctx: HandlerContext,
  from: SourceRecord['state'],
  as: SourceRecord['state'],
  run: () => Record<string, unknown>,
) {
  const changed = [...ctx.store.records.values()].filter((r) => r.state === from);
  for (const r of changed) r.state = as;
  try {
    return run();
  } finally {
    for (const r of changed) r.state = from;
  }
}

/**
 * Appends every attribute array of `from` onto `into` (a record keeps data it should have lost). The record gets a new
 * data object: data is never changed in place (reference/store.ts).
 */
function absorb(into: SourceRecord, from: Record<string, unknown>) {
  const data = { ...into.data };
  for (const [k, v] of Object.entries(from)) {
    if (k === 'sources' || !Array.isArray(v)) continue;
    const mine = Array.isArray(data[k]) ? (data[k] as unknown[]) : [];
    data[k] = [...mine, ...structuredClone(v)];
  }
  into.data = data;
}

/** Per store: link IDs of identities retired by a merge, by the retired record's key (stale-search-after-merge). */
const retiredLinks = new WeakMap<ServiceStore, Map<string, string>>();

/**
 * Per store: the data of each deleted source, by the link ID its deletion reported in linkIdsDeleted
 * (deleted-link-answers-data).
 */
const tombstones = new WeakMap<ServiceStore, Map<string, Record<string, unknown>>>();

/** Operations that change state, in any service (auth-skipped-on-writes): the operations tables' mutating rows. */
const WRITES = [
  ...new Set(Object.values(SERVICES).flatMap((s) => s.operations.filter((op) => op.mutates).map((op) => op.name))),
];

export const RULE_FAULT_SPECS: RuleFaultSpec[] = [
  {
    name: 'auth-skipped-on-writes',
    requirement: 'auth.rejected',
    operations: WRITES,
    description: 'operations that change state serve requests without valid credentials (only reads check them)',
    auth: () => 'ok',
  },
  {
    name: 'threshold-ignored-above-floor',
    requirement: 'search.threshold',
    operations: ['demographicsSearch'],
    description: 'demographicsSearch ignores matchScoreThreshold and returns every candidate scoring 0.2 or more',
    handler: (next, ctx) =>
      next({
        ...ctx,
        content: {
          ...ctx.content,
          matchScoreThreshold:
            typeof ctx.content.matchScoreThreshold === 'number'
              ? Math.min(ctx.content.matchScoreThreshold, 0.2)
              : ctx.content.matchScoreThreshold,
        },
      }),
  },
  {
    name: 'search-returns-soft-deleted',
    requirement: 'lifecycle.softDeleteEffect',
    services: ['organization', 'provider'],
    operations: ['demographicsSearch', 'demographicsQuery'],
    description: 'demographicsSearch and demographicsQuery still match soft-deleted records (under their old link ID)',
    handler: (next, ctx) => seeingAs(ctx, 'soft-deleted', 'active', () => next(ctx)),
  },
  {
    name: 'stale-search-after-merge',
    requirement: 'mergeLink.mergeEffect',
    operations: ['mergeIdentities', 'demographicsSearch'],
    description: "the search index keeps the retired identity's entry: a search still returns its old link ID",
    handler: (next, ctx, operation) => {
      const memory = retiredLinks.get(ctx.store) ?? retiredLinks.set(ctx.store, new Map()).get(ctx.store)!;
      if (operation === 'mergeIdentities') {
        const retired = recordOf(ctx, 'toRetireSource');
        const before = retired?.linkId;
        const r = next(ctx);
        if (retired && before) memory.set(retired.key, before);
        return r;
      }
      const r = next(ctx) as {
        searchResults: Array<Record<string, unknown> & { linkId?: string; matchScore?: number }>;
      };
      // The index still holds each retired record under its old identity: a probe matching its data finds that old link
      // ID.
      const floor =
        typeof ctx.content.matchScoreThreshold === 'number' ? ctx.content.matchScoreThreshold : ctx.matcher.floor;
      const stale = [...memory].flatMap(([key, old]) => {
        const record = ctx.store.records.get(key);
        const score = record
          ? Math.round(ctx.matcher.score(ctx.content.identity ?? {}, record.data) * 10000) / 10000
          : 0;
        return record && score >= floor && !r.searchResults.some((x) => x.linkId === old)
          ? [{ linkId: old, identity: record.data, identityGroupedBySource: [], matchScore: score, sameIdentity: 'U' }]
          : [];
      });
      return {
        ...r,
        searchResults: [...r.searchResults, ...stale].sort((x, y) => (y.matchScore ?? 0) - (x.matchScore ?? 0)),
      };
    },
  },
  {
    name: 'deleted-link-answers-data',
    requirement: {
      organization: 'ORG-HARDDELETE-EFFECT',
      person: 'PERSON-DELETE-PHYSICAL',
      provider: 'PROV-HARDDELETE-EFFECT',
    },
    operations: ['deleteSourceIdentity', 'identityIdQuery'],
    description:
      'identityIdQuery of a link ID the deployment reported in linkIdsDeleted still answers it, with the ' +
      "deleted source's data (a tombstone that keeps the data)",
    handler: (next, ctx, operation) => {
      const kept = tombstones.get(ctx.store) ?? tombstones.set(ctx.store, new Map()).get(ctx.store)!;
      if (operation === 'deleteSourceIdentity') {
        const r = recordOf(ctx, 'source');
        const data = r ? structuredClone(r.data) : undefined;
        const reply = next(ctx) as { linkIdsDeleted?: string[] };
        if (data) for (const l of reply.linkIdsDeleted ?? []) kept.set(l, data);
        return reply;
      }
      const asked = ctx.content.linkId as string;
      const data = kept.get(asked);
      if (!data || ctx.store.visibleMembers(asked).length) return next(ctx);
      return idQueryAnswer(asked, data);
    },
  },
  {
    name: 'restore-without-data',
    requirement: 'lifecycle.restoreEffect',
    services: ['organization', 'provider'],
    operations: ['restoreSource'],
    description: 'restoreSource brings the source back without its data (only its name and native ID)',
    handler: (next, ctx) => {
      const r = next(ctx);
      const restored = recordOf(ctx, ctx.members.restoreSource);
      if (restored) restored.data = { sources: restored.data.sources };
      return r;
    },
  },
  {
    name: 'harddelete-leaves-data',
    requirement: 'lifecycle.hardDeleteEffect',
    operations: ['deleteSourceIdentity'],
    description: "deleting one of an identity's sources copies its data into another source of that identity first",
    handler: (next, ctx) => {
      const gone = recordOf(ctx, 'source');
      const keeper = gone && ctx.store.activeMembers(gone.linkId).find((m) => m.key !== gone.key);
      if (gone && keeper) absorb(keeper, gone.data);
      return next(ctx);
    },
  },
  {
    name: 'unmerge-leaves-data',
    requirement: 'mergeLink.unmergeEffect',
    operations: ['unmergeIdentities'],
    description: "unmergeIdentities leaves a copy of the unmerged source's data in the survivor",
    handler: (next, ctx) => {
      const from = recordOf(ctx, 'unmergeFromSource');
      const moved = recordOf(ctx, 'unmergeSource');
      const r = next(ctx);
      if (from && moved) absorb(from, moved.data);
      return r;
    },
  },
  {
    name: 'link-without-data',
    requirement: 'mergeLink.linkEffect',
    operations: ['linkIdentities'],
    description: 'linkIdentities moves the source into the identity but drops its data',
    handler: (next, ctx) => {
      const r = next(ctx);
      const linked = recordOf(ctx, 'source');
      if (linked) linked.data = { sources: linked.data.sources };
      return r;
    },
  },
];

/** Removes sources[] and clusterStatus from every attribute object but names, in each identity of a reply content. */
function stripAttributeSources(content: any): void {
  if (!content || typeof content !== 'object') return;
  const strip = (identity: any) => {
    if (!identity || typeof identity !== 'object') return;
    for (const [kind, list] of Object.entries(identity)) {
      if (kind === 'names' || !Array.isArray(list)) continue;
      for (const o of list)
        if (o && typeof o === 'object') {
          delete (o as any).sources;
          delete (o as any).clusterStatus;
        }
    }
  };
  for (const m of ['identity', 'linkIdentity', 'incomingIdentity']) strip(content[m]);
  if (Array.isArray(content.searchResults)) for (const r of content.searchResults) stripAttributeSources(r);
}

const notificationsWithout = (type: string) => (i: ReplyInfo) => {
  const c = i.body.content as { notifications?: Array<{ notificationType?: string }> } | null;
  if (c && Array.isArray(c.notifications)) c.notifications = c.notifications.filter((n) => n.notificationType !== type);
};

/** A shared fault applied to the person service, whose catalogue names the rule differently. */
const forPerson = (name: string, requirement: string): FaultDefinition => {
  const { services: _s, requirement: _r, ...spec } = RULE_FAULT_SPECS.find((f) => f.name === name)!;
  return { ...spec, name: `person-${name}`, service: 'person', requirement };
};

/** Faults of one service's own rules. */
export const RULE_FAULTS: FaultDefinition[] = [
  forPerson('harddelete-leaves-data', 'PERSON-DELETE-PHYSICAL'),
  {
    name: 'person-search-returns-deactivated',
    service: 'person',
    requirement: 'PERSON-DEACTIVATE-EXCLUDES-MATCHING',
    operations: ['demographicsSearch', 'demographicsQuery'],
    description: 'demographicsSearch and demographicsQuery still match deactivated records',
    handler: (next, ctx) => seeingAs(ctx, 'deactivated', 'active', () => next(ctx)),
  },
  {
    name: 'person-notif-no-merges',
    service: 'person',
    requirement: 'PERSON-NOTIF-RECORDS-CHANGES',
    operations: ['searchNotifications'],
    description: 'merges never reach the notification feed',
    reply: notificationsWithout('MERGE'),
  },
  {
    name: 'person-attr-sources-names-only',
    service: 'person',
    requirement: 'PERSON-ATTR-SOURCES',
    description: 'only names carry sources[] and clusterStatus; the other attribute objects leave them out',
    reply: (i) => stripAttributeSources(i.body.content),
  },
];
