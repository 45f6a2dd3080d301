/**
 * The clauses a step's own reply is judged by, before the state it leaves is observed (specs/state/oracle.ts): whether
 * the deployment accepted or rejected a request as the state table says it must from the named records' states, and
 * whether a reply is an answer at all (SERVER-ERROR: specs/clauses/bad-input.ts). The state table's reply clauses
 * (specs/state/reply-clauses.ts) judge the reply's members.
 *
 * Source: organization-identity-api.md, "States and transitions", Errors; person-provider-identity-api.md, "States and
 * transitions", Errors.
 */
import { clause } from '../common/clause.js';

export const ALLOWED_STEP_REJECTED = clause(
  'ALLOWED-STEP-REJECTED',
  "a rejection of a request the state table allows from the named records' states (its From column)",
  ['state:effect'],
);

export const FORBIDDEN_STEP_ACCEPTED = clause(
  'FORBIDDEN-STEP-ACCEPTED',
  'a success of a request the seeds forbid (provider: a merge or link of identities of two provider types)',
  ['state:reject'],
);

export const NEITHER_ACCEPTED_NOR_REJECTED = clause(
  'NEITHER-ACCEPTED-NOR-REJECTED',
  'a reply that is neither a success nor a rejection carried in the envelope (success=false)',
  ['walk.noServerError'],
);

export const EXCLUDED_RECORD_JOINED = clause(
  'EXCLUDED-RECORD-JOINED',
  'an exact copy of a record excluded from matching (person: deactivated), posted from another source, joining ' +
    "that record's identity",
  ['state:effect'],
);

/** The step's clauses, for the registry. */
export const STEP_CLAUSES = [
  ALLOWED_STEP_REJECTED,
  FORBIDDEN_STEP_ACCEPTED,
  NEITHER_ACCEPTED_NOR_REJECTED,
  EXCLUDED_RECORD_JOINED,
] as const;
