/**
 * The whole-state oracle's clauses (specs/state/oracle-lookups.ts, oracle-data.ts, households.ts), each judged on
 * observations built by hand: per clause at least one observation its sentence forbids is rejected,
 * citing the requirement and sentence it rests on, and at least two legal ones are accepted, one of
 * them an answer the embedded reference never gives (marked `unlikeReference`). A clause widened to
 * reject a legal observation turns its accept rows red. Every judgement of ORACLE_JUDGES has rows
 * (the last test), so a new clause cannot go untested.
 */
import { describe, expect, it } from 'vitest';
import { type Reply, answerOf } from '../harness/reply.js';
import type { Answer } from '../specs/common/answer.js';
import type { Cite, Finding } from '../specs/common/clause.js';
import { emptyApplied } from '../specs/state/state-engine.js';
import type { StateSpec } from '../specs/state/state-spec.js';
import { organizationStateSpec } from '../specs/organization/state-spec.js';
import { personStateSpec } from '../specs/person/state-spec.js';
import { providerStateSpec } from '../specs/provider/state-spec.js';
import { IdentityModel, type ModelRecord, type RecordState } from '../specs/state/identity-model.js';
import { HOUSEHOLDS } from '../specs/state/households.js';
import type { Judging, OracleJudge } from '../specs/state/observation.js';
import { ORACLE_JUDGES } from '../specs/state/oracle.js';
import {
  DEPARTED_DATA_SHOWN,
  EXCLUDED_RECORD_MATCHED,
  INACTIVE_RECORD_MATCHED,
  LINK_NOT_NEW,
  LINK_NOT_ORIGINAL,
  MERGED_DATA_MISSING,
  REMOVED_SOURCE_DATA_SHOWN,
  REMOVED_SOURCE_LISTED,
  RETURNED_DATA_MISSING,
  SOURCE_LISTED_WHERE_IT_LEFT,
} from '../specs/state/oracle-data.js';
import {
  DELETED_IDENTITY_PRESENTED,
  DELETED_SOURCE_FOUND,
  LINK_IN_USE_NOT_FOUND,
  LINK_IN_USE_OTHER_IDENTITY,
  LIVE_RECORD_NOT_FOUND,
  ONE_IDENTITY_SPLIT,
  REQUESTED_LINK_ECHO,
  RETIRED_RESOLVES_ELSEWHERE,
  SEPARATE_IDENTITIES_JOINED,
  SOFT_DELETED_SOURCE_FOUND,
} from '../specs/state/oracle-lookups.js';

// --- Building observations by hand ---

const reply = (content: unknown, success = true, status = 200) =>
  answerOf({
    exchange: {
      service: 'x',
      operation: 'x',
      method: 'POST',
      url: 'http://127.0.0.1:9/x',
      startedAt: '',
      durationMs: 1,
      request: { headers: {}, body: {} },
    },
    status,
    body: { success, content },
    content,
    success,
  } as Reply);
/** A rejection: the deployment found nothing (HTTP 404, success=false). */
const notFound = () => reply(null, false, 404);
/** An identity reply: its link ID, the sources it lists and the values it shows. */
const identity = (
  linkId: string,
  sources: ModelRecord[] = [],
  values: string[] = [],
  extra: Record<string, unknown> = {},
) =>
  reply({
    linkId,
    identity: { organizationNames: values.map((v) => ({ legalBusinessName: v })) },
    identityGroupedBySource: sources.map((r) => ({ source: { name: r.source.name, id: r.source.id } })),
    ...extra,
  });

interface World {
  m: IdentityModel;
  rec(label: string, state: RecordState, group: number, more?: Partial<ModelRecord>): ModelRecord;
  j: Judging;
  /** nativeIdQuery of `label` resolves to `linkId` (a reply listing the record and showing `values`), or finds nothing. */
  found(label: string, linkId: string | undefined, values?: string[]): void;
}

const cite = (requirement: string): Cite => ({
  requirement,
  forbids: { file: 'organization-identity-api.md', section: 'S', quote: 'q' },
});

