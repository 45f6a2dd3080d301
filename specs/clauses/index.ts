/**
 * Every clause the single checks judge with, by area (the listing docs/clauses.md is written from).
 * Source: the area modules beside this file.
 */
import { AUTH_CLAUSES } from './auth.js';
import { BAD_INPUT_CLAUSES } from './bad-input.js';
import { CONTRACT_CLAUSES } from './contract.js';
import { ENVELOPE_CLAUSES } from './envelope.js';
import { MATCHING_CLAUSES } from './matching.js';
import { NOTIFICATION_CLAUSES } from './notifications.js';
import { PERSON_CLAUSES } from './person.js';
import { POST_CLAUSES } from './post.js';
import { QUERY_CLAUSES } from './query.js';
import { RELATIONSHIP_CLAUSES } from './relationships.js';
import { SEARCH_CLAUSES } from './search.js';
import type { CheckClause } from './table.js';

/** The single checks' clauses, area by area. */
export const CHECK_CLAUSES: ReadonlyArray<{ area: string; clauses: readonly CheckClause[] }> = [
  { area: 'contract (every reply)', clauses: CONTRACT_CLAUSES },
  { area: 'envelope', clauses: ENVELOPE_CLAUSES },
  { area: 'postIdentity', clauses: POST_CLAUSES },
  { area: 'search', clauses: SEARCH_CLAUSES },
  { area: 'query', clauses: QUERY_CLAUSES },
  { area: 'relationships', clauses: RELATIONSHIP_CLAUSES },
  { area: 'notifications', clauses: NOTIFICATION_CLAUSES },
  { area: 'authentication', clauses: AUTH_CLAUSES },
  { area: 'bad input', clauses: BAD_INPUT_CLAUSES },
  { area: 'person', clauses: PERSON_CLAUSES },
  { area: 'matching', clauses: MATCHING_CLAUSES },
];
