/**
 * Attaching roles to a service's requirement catalogue (specs/common/model.ts Requirement.roles): the table maps each
 * role to the requirement that plays it in this service; every operation's shape requirement also gets the role
 * `op.<operation>`. A service's table is the shared one (SHARED_ROLES) less the roles it lacks, with its own IDs where
 * they differ (serviceRoles).
 */
import type { OperationSpec, Requirement } from './model.js';

/** @throws Error when the table names a requirement the catalogue lacks (a typo in the table). */
export function withRoles(
  requirements: Requirement[],
  table: Record<string, string>,
  operations: OperationSpec[],
): Requirement[] {
  const byId = new Map(requirements.map((r) => [r.id, { ...r, roles: [...(r.roles ?? [])] }]));
  const roles: Array<[string, string]> = [
    ...Object.entries(table),
    ...operations.map((op) => [`op.${op.name}`, op.shapeRequirement] as [string, string]),
  ];
  for (const [role, id] of roles) {
    const r = byId.get(id);
    if (!r) throw new Error(`role ${role}: no requirement ${id} in the catalogue`);
    r.roles.push(role);
  }
  return [...byId.values()];
}

/**
 * Each role of the shared rules (scenarios/shared/rules) with the requirement that plays it, as the ID after the
 * service's prefix (ORG-, PERSON-, PROV-) where the services name it alike.
 */
const SHARED_ROLES: Record<string, string> = {
  'auth.rejected': 'AUTH-BEARER',
  'badInput.dataSourceLimit': 'DATASOURCE-LIMIT',
  'badInput.generated': 'BADINPUT-GENERATED',
  'badInput.noServerError': 'NO-SERVER-ERROR',
  'badInput.rejectedNoChange': 'REJECTED-NO-CHANGE',
  'boundaries.nativeId': 'NATIVEID-QUERY',
  'boundaries.relationship': 'REL-ADD',
  'boundaries.stored': 'POST-KEEPS-VALUES',
  'data.hardDeleteData': 'HARDDELETE-EFFECT',
  'envelope.echo': 'ENV-ECHO',
  'envelope.errCarried': 'ERR-CARRIED',
  'envelope.paths': 'ENDPOINT-PATHS',
  'envelope.reply': 'ENV-REPLY',
  'envelope.viewsDefault': 'VIEWS-DEFAULT',
  'lifecycle.hardDeleteEffect': 'HARDDELETE-EFFECT',
  'lifecycle.hardDeleteReply': 'HARDDELETE-REPLY',
  'lifecycle.restoreEffect': 'RESTORE-EFFECT',
  'lifecycle.restoreReply': 'RESTORE-REPLY',
  'lifecycle.softDeleteEffect': 'SOFTDELETE-EFFECT',
  'lifecycle.softDeleteReply': 'SOFTDELETE-REPLY',
  'mergeLink.linkEffect': 'LINK-EFFECT',
  'mergeLink.linkReply': 'LINK-REPLY',
  'mergeLink.mergeEffect': 'MERGE-EFFECT',
  'mergeLink.mergeReply': 'MERGE-REPLY',
  'mergeLink.unlinkEffect': 'UNLINK-EFFECT',
  'mergeLink.unlinkReply': 'UNLINK-REPLY',
  'mergeLink.unmergeEffect': 'UNMERGE-EFFECT',
  'mergeLink.unmergeReply': 'UNMERGE-REPLY',
  'metamorphic.deterministic': 'MATCH-DETERMINISTIC',
  'metamorphic.maxPrefix': 'SEARCH-MAX-PREFIX',
  'metamorphic.oneThreshold': 'MATCH-ONE-THRESHOLD',
  'metamorphic.selfFirst': 'SEARCH-SELF-FIRST',
  'metamorphic.thresholdMonotone': 'SEARCH-THRESHOLD-MONOTONE',
  'notificationEvents.changes': 'NOTIF-RECORDS-CHANGES',
  'notificationEvents.period': 'NOTIF-PERIOD',
  'notifications.noDuplicates': 'NOTIF-PAGING',
  'notifications.paging': 'NOTIF-PAGING',
  'notifications.recordsChanges': 'NOTIF-RECORDS-CHANGES',
  'notifications.total': 'NOTIF-TOTAL',
  'query.bestMatch': 'QUERY-BEST-MATCH',
  'query.findsExact': 'QUERY-FINDS-EXACT',
  'query.idQueryEcho': 'IDQUERY-ECHO',
  'query.idQueryReturns': 'IDQUERY-RETURNS',
  'query.nativeIdQuery': 'NATIVEID-QUERY',
  'query.postAdds': 'POST-ADDS',
  'relationships.add': 'REL-ADD',
  'relationships.dateTime': 'TYPE-DATETIME',
  'relationships.delete': 'REL-DELETE',
  'relationships.search': 'REL-SEARCH',
  'search.findsExact': 'SEARCH-FINDS-EXACT',
  'search.maxPositive': 'SEARCH-MAX-POSITIVE',
  'search.maxResults': 'SEARCH-MAX-RESULTS',
  'search.order': 'SEARCH-ORDER',
  'search.resultsRequired': 'SEARCH-RESULTS-REQUIRED',
  'search.sameIdentity': 'SEARCH-SAME-IDENTITY',
  'search.scoreRange': 'SEARCH-SCORE-RANGE',
  'search.threshold': 'SEARCH-THRESHOLD',
  'type.boolean': 'TYPE-BOOLEAN',
  'type.date': 'TYPE-DATE',
  'type.dateTime': 'TYPE-DATETIME',
  'type.email': 'TYPE-EMAIL',
  'type.number': 'TYPE-NUMBER',
  'type.text': 'TYPE-TEXT',
  'type.time': 'TYPE-TIME',
  'walk.apart': 'WALK-APART',
  'walk.noServerError': 'NO-SERVER-ERROR',
  'walk.post': 'POST-ADDS',
  'walk.rejectedNoChange': 'REJECTED-NO-CHANGE',
  'walk.update': 'POST-SAME-SOURCE-UPDATES',
};

/**
 * A service's role table: every shared role but `lacks` (role names separated by spaces), each played by `prefix` +
 * its SHARED_ROLES ID unless `own` names the service's own requirement for it.
 * @throws Error when `lacks` or `own` name a role SHARED_ROLES does not have (a typo).
 */
export function serviceRoles(
  prefix: string,
  o: { lacks?: string; own?: Record<string, string> },
): Record<string, string> {
  const lacks = o.lacks?.split(' ') ?? [];
  const unknown = [...lacks, ...Object.keys(o.own ?? {})].filter((r) => !(r in SHARED_ROLES));
  if (unknown.length) throw new Error(`no shared role ${unknown.join(', ')}`);
  return Object.fromEntries(
    Object.entries(SHARED_ROLES)
      .filter(([role]) => !lacks.includes(role))
      .map(([role, id]) => [role, o.own?.[role] ?? `${prefix}${id}`]),
  );
}