function world(spec: StateSpec = organizationStateSpec): World {
  const m = new IdentityModel();
  const j: Judging = {
    m,
    spec,
    links: new Map(),
    softDeletedLookup: 'absent',
    obs: {
      linkOf: new Map(),
      lookups: new Map(),
      identities: new Map(),
      searches: new Map(),
      householdsBySource: new Map(),
      householdsByLink: new Map(),
      householdsById: new Map(),
    },
    plan: { applied: emptyApplied([]), step: cite('STEP'), joined: cite('JOINED'), probes: [], before: new Map() },
  };
  return {
    m,
    j,
    rec(label, state, group, more = {}) {
      const r: ModelRecord = {
        label,
        state,
        group,
        source: { name: 'cf_test_a', id: `cf-${label}` },
        identity: {},
        data: {},
        ...more,
      };
      m.records.push(r);
      return r;
    },
    found(label, linkId, values = []) {
      const r = m.get(label)!;
      j.obs.linkOf.set(label, linkId);
      j.obs.lookups.set(label, linkId ? identity(linkId, [r], values) : notFound());
      if (linkId && (r.state === 'active' || r.state === 'deactivated')) j.links.set(r.group, linkId);
    },
  };
}

/** One observation a clause must reject (`reject`: the requirement it cites) or accept. */
interface Row {
  what: string;
  build(): World;
  reject?: string;
  /** A legal observation the embedded reference never gives (without variants). */
  unlikeReference?: boolean;
}

const CASES = new Map<OracleJudge, Row[]>();
const cases = (c: OracleJudge, rows: Row[]) => CASES.set(c, rows);

// --- Where each record resolves ---

cases(LIVE_RECORD_NOT_FOUND, [
  {
    what: 'an active record that nativeIdQuery does not find',
    reject: 'STEP',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.found('A', undefined);
      return w;
    },
  },
  {
    what: 'an active record found in its identity',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.found('A', 'L1');
      return w;
    },
  },
  {
    what: 'an active record found by a minimal reply: a link ID and nothing else',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.j.obs.linkOf.set('A', 'L1');
      w.j.obs.lookups.set('A', reply({ linkId: 'L1' }));
      return w;
    },
  },
]);

cases(ONE_IDENTITY_SPLIT, [
  {
    what: 'two records of one identity under two link IDs (the link moved B: its effect is cited)',
    reject: 'ORG-LINK-EFFECT',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'active', 1);
      w.j.plan.applied.cites.set('B', cite('ORG-LINK-EFFECT'));
      w.found('A', 'L1');
      w.found('B', 'L2');
      return w;
    },
  },
  {
    what: 'two records of one identity under one link ID',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'active', 1);
      w.found('A', 'L1');
      w.found('B', 'L1');
      return w;
    },
  },
  {
    what: 'a link ID as a URN, and a merged record found by nothing',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'active', 1);
      w.rec('C', 'retired', 0, { retiredInto: 'A', mergedGroup: 1 });
      w.found('A', 'urn:id:1');
      w.found('B', 'urn:id:1');
      w.found('C', undefined);
      return w;
    },
  },
]);

cases(SEPARATE_IDENTITIES_JOINED, [
  {
    what: 'an unlinked record sharing the link ID of the identity it left (the unlink is cited)',
    reject: 'ORG-UNLINK-EFFECT',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'active', 2);
      w.j.plan.applied.cites.set('B', cite('ORG-UNLINK-EFFECT'));
      w.found('A', 'L1');
      w.found('B', 'L1');
      return w;
    },
  },
  {
    what: 'two identities no step separated sharing a link ID (the step cites what being joined breaks)',
    reject: 'JOINED',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'active', 2);
      w.found('A', 'L1');
      w.found('B', 'L1');
      return w;
    },
  },
  {
    what: 'two identities under two link IDs',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'active', 2);
      w.found('A', 'L1');
      w.found('B', 'L2');
      return w;
    },
  },
  {
    what: 'two identities under numeric link IDs, one of them the other with a suffix',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'active', 2);
      w.found('A', '1000');
      w.found('B', '10001');
      return w;
    },
  },
]);

cases(DELETED_SOURCE_FOUND, [
  {
    what: 'a hard-deleted source that nativeIdQuery still resolves (the step that deleted it is cited)',
    reject: 'ORG-HARDDELETE-EFFECT',
    build: () => {
      const w = world();
      w.rec('A', 'deleted', 1, { data: { nowhere: cite('ORG-HARDDELETE-EFFECT') } });
      w.j.plan.applied.cites.set('A', cite('ORG-HARDDELETE-EFFECT'));
      w.found('A', 'L1');
      return w;
    },
  },
  {
    what: 'a hard-deleted source that nativeIdQuery rejects',
    build: () => {
      const w = world();
      w.rec('A', 'deleted', 1, { data: { nowhere: cite('ORG-HARDDELETE-EFFECT') } });
      w.found('A', undefined);
      return w;
    },
  },
  {
    what: 'a hard-deleted source that nativeIdQuery accepts with a null link ID',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.rec('A', 'deleted', 1, { data: { nowhere: cite('ORG-HARDDELETE-EFFECT') } });
      w.j.obs.linkOf.set('A', undefined);
      w.j.obs.lookups.set('A', reply({ linkId: null, identity: null }));
      return w;
    },
  },
]);

