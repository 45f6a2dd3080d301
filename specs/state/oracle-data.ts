/**
 * The whole-state oracle's clauses on which sources an identity lists and whose data it shows, on searches with the
 * step's records' data, and on the link IDs a step pins; each a pure judgement of one observation
 * (specs/state/observation.ts).
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import { type Finding, finding } from '../common/clause.js';
import { groupedSources, resultLinkIds, sameSource } from '../common/identity-content.js';
import type { ModelRecord } from './identity-model.js';
import { current, identityReplies, labels, oracleClause, shownIn } from './observation.js';
import { isLive } from './state-spec.js';

// --- Which sources an identity lists, and whose data it shows ---

/**
 * A record the seeds took out of every identity and that is still out: a later step the seeds leave open (a repeated
 * soft delete, then a restore) made its state unknown, and it may be back.
 */
const removedNow = (r: ModelRecord) => Boolean(r.data.nowhere) && r.state !== 'unknown';

export const REMOVED_SOURCE_LISTED = oracleClause(
  'REMOVED-SOURCE-LISTED',
  'a reply listing among its sources (identityGroupedBySource) a source the seeds took out of every identity ' +
    '(hard-deleted; provider: soft-deleted)',
  ['state:effect.nowhere'],
  (j, c) => {
    const removed = j.m.records.filter(removedNow);
    return identityReplies(j).flatMap((x) =>
      removed
        .filter((r) => x.own !== r.label && groupedSources(x.content).some((s) => sameSource(s, r.source)))
        .map((r) => finding(c, r.data.nowhere!, `${x.where} lists ${r.state} ${r.label} among its sources`)),
    );
  },
);

export const REMOVED_SOURCE_DATA_SHOWN = oracleClause(
  'REMOVED-SOURCE-DATA-SHOWN',
  'a reply showing values of a source the seeds took out of every identity (hard-deleted; provider: ' +
    'soft-deleted); only values no other record of the model shows count',
  ['state:effect.nowhere'],
  (j, c) => {
    const removed = j.m.records.filter(removedNow).map((r) => ({ r, own: j.m.ownValues(r) }));
    return identityReplies(j)
      .filter((x) => x.model)
      .flatMap((x) =>
        removed.flatMap(({ r, own }) => {
          const shown = x.own === r.label || !own.length ? [] : shownIn(x.content, own);
          return shown.length
            ? [
                finding(
                  c,
                  r.data.nowhere!,
                  `${x.where} shows data of ${r.state} ${r.label}: ${shown.slice(0, 3).join(', ')}`,
                ),
              ]
            : [];
        }),
      );
  },
);

export const SOURCE_LISTED_WHERE_IT_LEFT = oracleClause(
  'SOURCE-LISTED-WHERE-IT-LEFT',
  'an identity listing among its sources a live record that a step took out of it (unlink, unmerge), or, where ' +
    'a source is held by a single identity (person), that another identity holds',
  ['state:effect.absentFrom', 'state:effect.unlisted', 'state:queries.singleIdentity'],
  (j, c) => {
    const out: Finding[] = [];
    const single = j.spec.queries.singleIdentity;
    for (const [linkId, reply] of j.obs.identities) {
      if (reply.success !== true || reply.absent) continue;
      const answered = String(reply.content?.linkId);
      const group = current(j).get(answered);
      for (const s of groupedSources(reply.content)) {
        const r = j.m.records.find((x) => sameSource(x.source, s));
        if (!r || !isLive(r)) continue;
        const holds = j.obs.linkOf.get(r.label);
        // Only identities in use are judged: what a link ID no longer in use answers (itself, forwarded, an alias) is
        // open.
        if (group === undefined) continue;
        const left = r.data.absentFrom?.find((a) => a.group === group && r.group !== group);
        if (left)
          out.push(
            finding(
              c,
              left.cite,
              `identityIdQuery(${linkId}) answers ${answered}, which lists ${r.label}, though ${r.label} left it`,
            ),
          );
        else if (single && holds && holds !== answered)
          out.push(
            finding(
              c,
              single,
              `identityIdQuery(${linkId}) answers ${answered}, which lists ${r.label}, held by identity ${holds}`,
            ),
          );
      }
    }
    return out;
  },
);

