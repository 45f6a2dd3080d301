/**
 * Valid requests: per operation of the check's service, the operations table's example request (OperationSpec.example)
 * on records the check owns (two posted records A and B with their link IDs, an unposted source with an identity for
 * postIdentity, optionally a relationship the check added), and the prior state an operation needs before that request
 * can succeed (restore needs a soft-deleted source, unmerge a merge, and so on). Checks that send every operation
 * (envelope, bad credentials, bad input) start from these.
 * Source: organization-identity-api.md, Endpoints; person-provider-identity-api.md, Endpoints (members "not shown"
 * there follow the profile, harness/profile.ts).
 */
import type { Check } from '../../harness/check.js';
import { wireNames } from '../../harness/guard.js';
import { type Profile, relationshipMembers } from '../../harness/profile.js';
import type { ExampleContext, ServiceName } from '../../specs/common/model.js';
import { SERVICES, operation } from '../../specs/services.js';
import type { OperationName } from '../../specs/common/operation-names.js';
import type { SourceRef } from '../../specs/common/wire.js';
import { rowOf } from '../../specs/state/state-spec.js';
import type { SourceStepName } from '../../specs/state/step-names.js';
import { postContent } from '../../generators/common.js';
import type { steps } from './steps.js';
import { RELATIONSHIP_WITHOUT_ID, relationshipWithoutId } from '../../specs/clauses/relationships.js';

export interface RequestContext {
  t: Check;
  a: SourceRef;
  b: SourceRef;
  linkA: string;
  linkB: string;
  /** A run-owned source nobody posted, and an identity on it (postIdentity; must stay unstored). */
  fresh: SourceRef;
  identity: Record<string, unknown>;
  /** The identity demographicsSearch and demographicsQuery send (default: `identity`). */
  queryIdentity?: Record<string, unknown>;
  /** A relationship the check added (deleteRelationshipService names it). */
  relationshipId?: string;
}

/** A source reference as the wire carries it: only its name and native ID. */
export const src = (s: SourceRef) => ({ name: s.name, id: s.id });

/**
 * addRelationshipService content relating two link IDs, with the verbs, status and domain of the profile and its member
 * names for subject and object (harness/profile.ts `relationship`).
 */
export function relationshipContent(t: Check, subject: string, object: string, extra: Record<string, unknown> = {}) {
  const r = t.profile.relationship;
  const m = relationshipMembers(t.profile, t.service);
  return {
    relationship: {
      relationshipVerb: r.verb,
      ...(r.inverseVerb ? { inverseRelationshipVerb: r.inverseVerb } : {}),
      [m.subject]: subject,
      [m.object]: object,
      ...(r.status ? { status: r.status } : {}),
      ...(r.domain ? { domain: r.domain } : {}),
      startDate: new Date(Date.UTC(2024, 0, 1)).toISOString(),
      ...extra,
    },
  };
}

/**
 * A valid request per operation of the check's service, from each operation's `example` in the operations table
 * (specs/<service>/operations.ts), naming only the check's own records; createDataSource only where the profile lets
 * the run create data sources.
 */
export function validRequests(ctx: RequestContext): Partial<Record<OperationName, Record<string, unknown>>> {
  const { t } = ctx;
  const example: ExampleContext = {
    a: src(ctx.a),
    b: src(ctx.b),
    linkA: ctx.linkA,
    linkB: ctx.linkB,
    post: postContent(ctx.identity, ctx.fresh, t.profile.sourcePlacement),
    queryIdentity: ctx.queryIdentity ?? ctx.identity,
    ...(ctx.relationshipId !== undefined ? { relationshipId: ctx.relationshipId } : {}),
    names: wireNames(t.profile, t.service),
    relationship: (subject, object) => relationshipContent(t, subject, object),
    notificationPage: {
      pageNumber: t.profile.notifications.firstPage,
      pageSize: t.profile.notifications.pageSize,
      startDate: new Date(Date.now() - 3600_000).toISOString(),
      endDate: new Date().toISOString(),
    },
    ...(t.profile.createDataSources
      ? { newDataSource: `${t.run.namespace}ds-auth-${t.faker.string.alphanumeric({ length: 6, casing: 'lower' })}` }
      : {}),
  };
  return Object.fromEntries(
    SERVICES[t.service].operations.map((op) => [op.name, op.example(example)]).filter(([, c]) => c !== undefined),
  );
}

/**
 * The state an operation's valid request needs first, brought about on the check's records A and B: restore a
 * soft-deleted source, reactivate a deactivated one, unmerge a merge, unlink a link, delete a relationship the check
 * added. Returns what the request then names.
 * Source: organization-identity-api.md, States and transitions; person-provider-identity-api.md, States and
 * transitions.
 */
type PriorState = (ctx: RequestContext, cites: string[]) => Promise<Partial<RequestContext>>;

/**
 * A state-table step sent as its row builds it (RowSpec.content), on `sources` in the order of the row's roles, which
 * must succeed. @throws ConformanceFailure (citing `cites`) when it is refused
 */