cases(SOFT_DELETED_SOURCE_FOUND, [
  {
    what: 'a soft-deleted source found where the profile says it is not (softDeletedLookup = absent)',
    reject: 'ORG-SOFTDELETE-EFFECT',
    build: () => {
      const w = world();
      w.rec('A', 'soft-deleted', 1);
      w.found('A', 'L1');
      return w;
    },
  },
  {
    what: 'a soft-deleted source not found',
    build: () => {
      const w = world();
      w.rec('A', 'soft-deleted', 1);
      w.found('A', undefined);
      return w;
    },
  },
  {
    what: 'a soft-deleted source still found with its preserved data, where the profile allows it (softDeletedLookup = any)',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.j.softDeletedLookup = 'any';
      w.rec('A', 'soft-deleted', 1);
      w.found('A', 'L1', ['acmepreserved']);
      return w;
    },
  },
]);

cases(RETIRED_RESOLVES_ELSEWHERE, [
  {
    what: "a merged source resolving to an identity other than its survivor's (a later step that freed it is cited)",
    reject: 'STEP',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'retired', 2, { retiredInto: 'A', mergedGroup: 1 });
      w.found('A', 'L1');
      w.found('B', 'L2');
      return w;
    },
  },
  {
    what: "a merged source resolving to its survivor's identity",
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'retired', 2, { retiredInto: 'A', mergedGroup: 1 });
      w.found('A', 'L1');
      w.found('B', 'L1');
      return w;
    },
  },
  {
    what: 'a merged source that nativeIdQuery does not find (it is inactive)',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.rec('B', 'retired', 2, { retiredInto: 'A', mergedGroup: 1 });
      w.found('A', 'L1');
      w.found('B', undefined);
      return w;
    },
  },
]);

// --- What identityIdQuery answers ---

cases(REQUESTED_LINK_ECHO, [
  {
    what: 'an answer whose requestedLinkId is another link ID',
    reject: 'ORG-IDQUERY-ECHO',
    build: () => {
      const w = world();
      w.j.obs.identities.set('L1', identity('L1', [], [], { requestedLinkId: 'L2' }));
      return w;
    },
  },
  {
    what: 'an answer echoing the link ID asked',
    build: () => {
      const w = world();
      w.j.obs.identities.set('L1', identity('L1', [], [], { requestedLinkId: 'L1' }));
      return w;
    },
  },
  {
    what: 'a link ID no longer in use answering the identity its record went into, echoing the link ID asked',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.j.obs.identities.set('L9', identity('L1', [], [], { requestedLinkId: 'L9' }));
      return w;
    },
  },
]);

cases(LINK_IN_USE_NOT_FOUND, [
  {
    what: 'identityIdQuery of a link ID in use finding nothing',
    reject: 'ORG-IDQUERY-RETURNS',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.found('A', 'L1');
      w.j.obs.identities.set('L1', notFound());
      return w;
    },
  },
  {
    what: 'identityIdQuery of a link ID in use finding it',
    build: () => {
      const w = world();
      const a = w.rec('A', 'active', 1);
      w.found('A', 'L1');
      w.j.obs.identities.set('L1', identity('L1', [a]));
      return w;
    },
  },
  {
    what: 'identityIdQuery of a link ID no longer in use finding nothing, and another answering itself with no sources',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.found('A', 'L1');
      w.j.obs.identities.set('L8', notFound());
      w.j.obs.identities.set('L9', identity('L9', [], [], { requestedLinkId: 'L9' }));
      return w;
    },
  },
]);

cases(LINK_IN_USE_OTHER_IDENTITY, [
  {
    what: 'identityIdQuery of a link ID in use answering another identity',
    reject: 'ORG-IDQUERY-RETURNS',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.found('A', 'L1');
      w.j.obs.identities.set('L1', identity('L2'));
      return w;
    },
  },
  {
    what: 'identityIdQuery of a link ID in use answering it',
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.found('A', 'L1');
      w.j.obs.identities.set('L1', identity('L1'));
      return w;
    },
  },
  {
    what: 'identityIdQuery of a link ID no longer in use answering an unrelated live identity',
    unlikeReference: true,
    build: () => {
      const w = world();
      w.rec('A', 'active', 1);
      w.found('A', 'L1');
      w.j.obs.identities.set('L9', identity('LX-of-another-user', [], ['somebodyelse'], { requestedLinkId: 'L9' }));
      return w;
    },
  },
]);