export const DEPARTED_DATA_SHOWN = oracleClause(
  'DEPARTED-DATA-SHOWN',
  'the identity an unmerge took a record out of still showing values of that record (the data was "taken from" it)',
  ['state:effect.absentFrom'],
  (j, c) =>
    j.m.records.flatMap((r) => {
      const own = j.m.ownValues(r);
      return (r.data.absentFrom ?? [])
        .filter(
          (a) =>
            a.data && !((isLive(r) && r.group === a.group) || (r.state === 'retired' && r.mergedGroup === a.group)),
        )
        .flatMap((a) => {
          const link = j.links.get(a.group);
          const reply = link ? j.obs.identities.get(link) : undefined;
          const ours = groupedSources(reply?.content).every((s) => j.m.records.some((x) => sameSource(x.source, s)));
          const shown = reply?.success === true && own.length && ours ? shownIn(reply.content, own) : [];
          return shown.length
            ? [
                finding(
                  c,
                  a.cite,
                  `identity ${link} still shows data of ${r.label}, which left it: ${shown.slice(0, 3).join(', ')}`,
                ),
              ]
            : [];
        });
    }),
);

export const MERGED_DATA_MISSING = oracleClause(
  'MERGED-DATA-MISSING',
  "the survivor's identity showing none of the values of a source merged into it, where the survivor's identity " +
    'holds combined data (provider)',
  ['state:effect.withSurvivor'],
  (j, c) =>
    j.m.records.flatMap((r) => {
      const survivor = j.m.get(r.retiredInto ?? '');
      // The survivor's identity at the merge holds the combined data; once the survivor moved on (restored into a new
      // entity), it is not stated.
      if (
        r.state !== 'retired' ||
        !r.data.withSurvivor ||
        !survivor ||
        !isLive(survivor) ||
        survivor.group !== r.mergedGroup
      )
        return [];
      const link = j.links.get(survivor.group);
      const reply = link ? j.obs.identities.get(link) : undefined;
      const own = j.m.ownValues(r);
      if (reply?.success !== true || !own.length || shownIn(reply.content, own).length) return [];
      return [
        finding(
          c,
          r.data.withSurvivor,
          `the survivor's identity ${link} shows none of the data of ${r.label}, merged into it ` +
            `(${own.slice(0, 3).join(', ')})`,
        ),
      ];
    }),
);

export const RETURNED_DATA_MISSING = oracleClause(
  'RETURNED-DATA-MISSING',
  "a record's identity, right after a restore, unmerge or link brought the record into it, not showing its " +
    'values (all of them where it stands alone; any of them where the identity lists it)',
  ['state:effect.shownNow'],
  (j, c) =>
    j.plan.applied.shownNow.flatMap((s) => {
      const r = j.m.get(s.label)!;
      const own = j.m.ownValues(r);
      const link = isLive(r) && own.length ? j.links.get(r.group) : undefined;
      const reply = link ? j.obs.identities.get(link) : undefined;
      if (reply?.success !== true) return [];
      const shown = shownIn(reply.content, own);
      if (s.how === 'all' && j.m.members(r.group).length === 1) {
        const missing = own.filter((v) => !shown.includes(v));
        return missing.length
          ? [
              finding(
                c,
                s.cite,
                `identity ${link} of ${r.label} alone does not show its data: ${missing.slice(0, 3).join(', ')}`,
              ),
            ]
          : [];
      }
      return groupedSources(reply.content).some((g) => sameSource(g, r.source)) && !shown.length
        ? [finding(c, s.cite, `identity ${link} lists ${r.label} among its sources but shows none of its data`)]
        : [];
    }),
);

