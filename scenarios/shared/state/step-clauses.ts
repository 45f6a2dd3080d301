/**
 * The clauses a step's own reply is judged by, before the state it leaves is observed
 * (scenarios/shared/state/oracle-clauses.ts): whether the deployment accepted or rejected a request as the state table
 * says it must from the named records' states, and whether a reply is an answer at all. The state table's reply clauses
 * (specs/state/state-rows.ts) judge the reply's members.
 *
 * Source: organization-identity-api.md, "States and transitions", Errors; person-provider-identity-api.md, "States and
 * transitions", Errors.
 */
import { clause } from '../../../specs/common/clause.js';

export const ALLOWED_STEP_REJECTED = clause(
  'ALLOWED-STEP-REJECTED',
  "a rejection of a request the state table allows from the named records' states (its From column)",
);

export const FORBIDDEN_STEP_ACCEPTED = clause(
  'FORBIDDEN-STEP-ACCEPTED',
  'a success of a request the seeds forbid (provider: a merge or link of identities of two provider types)',
);

export const NEITHER_ACCEPTED_NOR_REJECTED = clause(
  'NEITHER-ACCEPTED-NOR-REJECTED',
  'a reply that is neither a success nor a rejection carried in the envelope (success=false)',
);

export const SERVER_ERROR = clause(
  'SERVER-ERROR',
  'an HTTP 5xx reply that carries no failure envelope (success=false)',
);

export const EXCLUDED_RECORD_JOINED = clause(
  'EXCLUDED-RECORD-JOINED',
  'an exact copy of a record excluded from matching (person: deactivated), posted from another source, joining ' +
    "that record's identity",
);

export const REJECTED_STEP_CHANGED = clause(
  'REJECTED-STEP-CHANGED',
  'a rejected request leaving the records it named, or their identities, otherwise than they were (EXPECT)',
);