/** Person: A was the only source record of identity L5 and was hard-deleted (the whole identity with it). */
function goneIdentity(): World {
  const w = world(personStateSpec);
  w.rec('A', 'deleted', 1, { data: { nowhere: cite('PERSON-DELETE-PHYSICAL') } });
  w.rec('B', 'active', 2);
  w.found('A', undefined);
  w.found('B', 'L2');
  w.m.goneLinks.set('L5', cite('PERSON-DELETE-ONLY-SOURCE'));
  return w;
}

cases(DELETED_IDENTITY_PRESENTED, [
  {
    what: 'person: identityIdQuery still answering, as itself and empty, an identity deleted with its only source record',
    reject: 'PERSON-DELETE-ONLY-SOURCE',
    build: () => {
      const w = goneIdentity();
      w.j.obs.identities.set('L5', identity('L5', [], [], { requestedLinkId: 'L5' }));
      return w;
    },
  },
  {
    what: 'person: a search returning an identity deleted with its only source record',
    reject: 'PERSON-DELETE-ONLY-SOURCE',
    build: () => {
      const w = goneIdentity();
      w.j.obs.searches.set('A', reply({ searchResults: [{ linkId: 'L5', matchScore: 1 }] }));
      return w;
    },
  },
  {
    what: 'person: the deleted identity finds nothing',
    build: () => {
      const w = goneIdentity();
      w.j.obs.identities.set('L5', notFound());
      return w;
    },
  },
  {
    what: "person: the deleted identity's link ID answering another identity, echoing the link ID asked",
    unlikeReference: true,
    build: () => {
      const w = goneIdentity();
      w.j.obs.identities.set('L5', identity('L2', [w.m.get('B')!], [], { requestedLinkId: 'L5' }));
      return w;
    },
  },
]);

// --- Which sources an identity lists, and whose data it shows ---

/** Organization: A and B were linked in L1; B was merged ... then hard-deleted; its own values were `zylofraxb`. */
function deletedB(): World {
  const w = world();
  const a = w.rec('A', 'active', 1, { values: ['acmealpha'] });
  w.rec('B', 'deleted', 1, { values: ['zylofraxb'], data: { nowhere: cite('ORG-HARDDELETE-EFFECT') } });
  w.found('A', 'L1', ['acmealpha']);
  w.found('B', undefined);
  w.m.linkHistory.set('L1', new Set(['A', 'B']));
  w.m.linkHistory.set('LB', new Set(['B']));
  void a;
  return w;
}

cases(REMOVED_SOURCE_LISTED, [
  {
    what: 'an identity listing a hard-deleted source among its sources',
    reject: 'ORG-HARDDELETE-EFFECT',
    build: () => {
      const w = deletedB();
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!, w.m.get('B')!], ['acmealpha']));
      return w;
    },
  },
  {
    what: 'an identity listing only its live source',
    build: () => {
      const w = deletedB();
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha']));
      return w;
    },
  },
  {
    what: 'a soft-deleted provider source listed again after an open step made its state unknown (a second soft delete, then a restore)',
    unlikeReference: true,
    build: () => {
      const w = deletedB();
      w.m.get('B')!.state = 'unknown';
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!, w.m.get('B')!], ['acmealpha']));
      return w;
    },
  },
  {
    what: "the deleted source's former link ID, reported in linkIdsDeleted, still answering, forwarded to A's identity, listing A only",
    unlikeReference: true,
    build: () => {
      const w = deletedB();
      w.j.obs.identities.set('LB', identity('L1', [w.m.get('A')!], ['acmealpha'], { requestedLinkId: 'LB' }));
      return w;
    },
  },
]);

cases(REMOVED_SOURCE_DATA_SHOWN, [
  {
    what: "a link ID reported in linkIdsDeleted still answering with the deleted source's data",
    reject: 'ORG-HARDDELETE-EFFECT',
    build: () => {
      const w = deletedB();
      w.j.obs.identities.set('LB', identity('LB', [], ['Zylofrax B'], { requestedLinkId: 'LB' }));
      return w;
    },
  },
  {
    what: "another record's lookup showing the deleted source's data",
    reject: 'ORG-HARDDELETE-EFFECT',
    build: () => {
      const w = deletedB();
      w.j.obs.lookups.set('A', identity('L1', [w.m.get('A')!], ['acmealpha', 'zylofrax-b']));
      return w;
    },
  },
  {
    what: "the deleted source's former link ID forwarded to A's identity, showing A's data only",
    unlikeReference: true,
    build: () => {
      const w = deletedB();
      w.j.obs.identities.set('LB', identity('L1', [w.m.get('A')!], ['acmealpha'], { requestedLinkId: 'LB' }));
      return w;
    },
  },
  {
    what: "A's identity, which another user's source has joined, showing a word the deleted source also had",
    unlikeReference: true,
    build: () => {
      const w = deletedB();
      const theirs = { source: { name: 'cf_other_user', id: 'x-1' } } as unknown as ModelRecord;
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!, theirs], ['acmealpha', 'zylofraxb']));
      return w;
    },
  },
  {
    what: "the deleted source's former link ID answering another user's identity that happens to show the same word",
    unlikeReference: true,
    build: () => {
      const w = deletedB();
      w.j.obs.identities.set('LB', identity('LX-of-another-user', [], ['zylofraxb'], { requestedLinkId: 'LB' }));
      return w;
    },
  },
]);