async function rowStep(
  t: Check,
  step: SourceStepName,
  sources: SourceRef[],
  cites: string[],
): Promise<Partial<RequestContext>> {
  const row = rowOf(SERVICES[t.service].stateSpec, step);
  await t.ok(row.operation, row.content(sources.map(src), t.profile.members), { cites });
  return {};
}

const PRIOR_STATE: Partial<Record<OperationName, PriorState>> = {
  restoreSource: ({ t, a }, cites) => rowStep(t, 'soft delete', [a], cites),
  reactivateSourceWs: ({ t, a }, cites) => rowStep(t, 'deactivate', [a], cites),
  unmergeIdentities: ({ t, a, b }, cites) => rowStep(t, 'merge', [a, b], cites),
  unlinkIdentities: ({ t, a, b }, cites) => rowStep(t, 'link', [a, b], cites),
  // Not a state-table row: the relationship is the check's, added by the request the profile shapes.
  deleteRelationshipService: async ({ t, linkA, linkB }, cites) => {
    const added = await t.ok('addRelationshipService', relationshipContent(t, linkA, linkB), { cites });
    t.judge(RELATIONSHIP_WITHOUT_ID, cites, relationshipWithoutId(added.content?.relationship), added);
    return { relationshipId: added.content!.relationship!.id as string };
  },
};

type Kit = Pick<ReturnType<typeof steps>, 'make' | 'postNew'>;

/** Stand for the check's records A and B when asking what an example request names. */
const MARK = 'mark:record-of-the-check';
const MARK_B = 'mark:second-record-of-the-check';

/** The example request of `op` (OperationSpec.example) with marks where it names the check's records, as text. */
function markedExample(service: ServiceName, profile: Profile, op: OperationName): string {
  const [a, b] = [
    { name: MARK, id: MARK },
    { name: MARK_B, id: MARK_B },
  ];
  const example = operation(service, op).example({
    a,
    b,
    linkA: MARK,
    linkB: MARK_B,
    post: {},
    queryIdentity: { mark: MARK },
    relationshipId: MARK,
    names: wireNames(profile, service),
    relationship: (subject, object) => ({ subject, object }),
    notificationPage: {},
    newDataSource: 'data-source',
  });
  return JSON.stringify(example ?? {});
}

/**
 * True when the example request of `op` names the check's record A or B, their link IDs or A's identity, so they must
 * be posted first; false for one that names none.
 */
export function namesRecords(service: ServiceName, profile: Profile, op: OperationName): boolean {
  return markedExample(service, profile, op).includes('mark:');
}

/**
 * True when the example request of `op`, or the state it needs first (PRIOR_STATE), names the check's second record B.
 */
export function namesSecondRecord(service: ServiceName, profile: Profile, op: OperationName): boolean {
  return (
    markedExample(service, profile, op).includes(MARK_B) ||
    ['unmergeIdentities', 'unlinkIdentities', 'deleteRelationshipService'].includes(op)
  );
}

/**
 * A valid request for `op` on fresh records of the check: posts A and B where the request names them (namesRecords),
 * brings about the state the operation needs (PRIOR_STATE) and returns the request content of `validRequests`;
 * undefined for createDataSource when the profile does not let the run create data sources. demographicsSearch and
 * demographicsQuery send A's identity, so they find it.
 * @throws ConformanceFailure (citing `cites`) when a posting or a prior step is refused.
 */
export async function exerciseRequest(
  kit: Kit,
  t: Check,
  op: OperationName,
  cites: string[],
): Promise<Record<string, unknown> | undefined> {
  if (!namesRecords(t.service, t.profile, op)) {
    // postIdentity, searchNotifications, createDataSource: no record to post first.
    const fresh = kit.make(t);
    return validRequests({
      t,
      a: fresh.source,
      b: fresh.source,
      linkA: '',
      linkB: '',
      fresh: fresh.source,
      identity: fresh.identity,
    })[op];
  }
  // B is posted only where the request (or the state it needs) names it: a posting costs a lookup and a removal too.
  const ctx = await postedContext(kit, t, cites, namesSecondRecord(t.service, t.profile, op));
  const prior = await PRIOR_STATE[op]?.(ctx, cites);
  return validRequests({ ...ctx, ...prior })[op];
}

/**
 * The records a valid request names, made for the check: A and B posted (and read back for their link IDs), a fresh
 * source with an identity left unposted; search and query send A's identity.
 * @throws ConformanceFailure (citing `cites`) when a posting is refused.
 */
export async function postedContext(kit: Kit, t: Check, cites: string[], withB = true): Promise<RequestContext> {
  const fresh = kit.make(t);
  const [a, b] = await Promise.all([kit.postNew(t, cites), withB ? kit.postNew(t, cites) : undefined]);
  // Without B the request names A alone: B stands for A, so nothing names a record that was never posted.
  if (!b)
    return {
      t,
      a: a.source,
      b: a.source,
      linkA: a.linkId,
      linkB: a.linkId,
      fresh: fresh.source,
      identity: fresh.identity,
      queryIdentity: a.identity,
    };
  return {
    t,
    a: a.source,
    b: b.source,
    linkA: a.linkId,
    linkB: b.linkId,
    fresh: fresh.source,
    identity: fresh.identity,
    queryIdentity: a.identity,
  };
}
