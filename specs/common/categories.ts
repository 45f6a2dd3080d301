/**
 * The categories each requirement's sentence implies: the multiplicities and boundaries a defect can hide behind when a
 * rule is checked in one minimal configuration (category-partition: for each input and prior state, its classes, and a
 * test per class). Written once here, by the role a requirement plays in the shared rules (specs/common/roles.ts) or by
 * its ID; checks and walk steps say which they exercised (harness/check.ts Check.exercised), and the report shows, per
 * requirement, the categories a run exercised and those it did not.
 *
 * The situations of the state tables (an identity of three, sources merged in, a record deactivated in a shared
 * identity) are not listed here: they are enumerated from the state engine (specs/state/situations.ts), and the walks
 * reach every one of them.
 *
 * Source: organization-identity-api.md and person-provider-identity-api.md (the sentences the requirements cite:
 * "best-matching", "`hasNext` tells whether more pages exist", "`source` unlinked from `unlinkFromSource`", "excluded
 * from future matching", "deletes a relationship created earlier", "filters are subject link ID, object link ID and
 * relationship verb").
 */

export interface Category {
  id: string;
  /** What it is, in words. */
  what: string;
  /** Why a run may not reach it against a configured deployment (data it cannot control, a budget). */
  reach?: string;
}

const echo = (member: string): Category => ({
  id: `echo:${member}`,
  what: `the reply's ${member} compared with the request's`,
});

const WINDOW: Category[] = [
  { id: 'window:below-page', what: 'a closed window holding fewer notifications than pageSize' },
  { id: 'window:one-page', what: 'a closed window holding exactly pageSize notifications' },
  { id: 'window:pages', what: 'a closed window holding an exact multiple (2 or more) of pageSize' },
  { id: 'window:pages+1', what: 'a closed window holding a multiple of pageSize plus one' },
];

const RELATIONSHIPS_OF_SUBJECT: Category[] = [
  { id: 'relationships-of-subject:1', what: 'the subject has one relationship' },
  { id: 'relationships-of-subject:2+', what: 'the subject has two or more relationships: only the one named goes' },
];

const RELATIONSHIP_CRITERIA: Category[] = [
  { id: 'criterion:subject', what: 'the subject alone, among relationships that differ only in it' },
  { id: 'criterion:object', what: 'the object alone, among relationships that differ only in it' },
  {
    id: 'criterion:verb',
    what: 'the verb alone, among relationships that differ only in it',
    reach: 'needs a second verb the deployment accepts (profile relationship.inverseVerb)',
  },
  { id: 'criteria:combined', what: 'criteria combined, each excluding a relationship the others match' },
];

/** Categories by the role a requirement plays in the shared rules (specs/common/roles.ts), or by requirement ID. */
export const CATEGORIES: Readonly<Record<string, readonly Category[]>> = {
  'mergeLink.unlinkReply': [echo('unlinkedSource'), echo('unlinkedFromSource')],
  'mergeLink.linkReply': [echo('linkToSource')],
  'mergeLink.mergeReply': [echo('toSurviveSource')],
  'mergeLink.unmergeReply': [echo('unmergedSource'), echo('unmergedFromSource')],
  'relationships.delete': RELATIONSHIPS_OF_SUBJECT,
  'relationships.search': RELATIONSHIP_CRITERIA,
  'PERSON-REL-SEARCH-SUBJECT': RELATIONSHIP_CRITERIA.filter(
    (c) => c.id === 'criterion:subject' || c.id === 'criteria:combined',
  ),
  'PERSON-REL-SEARCH-OBJECT': RELATIONSHIP_CRITERIA.filter(
    (c) => c.id === 'criterion:object' || c.id === 'criteria:combined',
  ),
  'PERSON-REL-SEARCH-VERB': RELATIONSHIP_CRITERIA.filter(
    (c) => c.id === 'criterion:verb' || c.id === 'criteria:combined',
  ),
  'notifications.paging': WINDOW,
  'notifications.total': WINDOW,
  'query.bestMatch': [
    { id: 'above-threshold:1', what: 'one identity matches' },
    { id: 'above-threshold:2+', what: 'two or more identities match, the better one created first' },
    { id: 'best-not-first', what: 'two or more identities match, the better one created after the other' },
  ],
  'search.maxResults': [
    { id: 'results:below-max', what: 'fewer candidates than maxSearchResults' },
    { id: 'results:above-max', what: 'more candidates than maxSearchResults' },
    {
      id: 'results:tie-at-cut',
      what: 'candidates of equal score across the cut',
      reach:
        'needs the deployment to score two candidates equally; no seed sentence says which candidates a cut ' +
        'keeps, so no check sets it up (at most maxSearchResults is judged whatever the scores)',
    },
  ],
  'PERSON-REL-DELETE': RELATIONSHIPS_OF_SUBJECT,
};

/** A category as checks record it: `<requirement>#<category>`. */
export const categoryKey = (requirement: string, category: string) => `${requirement}#${category}`;