cases(SOURCE_LISTED_WHERE_IT_LEFT, [
  {
    what: 'organization: the identity a record was unlinked from still listing it',
    reject: 'ORG-UNLINK-EFFECT',
    build: () => {
      const w = world();
      const a = w.rec('A', 'active', 1);
      const b = w.rec('B', 'active', 2, {
        data: { absentFrom: [{ group: 1, cite: cite('ORG-UNLINK-EFFECT'), data: false }] },
      });
      w.found('A', 'L1');
      w.found('B', 'L2');
      w.j.obs.identities.set('L1', identity('L1', [a, b]));
      return w;
    },
  },
  {
    what: 'person: an identity in use listing a record another identity holds',
    reject: 'PERSON-NATIVEID-QUERY',
    build: () => {
      const w = world(personStateSpec);
      const a = w.rec('A', 'active', 1);
      const b = w.rec('B', 'active', 2);
      w.found('A', 'L1');
      w.found('B', 'L2');
      w.j.obs.identities.set('L1', identity('L1', [a, b]));
      return w;
    },
  },
  {
    what: 'the identity a record was unlinked from listing its own source only',
    build: () => {
      const w = world();
      const a = w.rec('A', 'active', 1);
      w.rec('B', 'active', 2, { data: { absentFrom: [{ group: 1, cite: cite('ORG-UNLINK-EFFECT'), data: false }] } });
      w.found('A', 'L1');
      w.found('B', 'L2');
      w.j.obs.identities.set('L1', identity('L1', [a]));
      return w;
    },
  },
  {
    what: 'organization: the identity a record was linked away from still listing it beside its other source (open)',
    unlikeReference: true,
    build: () => {
      const w = world();
      const a = w.rec('A', 'active', 1);
      const b = w.rec('B', 'active', 2);
      const c = w.rec('C', 'active', 3);
      w.found('A', 'L1');
      w.found('B', 'L2');
      w.found('C', 'L3');
      w.j.obs.identities.set('L3', identity('L3', [c, b]));
      void a;
      return w;
    },
  },
  {
    what: 'person: a link ID no longer in use answering as itself, listing a record another identity holds (an alias)',
    unlikeReference: true,
    build: () => {
      const w = world(personStateSpec);
      const b = w.rec('B', 'active', 2);
      w.found('B', 'L2');
      w.j.obs.identities.set('L9', identity('L9', [b], [], { requestedLinkId: 'L9' }));
      return w;
    },
  },
]);

/** B was unmerged from A's identity (group 1): its data was "taken from" it. */
function unmergedB(mark: { data: boolean }): World {
  const w = world();
  w.rec('A', 'active', 1, { values: ['acmealpha'] });
  w.rec('B', 'active', 2, {
    values: ['zylofraxb'],
    data: {
      absentFrom: [{ group: 1, cite: cite(mark.data ? 'ORG-UNMERGE-EFFECT' : 'ORG-UNLINK-EFFECT'), data: mark.data }],
    },
  });
  w.found('A', 'L1', ['acmealpha']);
  w.found('B', 'L2', ['zylofraxb']);
  return w;
}

cases(DEPARTED_DATA_SHOWN, [
  {
    what: "the identity B was unmerged from still showing B's data",
    reject: 'ORG-UNMERGE-EFFECT',
    build: () => {
      const w = unmergedB({ data: true });
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha', 'zylofraxb']));
      return w;
    },
  },
  {
    what: "the identity B was unmerged from showing A's data only",
    build: () => {
      const w = unmergedB({ data: true });
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha']));
      return w;
    },
  },
  {
    what: "the identity B was unlinked from still showing B's data as history (open)",
    unlikeReference: true,
    build: () => {
      const w = unmergedB({ data: false });
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha', 'zylofraxb']));
      return w;
    },
  },
]);

