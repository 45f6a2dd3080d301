/**
 * Clauses of the person-only checks: households at a shared address (the lookup forms are judged by the whole-state
 * oracle's household clauses), data sources (created, the limit of 10 both ways, available within 15 minutes), the
 * source entries of attribute objects, a reactivated record matching again, an unlink splitting matched records.
 * Source: person-provider-identity-api.md, Endpoints (/householdQuery, /createDataSource), Limits, Resources (Source
 * entry), States and transitions.
 */
import { type Answer, accepted, said } from '../common/answer.js';
import { clause } from '../common/clause.js';

export const HOUSEHOLD_NOT_SHARED = clause(
  'HOUSEHOLD-NOT-SHARED',
  'people posted at one shared address that no household groups together within the consistency budget',
  ['PERSON-HOUSEHOLD-SHARED-ADDRESS'],
);
/** HOUSEHOLD-NOT-SHARED: the link IDs, when no household held them all. */
export function householdNotShared(linkIds: readonly string[], found: boolean): string[] {
  return found ? [] : [`no household holds ${linkIds.join(', ')}`];
}

export const DATASOURCES_NOT_REPORTED = clause(
  'DATASOURCES-NOT-REPORTED',
  'a createDataSource reply that reports results by data source name (datasource) without a result for every ' +
    'name asked for',
  ['PERSON-DATASOURCE-CREATES'],
);
/** DATASOURCES-NOT-REPORTED: names asked for that a reply naming its results (datasource members) leaves out. */
export function dataSourcesNotReported(asked: readonly string[], results: unknown): string[] {
  const named = (Array.isArray(results) ? results : [])
    .map((x) => (x as { datasource?: unknown } | null)?.datasource)
    .filter((x): x is string => typeof x === 'string');
  if (!named.length) return [];
  return asked.filter((n) => !named.includes(n)).map((n) => `no result for ${n} (results name ${named.join(', ')})`);
}

export const TEN_REFUSED = clause(
  'TEN-REFUSED',
  'a createDataSource call naming 10 new data sources refused',
  ['PERSON-DATASOURCE-LIMIT'],
  {
    on: 'up to 10 per call',
  },
);
/** TEN-REFUSED: the reply to a call naming 10 data sources, when it did not accept it. */
export function tenRefused(a: Answer): string[] {
  return accepted(a) ? [] : [`10 data sources: ${said(a)}`];
}

export const DATASOURCE_UNAVAILABLE = clause(
  'DATASOURCE-UNAVAILABLE',
  'a data source that still refuses a postIdentity naming it 15 minutes after its creation',
  ['PERSON-DATASOURCE-AVAILABILITY'],
);
/** DATASOURCE-UNAVAILABLE: the last post, when it was refused after `seconds` s. */
export function dataSourceUnavailable(name: string, seconds: number, a: Answer): string[] {
  return accepted(a) ? [] : [`a post on ${name} ${seconds} s after its creation: ${said(a)}`];
}

export const ATTRIBUTE_WITHOUT_SOURCES = clause(
  'ATTRIBUTE-WITHOUT-SOURCES',
  'an attribute object of a returned person identity without a sources[] array or a clusterStatus string',
  ['PERSON-ATTR-SOURCES'],
);
/** ATTRIBUTE-WITHOUT-SOURCES: attribute objects (`at`: where) lacking sources[] or clusterStatus. */
export function attributeWithoutSources(
  attributes: ReadonlyArray<{ at: string; o: Record<string, unknown> }>,
): string[] {
  return attributes
    .filter(({ o }) => !Array.isArray(o?.sources) || typeof o?.clusterStatus !== 'string')
    .map(({ at }) => at);
}

export const ATTRIBUTE_NOT_ATTRIBUTED = clause(
  'ATTRIBUTE-NOT-ATTRIBUTED',
  "a kind of attribute the record posted none of whose objects' source entries names the record's native ID, " +
    "where that kind's source entries name native IDs",
  ['PERSON-ATTR-SOURCES'],
  { on: 'nativeId' },
);
/** ATTRIBUTE-NOT-ATTRIBUTED: posted kinds whose source entries name native IDs, none of them `nativeId`. */
export function attributeNotAttributed(
  posted: readonly string[],
  attributes: ReadonlyArray<{ kind: string; o: Record<string, unknown> }>,
  nativeId: string,
): string[] {
  return posted
    .filter((kind) => {
      const entries = attributes
        .filter((a) => a.kind === kind)
        .flatMap(({ o }) => (Array.isArray(o?.sources) ? (o.sources as Array<{ nativeId?: unknown } | null>) : []));
      const named = entries.map((s) => s?.nativeId).filter((x) => typeof x === 'string');
      return named.length > 0 && !named.includes(nativeId);
    })
    .map((kind) => `${kind}: no source entry names native ID ${nativeId}`);
}

export const REACTIVATED_NOT_MATCHING = clause(
  'REACTIVATED-NOT-MATCHING',
  'an exact copy of a reactivated record that does not join its link ID',
  ['PERSON-REACTIVATE-MATCHES-AGAIN'],
);
export const MATCHED_NOT_SPLIT = clause(
  'MATCHED-NOT-SPLIT',
  'a record postIdentity matched that unlinkIdentities split, still in the link ID of the record it was split ' +
    'from (or in none)',
  ['PERSON-UNLINK-MATCHED'],
);
/** MATCHED-NOT-SPLIT: where the split record is, when it is not in a link ID of its own. */
export function matchedNotSplit(from: string | undefined, split: string | undefined): string[] {
  if (split === undefined) return ['the split record resolves to no identity'];
  return split === from ? [`the split record is still in ${split}`] : [];
}

export const PERSON_CLAUSES = [
  HOUSEHOLD_NOT_SHARED,
  DATASOURCES_NOT_REPORTED,
  TEN_REFUSED,
  DATASOURCE_UNAVAILABLE,
  ATTRIBUTE_WITHOUT_SOURCES,
  ATTRIBUTE_NOT_ATTRIBUTED,
  REACTIVATED_NOT_MATCHING,
  MATCHED_NOT_SPLIT,
];
