/**
 * Clauses of the query checks: nativeIdQuery answers the identity holding the source, demographicsQuery answers (one
 * of) the best-ranked search results, identityIdQuery answers the identity with the link ID asked for and echoes it. A
 * member a reply leaves out is not judged where no sentence makes it required ("No other field is marked required").
 * Source: organization-identity-api.md, What the service does, Endpoints (rule 3); person-provider-identity-api.md,
 * Endpoints (person and provider query operations).
 */
import { clause } from '../common/clause.js';

export const NATIVEID_WRONG_IDENTITY = clause(
  'NATIVEID-WRONG-IDENTITY',
  'a nativeIdQuery reply for a source naming an identity that does not hold it: an identityGroupedBySource ' +
    '(when given) without the source, or another link ID than the source resolved to, with nothing changed in ' +
    'between',
  ['query.nativeIdQuery', 'PERSON-NATIVEID-QUERY'],
);
/** NATIVEID-WRONG-IDENTITY: what the reply for `source` says that another identity would. */
export function nativeIdWrongIdentity(
  source: { name: string; id: string },
  expectedLinkId: string,
  reply: { linkId?: unknown; grouped: ReadonlyArray<{ name?: unknown; id?: unknown }> | undefined },
): string[] {
  const out: string[] = [];
  if (reply.linkId !== expectedLinkId)
    out.push(`link ID ${JSON.stringify(reply.linkId)}, the source resolved to ${expectedLinkId}`);
  if (reply.grouped?.length && !reply.grouped.some((s) => s.name === source.name && s.id === source.id))
    out.push(
      `identityGroupedBySource lists ` +
        `${reply.grouped.map((s) => `${String(s.name)}/${String(s.id)}`).join(', ')}, not ` +
        `${source.name}/${source.id}`,
    );
  return out;
}

export const QUERY_NOT_BEST = clause(
  'QUERY-NOT-BEST',
  'a demographicsQuery answer that is not among the best-ranked results of a demographicsSearch (threshold 0) ' +
    'with the same identity: absent from them, or scored below the first',
  ['query.bestMatch'],
);
/**
 * QUERY-NOT-BEST: the query's answer `linkId` against the search results (in their order). Without scores (person
 * result fields are not shown) the first result is the best ranked; ties at the top score are all best.
 */
export function queryNotBest(
  linkId: string,
  results: ReadonlyArray<{ linkId?: unknown; matchScore?: unknown }>,
): string[] {
  if (!results.length) return [`demographicsQuery answered ${linkId}; the search returned no result`];
  const top = results[0]!.matchScore;
  const best =
    typeof top === 'number' ? results.filter((r) => r.matchScore === top).map((r) => r.linkId) : [results[0]!.linkId];
  if (best.includes(linkId)) return [];
  const it = results.find((r) => r.linkId === linkId);
  return [
    it
      ? `demographicsQuery answered ${linkId} (score ${JSON.stringify(it.matchScore)}); the search ranks ` +
        `${best.join(', ')} first (score ${JSON.stringify(top)})`
      : `demographicsQuery answered ${linkId}, which is not among the search results (${results.length}, first ` +
        `${String(results[0]!.linkId)})`,
  ];
}

export const QUERY_MISSES_EXACT = clause(
  'QUERY-MISSES-EXACT',
  'a demographicsQuery with an exact copy of a posted identity that does not return it within the consistency budget',
  ['query.findsExact'],
);
/** QUERY-MISSES-EXACT: the posted link ID, when no query returned it. */
export function queryMissesExact(linkId: string, found: boolean): string[] {
  return found ? [] : [`demographicsQuery did not return ${linkId}`];
}

export const IDQUERY_OTHER_IDENTITY = clause(
  'IDQUERY-OTHER-IDENTITY',
  'an identityIdQuery of a link ID in use answering an identity whose linkId is another one (a reply without ' +
    'linkId is not judged)',
  ['query.idQueryReturns'],
);
/** IDQUERY-OTHER-IDENTITY: the reply's linkId, when it is present and not the one asked for. */
export function idQueryOtherIdentity(requested: string, linkId: unknown): string[] {
  return linkId === undefined || linkId === null || linkId === requested
    ? []
    : [`asked ${requested}, answered identity ${JSON.stringify(linkId)}`];
}

export const REQUESTED_NOT_ECHOED = clause(
  'REQUESTED-NOT-ECHOED',
  'an identityIdQuery reply whose requestedLinkId is not the link ID asked for',
  ['query.idQueryEcho', 'state:queries.idQueryEcho'],
);
/** REQUESTED-NOT-ECHOED: the reply's requestedLinkId, when it is not the link ID asked for. */
export function requestedNotEchoed(requested: string, echoed: unknown): string[] {
  return echoed === requested ? [] : [`asked ${requested}, requestedLinkId ${JSON.stringify(echoed)}`];
}

export const QUERY_THRESHOLD_DIFFERS = clause(
  'QUERY-THRESHOLD-DIFFERS',
  'a person demographicsQuery found the original identity for while posting them did not link them to it, or ' +
    'the other way round',
  ['PERSON-QUERY-SAME-THRESHOLD'],
);
/** QUERY-THRESHOLD-DIFFERS: the variants whose query and post decisions disagree. */
export function queryThresholdDiffers(
  outcomes: ReadonlyArray<{ what: string; queried: boolean; linked: boolean }>,
): string[] {
  return outcomes
    .filter((o) => o.queried !== o.linked)
    .map(
      (o) =>
        `${o.what}: demographicsQuery ${o.queried ? 'found' : 'did not find'} the original, postIdentity ` +
        `${o.linked ? 'linked' : 'did not link'}`,
    );
}

export const QUERY_CLAUSES = [
  NATIVEID_WRONG_IDENTITY,
  QUERY_NOT_BEST,
  QUERY_MISSES_EXACT,
  IDQUERY_OTHER_IDENTITY,
  REQUESTED_NOT_ECHOED,
  QUERY_THRESHOLD_DIFFERS,
];