/** Provider: B merged into A (group 1); the survivor's identity holds combined data. */
function providerMerge(withSurvivor: boolean): World {
  const w = world(providerStateSpec);
  w.rec('A', 'active', 1, { values: ['acmealpha'] });
  w.rec('B', 'retired', 2, {
    retiredInto: 'A',
    mergedGroup: 1,
    values: ['zylofraxb', 'zylofraxstreet'],
    data: withSurvivor ? { withSurvivor: cite('PROV-MERGE-EFFECT') } : {},
  });
  w.found('A', 'L1', ['acmealpha']);
  w.found('B', 'L1');
  return w;
}

cases(MERGED_DATA_MISSING, [
  {
    what: "provider: the survivor's identity showing none of the merged source's data",
    reject: 'PROV-MERGE-EFFECT',
    build: () => {
      const w = providerMerge(true);
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha']));
      return w;
    },
  },
  {
    what: "provider: the survivor's identity showing all of it",
    build: () => {
      const w = providerMerge(true);
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha', 'zylofraxb', 'zylofraxstreet']));
      return w;
    },
  },
  {
    what: "provider: the survivor's identity showing one of its values only, in another casing",
    unlikeReference: true,
    build: () => {
      const w = providerMerge(true);
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha', 'ZYLOFRAX STREET']));
      return w;
    },
  },
  {
    what: "organization: the survivor's identity showing none of the merged source's data (not stated there)",
    unlikeReference: true,
    build: () => {
      const w = providerMerge(false);
      w.j.spec = organizationStateSpec;
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha']));
      return w;
    },
  },
]);

/** A restored (or unmerged) record that must show its data right after the step. */
function shownNow(how: 'all' | 'some', alone: boolean): World {
  const w = world();
  w.rec('A', 'active', 1, { values: ['acmealpha', 'acmestreet'] });
  if (!alone) w.rec('C', 'active', 1, { values: ['charlie'] });
  w.found('A', 'L1');
  if (!alone) w.found('C', 'L1');
  w.j.plan.applied.shownNow.push({ label: 'A', how, cite: cite('ORG-RESTORE-EFFECT') });
  return w;
}

cases(RETURNED_DATA_MISSING, [
  {
    what: 'a restored record alone in its identity, which shows only some of its data',
    reject: 'ORG-RESTORE-EFFECT',
    build: () => {
      const w = shownNow('all', true);
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['acmealpha']));
      return w;
    },
  },
  {
    what: 'a restored record alone in its identity, which shows all of its data',
    build: () => {
      const w = shownNow('all', true);
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!], ['Acme Alpha', 'acme-street']));
      return w;
    },
  },
  {
    what: 'a linked record listed in its new identity, which shows one of its values beside the other source',
    unlikeReference: true,
    build: () => {
      const w = shownNow('some', false);
      w.j.obs.identities.set('L1', identity('L1', [w.m.get('A')!, w.m.get('C')!], ['charlie', 'acmestreet']));
      return w;
    },
  },
]);

// --- Searches ---

function deactivated(alone: boolean): World {
  const w = world(personStateSpec);
  w.rec('A', 'deactivated', 1);
  if (!alone) w.rec('B', 'active', 1);
  w.found('A', 'L1');
  if (!alone) w.found('B', 'L1');
  return w;
}

cases(EXCLUDED_RECORD_MATCHED, [
  {
    what: 'person: a search returning an identity whose only record is deactivated',
    reject: 'PERSON-DEACTIVATE-EXCLUDES-MATCHING',
    build: () => {
      const w = deactivated(true);
      w.j.obs.searches.set('A', reply({ searchResults: [{ linkId: 'L1', matchScore: 1 }] }));
      return w;
    },
  },
  {
    what: 'person: a search not returning it',
    build: () => {
      const w = deactivated(true);
      w.j.obs.searches.set('A', reply({ searchResults: [{ linkId: 'LX', matchScore: 0.2 }] }));
      return w;
    },
  },
  {
    what: 'person: a search returning, without a score, an identity that also holds an active record',
    unlikeReference: true,
    build: () => {
      const w = deactivated(false);
      w.j.obs.searches.set('A', reply({ searchResults: [{ linkId: 'L1' }] }));
      return w;
    },
  },
]);