// --- Searches with the step's records' data ---

export const EXCLUDED_RECORD_MATCHED = oracleClause(
  'EXCLUDED-RECORD-MATCHED',
  'a search returning an identity whose records are all excluded from matching (person: deactivated)',
  ['state:queries.excludedFromMatching'],
  (j, c) => {
    const excluded = j.spec.queries.excludedFromMatching;
    if (!excluded) return [];
    const now = current(j);
    return [...j.obs.searches].flatMap(([label, reply]) =>
      reply.success !== true
        ? []
        : resultLinkIds(reply).flatMap((l) => {
            const group = now.get(l);
            const members = group === undefined ? [] : j.m.members(group);
            return members.length && members.every((r) => r.state === 'deactivated')
              ? [
                  finding(
                    c,
                    excluded,
                    `a search with ${label}'s data returns ${l}, whose records (${labels(members)}) are all ` +
                      `deactivated`,
                  ),
                ]
              : [];
          }),
    );
  },
);

export const INACTIVE_RECORD_MATCHED = oracleClause(
  'INACTIVE-RECORD-MATCHED',
  'a search result presenting, under a link ID no live record resolves to any more, values of a record that ' +
    'left its identity for no live one: merged into another ("a single surviving identity results") or, where ' +
    'soft-deleted sources are not found (profile softDeletedLookup = absent), soft-deleted ("no longer active")',
  ['state:effect', 'state:queries.softDeletedAbsent', 'walk.rejectedNoChange'],
  (j, c) => {
    const now = current(j);
    const inactive = (r: ModelRecord) =>
      r.state === 'retired' || (r.state === 'soft-deleted' && j.softDeletedLookup === 'absent' && !r.data.nowhere);
    return [...j.obs.searches].flatMap(([label, reply]) =>
      reply.success !== true
        ? []
        : (Array.isArray(reply.content?.searchResults) ? reply.content.searchResults : []).flatMap((result: any) => {
            const l = result?.linkId;
            if (typeof l !== 'string' || now.has(l)) return [];
            return [...(j.m.linkHistory.get(l) ?? [])]
              .map((h) => j.m.get(h)!)
              .filter((r) => r && inactive(r))
              .flatMap((r) => {
                const shown = shownIn(result, j.m.ownValues(r));
                return shown.length
                  ? [
                      finding(
                        c,
                        j.plan.applied.cites.get(r.label) ?? r.since ?? j.plan.step,
                        `a search with ${label}'s data returns ${l}, the identity ${r.state} ${r.label} left, ` +
                          `with its data: ${shown.slice(0, 3).join(', ')}`,
                      ),
                    ]
                  : [];
              });
          }),
    );
  },
);

// --- Link IDs a step pins ---

export const LINK_NOT_ORIGINAL = oracleClause(
  'LINK-NOT-ORIGINAL',
  'a record that must return to its original link ID (person reactivate) in an identity with another link ID',
  ['state:effect.sameLink'],
  (j, c) =>
    j.plan.applied.sameLink.flatMap((s) => {
      const r = j.m.get(s.label)!;
      const [was, now] = [j.plan.before.get(s.group), j.links.get(r.group)];
      return was && now && now !== was
        ? [finding(c, s.cite, `${r.label} was in identity ${was}, but is now in ${now}`)]
        : [];
    }),
);

export const LINK_NOT_NEW = oracleClause(
  'LINK-NOT-NEW',
  'a record that must be split into a new link ID of its own (person unlink, unmerge) in an identity whose link ' +
    'ID was seen before',
  ['state:effect.fresh'],
  (j, c) =>
    j.plan.applied.freshLink.flatMap((s) => {
      const r = j.m.get(s.label)!;
      const now = j.links.get(r.group);
      return now && j.m.linkHistory.has(now)
        ? [finding(c, s.cite, `${r.label} is in identity ${now}, a link ID seen before, not a new one`)]
        : [];
    }),
);