/** B was merged into A (L1); LB was B's identity before the merge. */
function mergedAway(state: 'retired' | 'soft-deleted' = 'retired'): World {
  const w = world();
  w.rec('A', 'active', 1, { values: ['acmealpha'] });
  w.rec('B', state, 2, { values: ['zylofraxb'], ...(state === 'retired' ? { retiredInto: 'A', mergedGroup: 1 } : {}) });
  w.j.plan.applied.cites.set('B', cite(state === 'retired' ? 'ORG-MERGE-EFFECT' : 'ORG-SOFTDELETE-EFFECT'));
  w.found('A', 'L1', ['acmealpha']);
  w.found('B', state === 'retired' ? 'L1' : undefined);
  w.m.linkHistory.set('LB', new Set(['B']));
  w.m.linkHistory.set('L1', new Set(['A']));
  return w;
}
const results = (...rs: Array<{ linkId: string; values: string[] }>) =>
  reply({
    searchResults: rs.map((r) => ({
      linkId: r.linkId,
      matchScore: 0.9,
      identity: { organizationNames: r.values.map((v) => ({ legalBusinessName: v })) },
    })),
  });

cases(INACTIVE_RECORD_MATCHED, [
  {
    what: "a search returning the merged-away identity's link ID with the retired source's data",
    reject: 'ORG-MERGE-EFFECT',
    build: () => {
      const w = mergedAway();
      w.j.obs.searches.set(
        'B',
        results({ linkId: 'L1', values: ['acmealpha', 'zylofraxb'] }, { linkId: 'LB', values: ['zylofraxb'] }),
      );
      return w;
    },
  },
  {
    what: 'organization: a search returning the identity of a soft-deleted source under its old link ID, with its data',
    reject: 'ORG-SOFTDELETE-EFFECT',
    build: () => {
      const w = mergedAway('soft-deleted');
      w.j.obs.searches.set('B', results({ linkId: 'LB', values: ['zylofraxb'] }));
      return w;
    },
  },
  {
    what: "a search returning the survivor's identity, which shows the retired source's data",
    build: () => {
      const w = mergedAway();
      w.j.obs.searches.set('B', results({ linkId: 'L1', values: ['acmealpha', 'zylofraxb'] }));
      return w;
    },
  },
  {
    what: "a search returning the merged-away link ID as an alias of the survivor, showing the survivor's own data",
    unlikeReference: true,
    build: () => {
      const w = mergedAway();
      w.j.obs.searches.set('B', results({ linkId: 'LB', values: ['acmealpha'] }));
      return w;
    },
  },
  {
    what: 'organization: a soft-deleted source still matched, where the profile says soft-deleted sources stay found (softDeletedLookup = any)',
    unlikeReference: true,
    build: () => {
      const w = mergedAway('soft-deleted');
      w.j.softDeletedLookup = 'any';
      w.j.obs.searches.set('B', results({ linkId: 'LB', values: ['zylofraxb'] }));
      return w;
    },
  },
]);

// --- Link IDs a step pins ---

cases(LINK_NOT_ORIGINAL, [
  {
    what: 'person: a reactivated record in an identity with another link ID than before',
    reject: 'PERSON-REACTIVATE-ORIGINAL-LINK',
    build: () => {
      const w = world(personStateSpec);
      w.rec('A', 'active', 1);
      w.found('A', 'L2');
      w.j.plan.before.set(1, 'L1');
      w.j.plan.applied.sameLink.push({ label: 'A', group: 1, cite: cite('PERSON-REACTIVATE-ORIGINAL-LINK') });
      return w;
    },
  },
  {
    what: 'person: a reactivated record back in its link ID',
    build: () => {
      const w = world(personStateSpec);
      w.rec('A', 'active', 1);
      w.found('A', 'L1');
      w.j.plan.before.set(1, 'L1');
      w.j.plan.applied.sameLink.push({ label: 'A', group: 1, cite: cite('PERSON-REACTIVATE-ORIGINAL-LINK') });
      return w;
    },
  },
  {
    what: 'person: a reactivated record whose link ID before the step was never observed (nothing to compare)',
    unlikeReference: true,
    build: () => {
      const w = world(personStateSpec);
      w.rec('A', 'active', 1);
      w.found('A', 'urn:person:7');
      w.j.plan.applied.sameLink.push({ label: 'A', group: 1, cite: cite('PERSON-REACTIVATE-ORIGINAL-LINK') });
      return w;
    },
  },
]);

cases(LINK_NOT_NEW, [
  {
    what: 'person: an unlinked record under a link ID seen before',
    reject: 'PERSON-UNLINK-OWN-LINKID',
    build: () => {
      const w = world(personStateSpec);
      w.rec('B', 'active', 2);
      w.found('B', 'L1');
      w.m.linkHistory.set('L1', new Set(['A', 'B']));
      w.j.plan.applied.freshLink.push({ label: 'B', cite: cite('PERSON-UNLINK-OWN-LINKID') });
      return w;
    },
  },
  {
    what: 'person: an unlinked record under a link ID never seen',
    build: () => {
      const w = world(personStateSpec);
      w.rec('B', 'active', 2);
      w.found('B', 'L7');
      w.m.linkHistory.set('L1', new Set(['A', 'B']));
      w.j.plan.applied.freshLink.push({ label: 'B', cite: cite('PERSON-UNLINK-OWN-LINKID') });
      return w;
    },
  },
  {
    what: 'person: an unlinked record under a new link ID in another format than the others',
    unlikeReference: true,
    build: () => {
      const w = world(personStateSpec);
      w.rec('B', 'active', 2);
      w.found('B', '00000000-0000-4000-8000-000000000001');
      w.m.linkHistory.set('L1', new Set(['A', 'B']));
      w.j.plan.applied.freshLink.push({ label: 'B', cite: cite('PERSON-UNLINK-OWN-LINKID') });
      return w;
    },
  },
]);

// --- Households ---

/** Person: A active in L1, and the replies of the three householdQuery forms. */
function household(bySource: Answer, byLink: Answer, byId: Answer | undefined): World {
  const w = world(personStateSpec);
  w.rec('A', 'active', 1);
  w.found('A', 'L1');
  w.j.obs.householdsBySource.set('A', bySource);
  w.j.obs.householdsByLink.set('L1', byLink);
  if (byId) w.j.obs.householdsById.set(String(byId.content?.householdId), byId);
  return w;
}
const hh = (householdId: string, links: string[]) => reply({ householdId, linkIdsInHousehold: links });

cases(HOUSEHOLDS, [
  {
    what: 'person: householdQuery by link ID answering a household without that link ID',
    reject: 'PERSON-HOUSEHOLD-BY-LINKID',
    build: () => household(hh('H1', ['L1']), hh('H1', ['L2']), hh('H1', ['L1'])),
  },
  {
    what: 'person: by source a household, by link ID none',
    reject: 'PERSON-HOUSEHOLD-BY-LINKID',
    build: () => household(hh('H1', ['L1']), notFound(), hh('H1', ['L1'])),
  },
  {
    what: 'person: by household ID other link IDs than by link ID',
    reject: 'PERSON-HOUSEHOLD-BY-ID',
    build: () => household(hh('H1', ['L1', 'L2']), hh('H1', ['L1', 'L2']), hh('H1', ['L1'])),
  },
  {
    what: 'person: the three forms agreeing',
    build: () => household(hh('H1', ['L1', 'L2']), hh('H1', ['L2', 'L1']), hh('H1', ['L1', 'L2'])),
  },
  {
    what: 'person: no form finding a household (how households form is not shown)',
    unlikeReference: true,
    build: () => household(notFound(), reply({ householdId: null, linkIdsInHousehold: [] }), undefined),
  },
]);

// --- The table, run ---

describe('the oracle clauses', () => {
  for (const [c, rows] of CASES)
    describe((c.clauses ?? [c as OracleJudge & { id: string }]).map((x) => x.id).join(' '), () => {
      for (const row of rows)
        it(`${row.reject ? 'rejects' : 'accepts'} ${row.what}`, () => {
          const found: Finding[] = c.judge(row.build().j);
          if (row.reject) {
            expect(found.length, JSON.stringify(found)).toBeGreaterThan(0);
            expect(found.map((f) => f.requirement)).toContain(row.reject);
            for (const f of found) expect(f.observed).toBeTruthy();
          } else expect(found, JSON.stringify(found, null, 1)).toEqual([]);
        });
    });

  it('every clause has a forbidden observation and two legal ones, one of them unlike the reference', () => {
    for (const c of ORACLE_JUDGES) {
      const rows = CASES.get(c) ?? [];
      const id = String((c as { id?: string }).id ?? c.clauses?.map((x) => x.id));
      expect(rows.filter((r) => r.reject).length, id).toBeGreaterThanOrEqual(1);
      expect(rows.filter((r) => !r.reject).length, id).toBeGreaterThanOrEqual(2);
      expect(rows.filter((r) => !r.reject && r.unlikeReference).length, id).toBeGreaterThanOrEqual(1);
    }
  });

  it('every finding cites a sentence of the seeds or an EXPECT requirement, through the state tables', () => {
    // The rows above cite stand-ins; the specifications' own cites carry the forbidding sentences.
    for (const spec of [organizationStateSpec, personStateSpec, providerStateSpec]) {
      const q = spec.queries;
      for (const c of [
        q.nativeId,
        q.idQueryReturns,
        q.idQueryEcho,
        q.softDeletedAbsent,
        q.deletedIdentityGone,
        q.singleIdentity,
        q.excludedFromMatching,
      ])
        if (c) expect(c.forbids, `${spec.service} ${c.requirement}`).toBeDefined();
    }
  });
});
